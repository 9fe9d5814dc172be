// Reading a large summary fast (docs/compare.md#reading-a-summary). The rollout prompt rows are
// nearly all of a summary's bytes; they are read here from the bytes as they are (no text is made
// of them), each row kept as its id's place and hash, its state and passes (what a diff reads of
// every row), its other figures read from the bytes when asked (SummaryRows). Only the rest of the
// document (the "skeleton": every byte but the rows) goes through JSON.parse and the schema
// (summaryJson.ts). Anything this reader does not expect (another layout, a row that is not [id,
// 3 whole numbers ≥ 0, a number, a line ≥ 1, a number ≥ 0]) hands the whole text to
// `parseSummary`, which then gives the same summary or the same error as always.
import { asciiText, attachPromptTable, fitsTable, hashUnits, ID_HASH_BITS, type IdSource, PromptTable, type PromptTableParts } from './promptTable';
import type { RunSummary } from './summary';
import { parseSummary } from './summaryJson';

/** Thrown inside the walk when the text is not laid out as expected. */
class Unexpected extends Error {}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
/** `peek` past the end. */
const END = -1;

// A byte order mark is kept, as Node's UTF-8 decoding keeps it (JSON.parse then refuses it).
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const NO_INTS = new Int32Array(0);
const NO_FLOATS = new Float64Array(0);

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * Field `k` of a row (1: state … 6: tokens) read from its bytes, `from` just after its id's closing
 * quote; the row was checked when it was read, so its fields are JSON numbers.
 */
function fieldAt(bytes: Uint8Array, from: number, k: number): number {
  let i = from;
  for (let f = 1; ; f++) {
    while (isSpace(bytes[i])) i++;
    i++; // the comma
    while (isSpace(bytes[i])) i++;
    const start = i;
    let value = 0;
    let c = bytes[i];
    for (; c >= ZERO && c <= NINE; c = bytes[++i]) value = value * 10 + (c - ZERO);
    let whole = i - start <= 15;
    if (c === MINUS || c === 0x2e || c === 0x65 || c === 0x45) {
      whole = false;
      for (; c === MINUS || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45 || (c >= ZERO && c <= NINE); c = bytes[++i]);
    }
    if (f === k) return whole ? value : Number(asciiText(bytes, start, i));
  }
}

/**
 * A file's rows read from a summary's bytes: per row its id's span and hash, state and passes;
 * samples, reward sum, line and tokens read from the bytes when asked (a diff reads them only for
 * the flips it lists), so a row costs 20 bytes and the summary's bytes are the only other copy.
 */
class SummaryRows extends PromptTable {
  constructor(
    ids: IdSource,
    private readonly bytes: Uint8Array,
    /** Per row: state, passes. */
    private readonly statePasses: Int32Array,
  ) {
    super(ids, NO_INTS, NO_FLOATS, NO_FLOATS);
  }
  override get length(): number {
    return this.statePasses.length >> 1;
  }
  override state(row: number): number {
    return this.statePasses[row * 2];
  }
  override passes(row: number): number {
    return this.statePasses[row * 2 + 1];
  }
  override samples(row: number): number {
    return this.field(row, 2);
  }
  override rewardSum(row: number): number {
    return this.field(row, 4);
  }
  override line(row: number): number {
    return this.field(row, 5);
  }
  override tokens(row: number): number {
    return this.field(row, 6);
  }
  override parts(): PromptTableParts {
    return this.partsByRow();
  }
  private field(row: number, k: number): number {
    // The span ends at the closing quote.
    return fieldAt(this.bytes, this.ids.spans[row * 2 + 1] + 1, k);
  }
}

/** Collects rows for SummaryRows: buffers made once for all the summary's rows, each file's table a view of its part. */
class RowsBuilder {
  private length = 0;
  private start = 0;
  private readonly spans: Int32Array;
  private readonly hashes: Uint32Array;
  private readonly statePasses: Int32Array;
  private decoded = new Map<number, string>();

  /** `rowsAtMost`: a bound on all the tables' rows together (memory is only taken as rows are written). */
  constructor(
    private readonly bytes: Uint8Array,
    rowsAtMost: number,
  ) {
    this.spans = new Int32Array(rowsAtMost * 2);
    this.hashes = new Uint32Array(rowsAtMost);
    this.statePasses = new Int32Array(rowsAtMost * 2);
  }

  /** A row whose id's content is bytes `idStart` to `idEnd` (ASCII, unless `decodedId` gives it); false: a count does not fit. */
  push(idStart: number, idEnd: number, decodedId: string | null, hash: number, state: number, passes: number): boolean {
    if (!(fitsTable(state) && fitsTable(passes))) return false;
    const r = this.length++;
    if (r === this.hashes.length) return false;
    this.spans[r * 2] = idStart;
    this.spans[r * 2 + 1] = idEnd;
    this.hashes[r] = hash;
    if (decodedId !== null) this.decoded.set(r - this.start, decodedId);
    this.statePasses[r * 2] = state;
    this.statePasses[r * 2 + 1] = passes;
    return true;
  }

  finish(): SummaryRows {
    const [from, to] = [this.start, this.length];
    const ids: IdSource = { text: this.bytes, spans: this.spans.subarray(from * 2, to * 2), decoded: this.decoded, hashes: this.hashes.subarray(from, to) };
    const table = new SummaryRows(ids, this.bytes, this.statePasses.subarray(from * 2, to * 2));
    this.start = this.length;
    this.decoded = new Map();
    return table;
  }
}

class Walk {
  i = 0;
  /** The skeleton's byte ranges (start, end, …), joined by `[]` (each rows array left empty). */
  private readonly ranges: number[] = [];
  private copiedTo = 0;
  /** Per step, per file, the table of its rows (null: the file has no `prompts` key). */
  readonly tables: (PromptTable | null)[][] = [];
  private readonly n: number;

  /** One builder for every file's rows: its buffers are made once. */
  private readonly builder: RowsBuilder;

  constructor(private readonly t: Uint8Array) {
    this.n = t.length;
    // A row takes 16 bytes at least (`["",0,0,0,0,1,0]`), separators aside.
    this.builder = new RowsBuilder(t, Math.ceil(t.length / 16));
  }

  ws(): void {
    const t = this.t;
    let i = this.i;
    while (i < this.n && isSpace(t[i])) i++;
    this.i = i;
  }

  peek(): number {
    this.ws();
    return this.i < this.n ? this.t[this.i] : END;
  }

  expect(c: number): void {
    if (this.peek() !== c) throw new Unexpected();
    this.i++;
  }

  /** A string's end (after its closing quote) from its opening quote at `i`; `plain`: no escape and ASCII only. */
  stringEnd(): { end: number; plain: boolean } {
    const t = this.t;
    const n = this.n;
    let i = this.i + 1;
    let plain = true;
    for (;;) {
      if (i >= n) throw new Unexpected();
      const c = t[i];
      if (c === QUOTE) return { end: i + 1, plain };
      if (c === BACKSLASH) {
        plain = false;
        i += 2;
      } else if (c < 0x20) throw new Unexpected();
      else {
        if (c >= 0x80) plain = false;
        i++;
      }
    }
  }

  /** The last key `object` read: its JSON's bytes (quotes included), whether plain. */
  private key = { start: 0, end: 0, plain: true };

  /** Whether the last key read is `name` (ASCII), without making a string of it when it is plain. */
  keyIs(name: string): boolean {
    const { start, end, plain } = this.key;
    if (!plain) return this.decode(start, end) === name;
    if (end - start - 2 !== name.length) return false;
    for (let k = 0; k < name.length; k++) if (this.t[start + 1 + k] !== name.charCodeAt(k)) return false;
    return true;
  }

  /** The string at the cursor (quotes included), the cursor after it. */
  stringSpan(): { start: number; end: number; plain: boolean } {
    if (this.peek() !== QUOTE) throw new Unexpected();
    const start = this.i;
    const { end, plain } = this.stringEnd();
    this.i = end;
    return { start, end, plain };
  }

  /** The string whose JSON (quotes included) is bytes `start` to `end`. */
  decode(start: number, end: number): string {
    try {
      return JSON.parse(utf8.decode(this.t.subarray(start, end))) as string;
    } catch {
      throw new Unexpected();
    }
  }

  /** Skips any value (checked later by JSON.parse of the skeleton). */
  skip(): void {
    let depth = 0;
    do {
      const c = this.peek();
      if (c === QUOTE) this.i = this.stringEnd().end;
      else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        depth++;
        this.i++;
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        depth--;
        this.i++;
      } else if (c === COMMA || c === COLON) this.i++;
      else if (c === END) throw new Unexpected();
      else {
        const t = this.t;
        let i = this.i + 1;
        for (
          let d = t[i];
          i < this.n && (d === MINUS || d === 0x2b || d === 0x2e || (d >= ZERO && d <= NINE) || (d >= 0x61 && d <= 0x7a) || d === 0x45);
          d = t[++i]
        );
        this.i = i;
      }
    } while (depth > 0);
  }

  /** A JSON number (validated as JSON's grammar). */
  number(): number {
    const t = this.t;
    this.ws();
    const start = this.i;
    let i = start;
    let c = t[i];
    if (c === MINUS) c = t[++i];
    let value = 0;
    if (c === ZERO) c = t[++i];
    else if (c > ZERO && c <= NINE) {
      do {
        value = value * 10 + (c - ZERO);
        c = t[++i];
      } while (c >= ZERO && c <= NINE);
    } else throw new Unexpected();
    if (c >= ZERO && c <= NINE) throw new Unexpected(); // a leading zero stands alone
    // The common case: a whole number ≥ 0 of up to 15 digits, exact as accumulated.
    if (c !== 0x2e && c !== 0x65 && c !== 0x45 && t[start] !== MINUS && i - start <= 15) {
      this.i = i;
      return value;
    }
    if (c === 0x2e) {
      c = t[++i];
      if (!(c >= ZERO && c <= NINE)) throw new Unexpected();
      while (c >= ZERO && c <= NINE) c = t[++i];
    }
    if (c === 0x65 || c === 0x45) {
      c = t[++i];
      if (c === MINUS || c === 0x2b) c = t[++i];
      if (!(c >= ZERO && c <= NINE)) throw new Unexpected();
      while (c >= ZERO && c <= NINE) c = t[++i];
    }
    this.i = i;
    return Number(asciiText(t, start, i));
  }

  count(min: number): number {
    const n = this.number();
    if (!Number.isInteger(n) || n < min) throw new Unexpected();
    return n;
  }

  /** `[[id, state, samples, passes, reward sum, line, tokens], …]` into a table; the array left in the skeleton as `[]`. */
  rows(): PromptTable {
    this.ws();
    this.ranges.push(this.copiedTo, this.i);
    const table = this.builder;
    this.expect(OPEN_ARRAY);
    if (this.peek() === CLOSE_ARRAY) this.i++;
    else
      for (;;) {
        if (this.fastRow(table)) {
          // The common separator first: `,` or `]` right after the row.
          const c = this.t[this.i];
          if (c === COMMA) {
            this.i++;
            continue;
          }
          if (c === CLOSE_ARRAY) {
            this.i++;
            break;
          }
        } else {
          this.generalRow(table);
        }
        const c = this.peek();
        this.i++;
        if (c === CLOSE_ARRAY) break;
        if (c !== COMMA) throw new Unexpected();
      }
    this.copiedTo = this.i;
    return table.finish();
  }

  /**
   * A row as `summarize` writes it (no white space, an ASCII id without escapes, whole counts)
   * read in one pass, its id hashed on the way, the cursor after it; false: the cursor where it
   * was, for `generalRow` (which reads any row and refuses what the schema would). The same row
   * either way.
   */
  private fastRow(table: RowsBuilder): boolean {
    const from = this.i;
    if (this.fastRowAt(table)) return true;
    // The cursor where it was, for generalRow.
    this.i = from;
    return false;
  }

  private fastRowAt(table: RowsBuilder): boolean {
    const t = this.t;
    const n = this.n;
    const from = this.i;
    if (t[from] !== OPEN_ARRAY || t[from + 1] !== QUOTE) return false;
    const idStart = from + 2;
    let i = idStart;
    // The id's hash (`hashUnits`) on the way: a byte a code unit, the id being ASCII.
    let hash = 0x811c9dc5;
    for (let c = t[i]; c !== QUOTE; c = t[++i]) {
      if (c === BACKSLASH || c < 0x20 || c >= 0x80 || i >= n) return false;
      hash = Math.imul(hash ^ c, 0x01000193);
    }
    const idEnd = i++;
    // `,` and six numbers, read in place: five whole (no sign, no leading zero, no fraction or
    // exponent, up to 15 digits, as `summarize` writes counts) and the reward sum (field 4), which
    // may be any JSON number.
    let state = 0;
    let passes = 0;
    for (let field = 1; field <= 6; field++) {
      if (t[i] !== COMMA) return false;
      let c = t[++i];
      if (field === 4 && !(c > ZERO && c <= NINE)) {
        if (c !== MINUS && c !== ZERO) return false;
        this.i = i;
        this.number();
        i = this.i;
        continue;
      }
      const start = i;
      let value = 0;
      if (c === ZERO) c = t[++i];
      else if (c > ZERO && c <= NINE)
        do {
          value = value * 10 + (c - ZERO);
          c = t[++i];
        } while (c >= ZERO && c <= NINE);
      else return false;
      if ((c >= ZERO && c <= NINE) || c === 0x2e || c === 0x65 || c === 0x45) {
        if (field !== 4) return false;
        this.i = start;
        this.number();
        i = this.i;
        continue;
      }
      if (i - start > 15 || (field === 5 && value < 1)) return false;
      if (field === 1) state = value;
      else if (field === 3) passes = value;
    }
    if (t[i] !== CLOSE_ARRAY) return false;
    this.i = i + 1;
    // A state or passes beyond the table's 32 bits: the whole text is left to parseSummary.
    if (!table.push(idStart, idEnd, null, hash & ID_HASH_BITS, state, passes)) throw new Unexpected();
    return true;
  }

  /** Any row, white space, escapes and other characters included (`fastRow` reads the usual ones). */
  private generalRow(table: RowsBuilder): void {
    this.expect(OPEN_ARRAY);
    const id = this.stringSpan();
    const idText = id.plain ? null : this.decode(id.start, id.end);
    this.expect(COMMA);
    const state = this.count(0);
    this.expect(COMMA);
    this.count(0);
    this.expect(COMMA);
    const passes = this.count(0);
    this.expect(COMMA);
    this.number();
    this.expect(COMMA);
    this.count(1);
    this.expect(COMMA);
    const tokens = this.number();
    if (!(tokens >= 0)) throw new Unexpected();
    this.expect(CLOSE_ARRAY);
    const hash = idText === null ? hashUnits(asciiText(this.t, id.start + 1, id.end - 1), 0, id.end - id.start - 2) : hashUnits(idText, 0, idText.length);
    // A state or passes beyond the table's 32 bits: the whole text is left to parseSummary.
    if (!table.push(id.start + 1, id.end - 1, idText, hash, state, passes)) throw new Unexpected();
  }

  /** An object's members: `member()` reads each value (or skips it), its key told by `keyIs`. */
  object(member: () => void): void {
    this.expect(OPEN_OBJECT);
    if (this.peek() === CLOSE_OBJECT) {
      this.i++;
      return;
    }
    for (;;) {
      this.key = this.stringSpan();
      this.expect(COLON);
      member();
      const c = this.peek();
      this.i++;
      if (c === CLOSE_OBJECT) return;
      if (c !== COMMA) throw new Unexpected();
    }
  }

  array(element: () => void): void {
    this.expect(OPEN_ARRAY);
    if (this.peek() === CLOSE_ARRAY) {
      this.i++;
      return;
    }
    for (;;) {
      element();
      const c = this.peek();
      this.i++;
      if (c === CLOSE_ARRAY) return;
      if (c !== COMMA) throw new Unexpected();
    }
  }

  summary(): void {
    let seenSteps = false;
    this.object(() => {
      if (!this.keyIs('steps')) return this.skip();
      // JSON.parse keeps a repeated key's last value: such a text is left to it.
      if (seenSteps || this.peek() !== OPEN_ARRAY) throw new Unexpected();
      seenSteps = true;
      this.array(() => this.step());
    });
    this.ws();
    if (this.i !== this.n) throw new Unexpected();
    this.ranges.push(this.copiedTo, this.n);
  }

  /** The skeleton's text: its byte ranges joined by `[]`, decoded at once. */
  skeleton(): string {
    const r = this.ranges;
    let size = 0;
    for (let k = 0; k < r.length; k += 2) size += r[k + 1] - r[k] + (k > 0 ? 2 : 0);
    const out = new Uint8Array(size);
    let at = 0;
    for (let k = 0; k < r.length; k += 2) {
      if (k > 0) {
        out[at++] = OPEN_ARRAY;
        out[at++] = CLOSE_ARRAY;
      }
      out.set(this.t.subarray(r[k], r[k + 1]), at);
      at += r[k + 1] - r[k];
    }
    return utf8.decode(out);
  }

  private step(): void {
    const files: (PromptTable | null)[] = [];
    this.tables.push(files);
    if (this.peek() !== OPEN_OBJECT) return this.skip();
    let seenFiles = false;
    this.object(() => {
      if (!this.keyIs('files')) return this.skip();
      if (seenFiles || this.peek() !== OPEN_ARRAY) throw new Unexpected();
      seenFiles = true;
      this.array(() => {
        let table: PromptTable | null = null;
        if (this.peek() !== OPEN_OBJECT) return this.skip();
        this.object(() => {
          if (!this.keyIs('prompts')) return this.skip();
          if (table !== null || this.peek() !== OPEN_ARRAY) throw new Unexpected();
          table = this.rows();
        });
        files.push(table);
      });
    });
  }
}

const utf8Encoder = new TextEncoder();

/**
 * Parses a summary (its UTF-8 bytes, or its text) as `parseSummary` does, holding rollout prompt
 * rows in compact tables.
 */
export function decodeSummary(input: Uint8Array | string): RunSummary {
  let bytes: Uint8Array;
  if (typeof input === 'string') {
    bytes = utf8Encoder.encode(input);
    // A text that is not its UTF-8 (a lone surrogate) is read plainly, its rows then put in tables.
    if (bytes.length !== input.length && utf8.decode(bytes) !== input) return withTables(parseSummary(input));
  } else bytes = input;
  const walk = new Walk(bytes);
  let summary: RunSummary;
  try {
    walk.summary();
    summary = parseSummary(walk.skeleton());
  } catch {
    // Not as expected, or not a summary: the whole text, for the same summary or the same error.
    return parseSummary(typeof input === 'string' ? input : utf8.decode(bytes));
  }
  for (const [s, step] of summary.steps.entries()) {
    for (const [f, file] of step.files.entries()) {
      const table = walk.tables[s]?.[f];
      if (table) attachPromptTable(file, table);
    }
  }
  return summary;
}

function withTables(summary: RunSummary): RunSummary {
  for (const step of summary.steps)
    for (const file of step.files) {
      const table = PromptTable.of(file.prompts);
      if (table) attachPromptTable(file, table);
    }
  return summary;
}
