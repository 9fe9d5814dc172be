// A file's rollout prompt rows held compactly (docs/compare.md#reading-a-summary): a run of
// 1 000 steps × 512 prompts is half a million rows a side, which as JSON arrays cost ~150 bytes
// each and keep the collector busy; here a row is a span of a text, four 32-bit integers and two
// doubles (reward sum, response tokens).
// Summaries read from a file (summaryDecode.ts) carry their tables; a summary built in memory has
// its rows, from which a table is made when asked.
import type { FileSummary, PromptRow } from './summary';

/**
 * Where a table's ids are: spans of a text (a file's ids joined) or of a summary's bytes (its
 * ASCII ids: a byte a code unit), taken from it when asked, so a table holds no string per row;
 * ids with JSON escapes or other characters decoded aside. `hashes`: each row's `idHash`, when
 * worked out as the rows were read.
 */
export interface IdSource {
  text: string | Uint8Array;
  spans: Int32Array;
  decoded: ReadonlyMap<number, string>;
  hashes?: Uint32Array;
}

export interface PromptTableParts {
  text: string | Uint8Array;
  spans: Int32Array;
  decoded: [number, string][];
  ints: Int32Array;
  rewardSums: Float64Array;
  tokens: Float64Array;
}

/**
 * An id's hash: 32-bit FNV-1a of `text`'s code units from `start` to `end`, its low 30 bits (a
 * small integer to V8, which a larger one is not: a hash passed or returned would be a heap
 * number, one per row).
 */
export function hashUnits(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h & ID_HASH_BITS;
}

/** The bits of an id's hash kept (`hashUnits`). */
export const ID_HASH_BITS = 0x3fffffff;

/** `hashUnits` of ASCII bytes (a byte a code unit). */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h & ID_HASH_BITS;
}

/** ASCII bytes as a string. */
export function asciiText(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  // In slices: a spread's arguments are bounded.
  for (let at = start; at < end; at += 4096) out += String.fromCharCode(...bytes.subarray(at, Math.min(end, at + 4096)));
  return out;
}

function unitAt(text: string | Uint8Array, i: number): number {
  return typeof text === 'string' ? text.charCodeAt(i) : text[i];
}

/** Whether a count or line fits the table's 32-bit columns (else the rows are kept as they are). */
export function fitsTable(value: number): boolean {
  return value >= 0 && value <= 0x7fffffff && Number.isInteger(value) && !Object.is(value, -0);
}

/** A file's rows as the diff reads them. */
export interface PromptRows {
  readonly length: number;
  id(row: number): string;
  /** `hashUnits` of the id's UTF-16 code units (equal ids, equal hashes), without making the id. */
  idHash(row: number): number;
  /** Whether row `row`'s id is `other`'s row `otherRow`'s, without making either when it can. */
  sameId(row: number, other: PromptRows, otherRow: number): boolean;
  state(row: number): number;
  samples(row: number): number;
  passes(row: number): number;
  line(row: number): number;
  rewardSum(row: number): number;
  /** The group's response tokens (summary version 2). */
  tokens(row: number): number;
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
  idHash(row: number): number {
    return hashUnits(this.rows[row][0], 0, this.rows[row][0].length);
  }
  sameId(row: number, other: PromptRows, otherRow: number): boolean {
    return this.rows[row][0] === other.id(otherRow);
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
  tokens(row: number): number {
    return this.rows[row][6];
  }
}

/** A file's rows: ids, per row state, samples, passes, line (32-bit), reward sum and response tokens. */
export class PromptTable implements PromptRows {
  constructor(
    protected readonly ids: IdSource,
    private readonly ints: Int32Array,
    private readonly rewardSums: Float64Array,
    private readonly tokenSums: Float64Array,
  ) {}

  get length(): number {
    return this.rewardSums.length;
  }

  id(row: number): string {
    const { decoded, text, spans } = this.ids;
    const kept = decoded.size === 0 ? undefined : decoded.get(row);
    if (kept !== undefined) return kept;
    return typeof text === 'string' ? text.slice(spans[row * 2], spans[row * 2 + 1]) : asciiText(text, spans[row * 2], spans[row * 2 + 1]);
  }
  idHash(row: number): number {
    const ids = this.ids;
    if (ids.hashes) return ids.hashes[row];
    const decoded = ids.decoded.size === 0 ? undefined : ids.decoded.get(row);
    if (decoded !== undefined) return hashUnits(decoded, 0, decoded.length);
    const [start, end] = [ids.spans[row * 2], ids.spans[row * 2 + 1]];
    return typeof ids.text === 'string' ? hashUnits(ids.text, start, end) : hashBytes(ids.text, start, end);
  }
  sameId(row: number, other: PromptRows, otherRow: number): boolean {
    if (!(other instanceof PromptTable) || this.ids.decoded.size !== 0 || other.ids.decoded.size !== 0) return this.id(row) === other.id(otherRow);
    // Both ids are spans of texts or of ASCII bytes (a byte a code unit): compared in place.
    const [a, b] = [this.ids, other.ids];
    let i = a.spans[row * 2];
    let k = b.spans[otherRow * 2];
    const end = a.spans[row * 2 + 1];
    if (end - i !== b.spans[otherRow * 2 + 1] - k) return false;
    if (typeof a.text !== 'string' && typeof b.text !== 'string') {
      const [x, y] = [a.text, b.text];
      for (; i < end; i++, k++) if (x[i] !== y[k]) return false;
      return true;
    }
    for (; i < end; i++, k++) if (unitAt(a.text, i) !== unitAt(b.text, k)) return false;
    return true;
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
  tokens(row: number): number {
    return this.tokenSums[row];
  }

  /** The table as plain data (typed arrays, to hand to another thread). */
  parts(): PromptTableParts {
    return { text: this.ids.text, spans: this.ids.spans, decoded: [...this.ids.decoded], ints: this.ints, rewardSums: this.rewardSums, tokens: this.tokenSums };
  }

  /** `parts()` of a table whose figures are read from elsewhere than its columns (its accessors). */
  protected partsByRow(): PromptTableParts {
    const n = this.length;
    const [ints, rewardSums, tokens] = [new Int32Array(n * 4), new Float64Array(n), new Float64Array(n)];
    for (let r = 0; r < n; r++) {
      ints.set([this.state(r), this.samples(r), this.passes(r), this.line(r)], r * 4);
      rewardSums[r] = this.rewardSum(r);
      tokens[r] = this.tokens(r);
    }
    return { text: this.ids.text, spans: this.ids.spans.slice(), decoded: [...this.ids.decoded], ints, rewardSums, tokens };
  }

  static fromParts(p: PromptTableParts): PromptTable {
    return new PromptTable({ text: p.text, spans: p.spans, decoded: new Map(p.decoded) }, p.ints, p.rewardSums, p.tokens);
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
      const tokens = this.tokens(r);
      const tokensText = Number.isFinite(tokens) ? String(tokens) : 'null';
      part.push(`[${JSON.stringify(this.id(r))},${this.state(r)},${this.samples(r)},${this.passes(r)},${sumText},${this.line(r)},${tokensText}]`);
      if (part.length === chunk || r === this.length - 1) {
        yield `${r < chunk ? '[' : ','}${part.join(',')}${r === this.length - 1 ? ']' : ''}`;
        part.length = 0;
      }
    }
  }

  /**
   * `rowsJson()`'s text as UTF-8 bytes, handed to `write` a buffer at a time (the buffer is reused:
   * `write` must be done with it when it returns). No string is made for a row whose id is plain
   * ASCII and whose figures are whole: `summarize` moves 1.25 M rows of the 10 M-sample folder
   * to its scratch file this way, where strings were ~600 bytes of garbage a row.
   */
  writeRowsJson(write: (bytes: Uint8Array, length: number) => void): void {
    const out = new RowBytes(write);
    const n = this.length;
    const { text, spans, decoded } = this.ids;
    out.byte(OPEN);
    for (let r = 0; r < n; r++) {
      if (r > 0) out.byte(COMMA_BYTE);
      const kept = decoded.size === 0 ? undefined : decoded.get(r);
      out.room(8 * (spans[r * 2 + 1] - spans[r * 2] + (kept?.length ?? 0)) + 256);
      out.byte(OPEN);
      if (kept !== undefined || !out.plainId(text, spans[r * 2], spans[r * 2 + 1])) out.text(JSON.stringify(this.id(r)));
      out.byte(COMMA_BYTE);
      out.number(this.state(r));
      out.byte(COMMA_BYTE);
      out.number(this.samples(r));
      out.byte(COMMA_BYTE);
      out.number(this.passes(r));
      out.byte(COMMA_BYTE);
      out.number(this.rewardSum(r));
      out.byte(COMMA_BYTE);
      out.number(this.line(r));
      out.byte(COMMA_BYTE);
      out.number(this.tokens(r));
      out.byte(CLOSE);
    }
    out.byte(CLOSE);
    out.flush();
  }

  /** The rows as the summary's JSON writes them. */
  rows(): PromptRow[] {
    const out: PromptRow[] = new Array(this.length);
    for (let r = 0; r < this.length; r++)
      out[r] = [this.id(r), this.state(r), this.samples(r), this.passes(r), this.rewardSum(r), this.line(r), this.tokens(r)];
    return out;
  }

  /** A table of `rows`; null when a count or line does not fit it. */
  static of(rows: readonly PromptRow[]): PromptTable | null {
    const builder = new PromptTableBuilder(null);
    for (const [id, state, samples, passes, rewardSum, line, tokens] of rows)
      if (!builder.pushId(id, state, samples, passes, rewardSum, line, tokens)) return null;
    return builder.finish();
  }
}

const OPEN = 0x5b;
const CLOSE = 0x5d;
const COMMA_BYTE = 0x2c;
const QUOTE_BYTE = 0x22;
const utf8Encoder = new TextEncoder();

/** A reused buffer of JSON text's UTF-8 bytes, handed on when full (`PromptTable.writeRowsJson`). */
class RowBytes {
  private buffer = new Uint8Array(1 << 16);
  private at = 0;

  constructor(private readonly write: (bytes: Uint8Array, length: number) => void) {}

  /** At least `bytes` free. */
  room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    this.flush();
    if (bytes > this.buffer.length) this.buffer = new Uint8Array(bytes);
  }

  flush(): void {
    if (this.at > 0) this.write(this.buffer, this.at);
    this.at = 0;
  }

  byte(b: number): void {
    this.room(1);
    this.buffer[this.at++] = b;
  }

  /** `JSON.stringify` of a plain ASCII id (no quote, backslash or control character) from its units; false: not plain, nothing written. */
  plainId(text: string | Uint8Array, start: number, end: number): boolean {
    const b = this.buffer;
    let at = this.at;
    b[at++] = QUOTE_BYTE;
    for (let i = start; i < end; i++) {
      const c = typeof text === 'string' ? text.charCodeAt(i) : text[i];
      if (c < 0x20 || c > 0x7e || c === QUOTE_BYTE || c === 0x5c) return false;
      b[at++] = c;
    }
    b[at++] = QUOTE_BYTE;
    this.at = at;
    return true;
  }

  /** Any text, as UTF-8 (`room` made for it beforehand: 3 bytes a unit at most). */
  text(t: string): void {
    this.room(t.length * 3);
    this.at += utf8Encoder.encodeInto(t, this.buffer.subarray(this.at)).written;
  }

  /** A number as JSON writes it: digits for a whole one ≥ 0 (not -0), else `String`'s text (`null` when not finite). */
  number(x: number): void {
    if (!(Number.isInteger(x) && x >= 0 && x <= Number.MAX_SAFE_INTEGER) || Object.is(x, -0)) {
      this.text(Number.isFinite(x) ? String(x) : 'null');
      return;
    }
    let digits = 1;
    for (let v = x; v >= 10; v = Math.floor(v / 10)) digits++;
    this.room(digits);
    const b = this.buffer;
    let v = x;
    for (let k = this.at + digits - 1; k >= this.at; k--) {
      b[k] = 0x30 + (v % 10);
      v = Math.floor(v / 10);
    }
    this.at += digits;
  }
}

/** Collects rows into a table without making them: ids as spans of `text`, or given as strings (`pushId`, text null). */
export class PromptTableBuilder {
  private length = 0;
  private spans = new Int32Array(64 * 2);
  private ints = new Int32Array(64 * 4);
  private sums = new Float64Array(64);
  private tokens = new Float64Array(64);
  private decoded = new Map<number, string>();
  private idBytes = new Uint8Array(1024);
  private idChars = 0;

  /** Where the table being built starts (`views`: tables share the builder's buffers). */
  private start = 0;

  /**
   * Ids are spans of `text`, or given as strings (`pushId`) when it is null. With `rowsAtMost`
   * (a bound on all the tables' rows together), the buffers are made once at that size and each
   * table is a view of its part of them: no copy, no buffer a table (memory is only taken as rows
   * are written).
   */
  constructor(
    private readonly text: string | null,
    private readonly rowsAtMost: number | null = null,
  ) {
    if (rowsAtMost !== null) {
      this.spans = new Int32Array(rowsAtMost * 2);
      this.ints = new Int32Array(rowsAtMost * 4);
      this.sums = new Float64Array(rowsAtMost);
      this.tokens = new Float64Array(rowsAtMost);
    }
  }

  /** A row whose id is `text.slice(idStart, idEnd)`, or `decodedId` (an id with escapes); false: a count does not fit. */
  push(
    idStart: number,
    idEnd: number,
    decodedId: string | null,
    state: number,
    samples: number,
    passes: number,
    rewardSum: number,
    line: number,
    tokens: number,
  ): boolean {
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
    this.tokens[r] = tokens;
    return true;
  }

  /**
   * A row with its id as a string. ASCII ids are copied as bytes into one buffer (one string for
   * all of them at `finish`, none kept per row: a file of a million samples has 125 000 groups);
   * others are kept aside as they are.
   */
  pushId(id: string, state: number, samples: number, passes: number, rewardSum: number, line: number, tokens: number): boolean {
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
    if (!this.push(at, ascii ? at + id.length : at, ascii ? null : id, state, samples, passes, rewardSum, line, tokens)) return false;
    if (ascii) this.idChars += id.length;
    return true;
  }

  private grow(): void {
    // Tables already made keep their views of the old buffers.
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
    const tokens = new Float64Array(n);
    tokens.set(this.tokens);
    this.tokens = tokens;
  }

  /**
   * The table, its columns copied to its rows' size; the builder is then empty, its buffers kept
   * for the next table (a summary reader makes one table a file with one builder).
   */
  finish(): PromptTable {
    const text = this.text ?? new TextDecoder('latin1').decode(this.idBytes.subarray(0, this.idChars));
    const [from, to] = [this.start, this.length];
    const views = this.rowsAtMost !== null;
    const part = <T extends Int32Array | Float64Array>(a: T, width: number): T =>
      (views ? a.subarray(from * width, to * width) : a.slice(from * width, to * width)) as T;
    // Row numbers of ids kept aside are the table's own.
    const decoded = from === 0 ? this.decoded : new Map([...this.decoded].map(([row, id]) => [row - from, id]));
    const table = new PromptTable({ text, spans: part(this.spans, 2), decoded }, part(this.ints, 4), part(this.sums, 1), part(this.tokens, 1));
    if (views) this.start = this.length;
    else this.length = 0;
    this.idChars = 0;
    this.decoded = new Map();
    return table;
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
