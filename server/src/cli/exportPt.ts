// `rollout-lens export <file.pt> [--out file.jsonl]`: a miles `.pt` dump as JSON Lines, for
// editors without the extension and for scripts (docs/pt.md). Nothing in the file is run.
// Exit: 0 read whole; 1 a callable was blocked or reading stopped early (what was read is
// written); 2 the file cannot be opened or is no torch.save file.
import { closeSync, openSync, renameSync, writeSync } from 'node:fs';

import { exportDumpLines } from '../core/ptExport';

import { escapeInline } from './escape';
import { cliFileAccess } from './fileAccess';

interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export async function runExport(file: string, out: string | null, io: Io, tensors: 'summary' | 'values' = 'summary'): Promise<number> {
  try {
    if (!(await cliFileAccess.stat(file)).isFile) throw new Error('not a file');
  } catch (err) {
    io.stderr(`rollout-lens: ${escapeInline(file)}: ${escapeInline((err as Error).message)}\n`);
    return 2;
  }
  // Written to a temporary file beside --out, then renamed: a failed export leaves no half file.
  const tmp = out === null ? null : `${out}.tmp-${process.pid}`;
  const fd = tmp === null ? null : openSync(tmp, 'w');
  let chunk = '';
  const flush = () => {
    if (fd !== null) writeSync(fd, chunk);
    else io.stdout(chunk);
    chunk = '';
  };
  let r;
  try {
    r = await exportDumpLines(
      cliFileAccess,
      file,
      (line) => {
        chunk += line;
        if (chunk.length >= 1 << 20) flush();
      },
      { tensors },
    );
    flush();
  } finally {
    if (fd !== null) closeSync(fd);
  }
  if (tmp !== null && out !== null) renameSync(tmp, out);
  for (const p of r.problems) io.stderr(`rollout-lens: ${escapeInline(file)}: ${escapeInline(p)}\n`);
  if (r.samples === 0 && r.stopped) return 2;
  return r.problems.length > 0 ? 1 : 0;
}
