// A file's rollout prompt rows held compactly (docs/compare.md#reading-a-summary): a run of
// 1 000 steps × 512 prompts is half a million rows a side, which as JSON arrays cost ~150 bytes
// each and keep the collector busy; here a row is a span of a text, four 32-bit integers and a double.
// Summaries read from a file (summaryDecode.ts) carry their tables; a summary built in memory has
// its rows, from which a table is made when asked.
import type { FileSummary, PromptRow } from './summary';

/**
 * Where a table's ids are: spans of a text (the summary's JSON, or a file's ids joined), taken
 * from it when asked, so a table holds no string per row; ids with JSON escapes decoded aside.
 */
interface IdSource {
  text: string;
  spans: Int32Array;
  decoded: ReadonlyMap<number, string>;
}

export interface PromptTableParts {
  text: string;
  spans: Int32Array;
  decoded: [number, string][];
  ints: Int32Array;
  rewardSums: Float64Array;
}

/** Whether a count or line fits the table's 32-bit columns (else the rows are kept as they are). */
export function fitsTable(value: number): boolean {
  return value >= 0 && value <= 0x7fffffff && Number.isInteger(value) && !Object.is(value, -0);
}

/** A file's rows as the diff reads them. */
export interface PromptRows {
  readonly length: number;
  id(row: number): string;
  state(row: number): number;
  samples(row: number): number;
  passes(row: number): number;
  line(row: number): number;
  rewardSum(row: number): number;
}

/** Rows as arrays (a summary built in memory), read as a table is. */
class RowArrays implements PromptRows {
  constructor(private readonly rows: readonly PromptRow[]) {}
  get length(): number {
    return this.rows.length;
  }
  id(row: number): string {
    return this.rows[row][0];
  }
  state(row: number): number {
    return this.rows[row][1];
  }
  samples(row: number): number {
    return this.rows[row][2];
  }
  passes(row: number): number {
    return this.rows[row][3];
  }
  rewardSum(row: number): number {
    return this.rows[row][4];
  }
  line(row: number): number {
    return this.rows[row][5];
  }
}

/** A file's rows: ids, per row state, samples, passes, line (32-bit) and reward sum. */
export class PromptTable implements PromptRows {
  constructor(
    private readonly ids: IdSource,
    private readonly ints: Int32Array,
    private readonly rewardSums: Float64Array,
  ) {}

  get length(): number {
    return this.rewardSums.length;
  }

  id(row: number): string {
    const ids = this.ids;
    return ids.decoded.get(row) ?? ids.text.slice(ids.spans[row * 2], ids.spans[row * 2 + 1]);
  }
  state(row: number): number {
    return this.ints[row * 4];
  }
  samples(row: number): number {
    return this.ints[row * 4 + 1];
  }
  passes(row: number): number {
    return this.ints[row * 4 + 2];
  }
  line(row: number): number {
    return this.ints[row * 4 + 3];
  }
  rewardSum(row: number): number {
    return this.rewardSums[row];
  }

  /** The table as plain data (typed arrays, to hand to another thread). */
  parts(): PromptTableParts {
    return { text: this.ids.text, spans: this.ids.spans, decoded: [...this.ids.decoded], ints: this.ints, rewardSums: this.rewardSums };
  }

  static fromParts(p: PromptTableParts): PromptTable {
    return new PromptTable({ text: p.text, spans: p.spans, decoded: new Map(p.decoded) }, p.ints, p.rewardSums);
  }

  /** The rows as the summary's JSON writes them. */
  rows(): PromptRow[] {
    const out: PromptRow[] = new Array(this.length);
    for (let r = 0; r < this.length; r++) out[r] = [this.id(r), this.state(r), this.samples(r), this.passes(r), this.rewardSum(r), this.line(r)];
    return out;
  }

  /** A table of `rows`; null when a count or line does not fit it. */
  static of(rows: readonly PromptRow[]): PromptTable | null {
    const builder = new PromptTableBuilder(null);
    for (const [id, state, samples, passes, rewardSum, line] of rows) if (!builder.pushId(id, state, samples, passes, rewardSum, line)) return null;
    return builder.finish();
  }
}

/** Collects rows into a table without making them: ids as spans of `text`, or as strings (`pushId`, text null). */
export class PromptTableBuilder {
  private length = 0;
  private spans = new Int32Array(64 * 2);
  private ints = new Int32Array(64 * 4);
  private sums = new Float64Array(64);
  private readonly decoded = new Map<number, string>();
  private readonly idList: string[] = [];
  private idChars = 0;

  constructor(private readonly text: string | null) {}

  /** A row whose id is `text.slice(idStart, idEnd)`, or `decodedId` (an id with escapes); false: a count does not fit. */
  push(idStart: number, idEnd: number, decodedId: string | null, state: number, samples: number, passes: number, rewardSum: number, line: number): boolean {
    if (!(fitsTable(state) && fitsTable(samples) && fitsTable(passes) && fitsTable(line))) return false;
    const r = this.length++;
    if (r === this.sums.length) this.grow();
    this.spans[r * 2] = idStart;
    this.spans[r * 2 + 1] = idEnd;
    if (decodedId !== null) this.decoded.set(r, decodedId);
    const at = r * 4;
    this.ints[at] = state;
    this.ints[at + 1] = samples;
    this.ints[at + 2] = passes;
    this.ints[at + 3] = line;
    this.sums[r] = rewardSum;
    return true;
  }

  /** A row with its id as a string (the ids are joined into one text by `finish`). */
  pushId(id: string, state: number, samples: number, passes: number, rewardSum: number, line: number): boolean {
    if (!this.push(this.idChars, this.idChars + id.length, null, state, samples, passes, rewardSum, line)) return false;
    this.idList.push(id);
    this.idChars += id.length;
    return true;
  }

  private grow(): void {
    const n = this.sums.length * 2;
    const spans = new Int32Array(n * 2);
    spans.set(this.spans);
    this.spans = spans;
    const ints = new Int32Array(n * 4);
    ints.set(this.ints);
    this.ints = ints;
    const sums = new Float64Array(n);
    sums.set(this.sums);
    this.sums = sums;
  }

  /** The table, its columns trimmed to its rows. */
  finish(): PromptTable {
    const n = this.length;
    const ids = { text: this.text ?? this.idList.join(''), spans: this.spans.slice(0, n * 2), decoded: this.decoded };
    return new PromptTable(ids, this.ints.slice(0, n * 4), this.sums.slice(0, n));
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
  // Written (JSON.stringify) with rows made for the writing only: a run's rows are never all made at once.
  Object.defineProperty(file, 'toJSON', {
    configurable: true,
    enumerable: false,
    value(this: FileSummary): Record<string, unknown> {
      const out: Record<string, unknown> = {};
      const current = tables.get(this) === table;
      for (const key of Object.keys(this)) out[key] = key === 'prompts' && current ? table.rows() : this[key as keyof FileSummary];
      return out;
    },
  });
}

/** The table `file` was given by `attachPromptTable`, while its rows are not made. */
export function attachedTable(file: FileSummary): PromptTable | undefined {
  return tables.get(file);
}

/** A file's rows: the table it was made or read with, else its row arrays. */
export function promptRowsOf(file: FileSummary): PromptRows {
  return tables.get(file) ?? new RowArrays(file.prompts);
}
