// `summarize` keeps each file's prompt rows in a scratch file while it reads the run, and copies
// them into the summary as it writes it (docs/compare.md#reading-a-summary): the 10 M-sample
// folder is 1.25 M rows, ~60 MB even in typed columns, which the run's own reading leaves no room
// for under 200 MB. The scratch file is removed when the summary is written (or not).
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { attachedTable, attachKeptRows } from '../core/compare/attachedRows';
import type { FileSummary, PromptRow } from '../core/compare/summary';

export class KeptRows {
  private readonly dir = mkdtempSync(join(tmpdir(), 'rollout-lens-rows-'));
  private readonly fd = openSync(join(this.dir, 'rows.json'), 'w+');
  private end = 0;

  /** Moves `file`'s rows (when they are in a table) to the scratch file. */
  keep(file: FileSummary): void {
    const table = attachedTable(file);
    if (!table) return;
    const start = this.end;
    // As bytes from a reused buffer: the rows' text would be strings of garbage (~600 bytes a row).
    table.writeRowsJson((bytes, length) => {
      for (let done = 0; done < length;) done += writeSync(this.fd, bytes, done, length - done);
      this.end += length;
    });
    const length = this.end - start;
    const read = () => this.read(start, length);
    attachKeptRows(file, { json: () => [read()], rows: () => JSON.parse(read()) as PromptRow[] });
  }

  private read(start: number, length: number): string {
    const bytes = Buffer.allocUnsafe(length);
    for (let got = 0; got < length;) {
      const n = readSync(this.fd, bytes, got, length - got, start + got);
      if (n === 0) throw new Error('the scratch file of prompt rows ended early');
      got += n;
    }
    return bytes.toString('utf8');
  }

  close(): void {
    closeSync(this.fd);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
