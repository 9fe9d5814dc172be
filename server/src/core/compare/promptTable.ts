// A file's rollout prompt rows held compactly (docs/compare.md#reading-a-summary): a run of
// 1 000 steps × 512 prompts is half a million rows a side, which as JSON arrays cost ~150 bytes
// each and keep the collector busy; here a row is its id and five doubles in one typed array.
// Summaries read from a file (summaryDecode.ts) carry their tables; a summary built in memory has
// its rows, from which a table is made when asked.
import type { FileSummary, PromptRow } from './summary';

const WIDTH = 5;

/**
 * Where a table's ids are: a list, or spans of a source text (the summary's JSON: ids without
 * escapes are taken from it when asked, so a table holds no string per row), with the few ids
 * that have escapes decoded aside.
 */
export type IdSource = { list: readonly string[] } | { text: string; spans: Int32Array; decoded: ReadonlyMap<number, string> };

/** A file's rows: ids, and per row state, samples, passes, reward sum, line. */
export class PromptTable {
  constructor(
    private readonly ids: IdSource,
    private readonly columns: Float64Array,
  ) {}

  get length(): number {
    return this.columns.length / WIDTH;
  }

  id(row: number): string {
    const ids = this.ids;
    if ('list' in ids) return ids.list[row];
    return ids.decoded.get(row) ?? ids.text.slice(ids.spans[row * 2], ids.spans[row * 2 + 1]);
  }
  state(row: number): number {
    return this.columns[row * WIDTH];
  }
  samples(row: number): number {
    return this.columns[row * WIDTH + 1];
  }
  passes(row: number): number {
    return this.columns[row * WIDTH + 2];
  }
  rewardSum(row: number): number {
    return this.columns[row * WIDTH + 3];
  }
  line(row: number): number {
    return this.columns[row * WIDTH + 4];
  }

  /** The rows as the summary's JSON writes them. */
  rows(): PromptRow[] {
    const out: PromptRow[] = new Array(this.length);
    for (let r = 0; r < this.length; r++) out[r] = [this.id(r), this.state(r), this.samples(r), this.passes(r), this.rewardSum(r), this.line(r)];
    return out;
  }

  static of(rows: readonly PromptRow[]): PromptTable {
    const columns = new Float64Array(rows.length * WIDTH);
    rows.forEach(([, state, samples, passes, rewardSum, line], r) => columns.set([state, samples, passes, rewardSum, line], r * WIDTH));
    return new PromptTable({ list: rows.map((row) => row[0]) }, columns);
  }
}

/** Collects rows read from a summary's `text` into a table without making them. */
export class PromptTableBuilder {
  private length = 0;
  private spans = new Int32Array(64 * 2);
  private columns = new Float64Array(64 * WIDTH);
  private readonly decoded = new Map<number, string>();

  constructor(private readonly text: string) {}

  /** A row whose id is `text.slice(idStart, idEnd)`, or `decodedId` (an id with escapes). */
  push(idStart: number, idEnd: number, decodedId: string | null, state: number, samples: number, passes: number, rewardSum: number, line: number): void {
    const r = this.length++;
    if (r * WIDTH === this.columns.length) {
      const columns = new Float64Array(r * 2 * WIDTH);
      columns.set(this.columns);
      this.columns = columns;
      const spans = new Int32Array(r * 4);
      spans.set(this.spans);
      this.spans = spans;
    }
    this.spans[r * 2] = idStart;
    this.spans[r * 2 + 1] = idEnd;
    if (decodedId !== null) this.decoded.set(r, decodedId);
    const c = this.columns;
    const at = r * WIDTH;
    c[at] = state;
    c[at + 1] = samples;
    c[at + 2] = passes;
    c[at + 3] = rewardSum;
    c[at + 4] = line;
  }

  /** The table, its columns trimmed to its rows. */
  finish(): PromptTable {
    const ids = { text: this.text, spans: this.spans.slice(0, this.length * 2), decoded: this.decoded };
    return new PromptTable(ids, this.columns.slice(0, this.length * WIDTH));
  }
}

const tables = new WeakMap<FileSummary, PromptTable>();

function setRows(file: FileSummary, rows: PromptRow[]): void {
  // Rows once made may be changed: from then on they are the file's rows, not the table.
  tables.delete(file);
  Object.defineProperty(file, 'prompts', { value: rows, writable: true, configurable: true, enumerable: true });
}

/**
 * Gives `file` its rows as `table`: `prompts` is made from the table when first read (and kept),
 * so a summary read from a file is the same summary whichever way it is used.
 */
export function attachPromptTable(file: FileSummary, table: PromptTable): void {
  tables.set(file, table);
  Object.defineProperty(file, 'prompts', {
    configurable: true,
    enumerable: true,
    get(): PromptRow[] {
      const rows = table.rows();
      setRows(file, rows);
      return rows;
    },
    set(rows: PromptRow[]) {
      setRows(file, rows);
    },
  });
}

/** A file's rows as a table: the one it was read with, else made from its rows. */
export function promptTableOf(file: FileSummary): PromptTable {
  return tables.get(file) ?? PromptTable.of(file.prompts);
}
