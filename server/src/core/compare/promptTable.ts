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

  /** `JSON.stringify(this.rows())` in pieces of up to `chunk` rows, without making the rows. */
  *rowsJson(chunk = 2048): Generator<string> {
    if (this.length === 0) {
      yield '[]';
      return;
    }
    const part: string[] = [];
    for (let r = 0; r < this.length; r++) {
      const sum = this.rewardSum(r);
      // JSON writes a number as String does, and NaN and ±Infinity as null.
      const sumText = Number.isFinite(sum) ? String(sum) : 'null';
      part.push(`[${JSON.stringify(this.id(r))},${this.state(r)},${this.samples(r)},${this.passes(r)},${sumText},${this.line(r)}]`);
      if (part.length === chunk || r === this.length - 1) {
        yield `${r < chunk ? '[' : ','}${part.join(',')}${r === this.length - 1 ? ']' : ''}`;
        part.length = 0;
      }
    }
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

/** Collects rows into a table without making them: ids as spans of `text`, or given as strings (`pushId`, text null). */
export class PromptTableBuilder {
  private length = 0;
  private spans = new Int32Array(64 * 2);
  private ints = new Int32Array(64 * 4);
  private sums = new Float64Array(64);
  private readonly decoded = new Map<number, string>();
  private idBytes = new Uint8Array(1024);
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

  /**
   * A row with its id as a string. ASCII ids are copied as bytes into one buffer (one string for
   * all of them at `finish`, none kept per row: a file of a million samples has 125 000 groups);
   * others are kept aside as they are.
   */
  pushId(id: string, state: number, samples: number, passes: number, rewardSum: number, line: number): boolean {
    const at = this.idChars;
    let ascii = true;
    if (this.idBytes.length < at + id.length) {
      const grown = new Uint8Array(Math.max(2 * this.idBytes.length, at + id.length));
      grown.set(this.idBytes.subarray(0, at));
      this.idBytes = grown;
    }
    for (let k = 0; k < id.length; k++) {
      const c = id.charCodeAt(k);
      if (c >= 0x80) {
        ascii = false;
        break;
      }
      this.idBytes[at + k] = c;
    }
    if (!this.push(at, ascii ? at + id.length : at, ascii ? null : id, state, samples, passes, rewardSum, line)) return false;
    if (ascii) this.idChars += id.length;
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
    const text = this.text ?? new TextDecoder('latin1').decode(this.idBytes.subarray(0, this.idChars));
    const ids = { text, spans: this.spans.slice(0, n * 2), decoded: this.decoded };
    return new PromptTable(ids, this.ints.slice(0, n * 4), this.sums.slice(0, n));
  }
}

/** Rows held elsewhere than as arrays: in a table, or kept outside the heap (`attachKeptRows`). */
interface AttachedRows {
  /** The table, when the rows are in one. */
  table: PromptTable | null;
  /** `JSON.stringify` of the rows, in pieces. */
  json(): Iterable<string>;
  rows(): PromptRow[];
}

const attached = new WeakMap<FileSummary, AttachedRows>();

function setRows(file: FileSummary, rows: PromptRow[]): void {
  // Rows once made may be changed: from then on they are the file's rows.
  attached.delete(file);
  Object.defineProperty(file, 'prompts', { value: rows, writable: true, configurable: true, enumerable: true });
}

function attach(file: FileSummary, rows: AttachedRows): void {
  attached.set(file, rows);
  Object.defineProperty(file, 'prompts', {
    configurable: true,
    enumerable: true,
    get(): PromptRow[] {
      const made = rows.rows();
      setRows(file, made);
      return made;
    },
    set(made: PromptRow[]) {
      setRows(file, made);
    },
  });
  // Written (JSON.stringify) with rows made for the writing only: a run's rows are never all made at once.
  Object.defineProperty(file, 'toJSON', {
    configurable: true,
    enumerable: false,
    value(this: FileSummary): Record<string, unknown> {
      const out: Record<string, unknown> = {};
      const current = attached.get(this) === rows;
      for (const key of Object.keys(this)) out[key] = key === 'prompts' && current ? rows.rows() : this[key as keyof FileSummary];
      return out;
    },
  });
}

/**
 * Gives `file` its rows as `table`: `prompts` is made from the table when first read (and kept),
 * so a summary read from a file is the same summary whichever way it is used.
 */
export function attachPromptTable(file: FileSummary, table: PromptTable): void {
  attach(file, { table, json: () => table.rowsJson(), rows: () => table.rows() });
}

/**
 * Gives `file` its rows as kept outside the heap (`summarize` keeps them in a scratch file while
 * the run is read, node/keptRows.ts): `json` gives them back as written, `rows` as arrays.
 */
export function attachKeptRows(file: FileSummary, kept: { json(): Iterable<string>; rows(): PromptRow[] }): void {
  attach(file, { table: null, json: () => kept.json(), rows: () => kept.rows() });
}

/**
 * `JSON.stringify(file)` in pieces, its rows written from where they are held (without making
 * them): the same text either way.
 */
export function* fileJson(file: FileSummary): Generator<string> {
  const rows = attached.get(file);
  const keys = Object.keys(file);
  const at = keys.indexOf('prompts');
  if (!rows || at < 0) {
    yield JSON.stringify(file);
    return;
  }
  const part = (from: number, to: number) => {
    const out: Record<string, unknown> = {};
    for (const key of keys.slice(from, to)) out[key] = file[key as keyof FileSummary];
    return JSON.stringify(out).slice(1, -1);
  };
  const before = part(0, at);
  yield `{${before}${before ? ',' : ''}"prompts":`;
  yield* rows.json();
  const after = part(at + 1, keys.length);
  yield `${after ? ',' : ''}${after}}`;
}

/** The table `file` was given by `attachPromptTable`, while its rows are not made. */
export function attachedTable(file: FileSummary): PromptTable | undefined {
  return attached.get(file)?.table ?? undefined;
}

/** A file's rows: the table it was made or read with, else its row arrays. */
export function promptRowsOf(file: FileSummary): PromptRows {
  return attached.get(file)?.table ?? new RowArrays(file.prompts);
}
