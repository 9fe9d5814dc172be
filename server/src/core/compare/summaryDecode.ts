// Reading a large summary fast (docs/compare.md#reading-a-summary). The rollout prompt rows are
// nearly all of a summary's bytes; they are decoded here straight into compact tables
// (promptTable.ts), and only the rest of the document (the "skeleton": every byte but the rows)
// goes through JSON.parse and the schema (summaryJson.ts). Anything this reader does not expect
// (another layout, a row that is not [id, 3 whole numbers ≥ 0, a number, a line ≥ 1, a number ≥ 0]) hands the
// whole text to `parseSummary`, which then gives the same summary or the same error as always.
import { attachPromptTable, type PromptTable, PromptTableBuilder } from './promptTable';
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

class Walk {
  i = 0;
  /** The text's pieces without the decoded rows (each rows array left as `[]`). */
  readonly pieces: string[] = [];
  private copiedTo = 0;
  /** Per step, per file, the table of its rows (null: the file has no `prompts` key). */
  readonly tables: (PromptTable | null)[][] = [];

  /** One builder for every file's rows: its buffers grow once. */
  private readonly builder: PromptTableBuilder;

  constructor(private readonly t: string) {
    // A row takes 16 characters at least (`["",0,0,0,0,1,0]`), separators aside.
    this.builder = new PromptTableBuilder(t, Math.ceil(t.length / 16));
  }

  ws(): void {
    const t = this.t;
    let i = this.i;
    for (let c = t.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = t.charCodeAt(++i));
    this.i = i;
  }

  peek(): number {
    this.ws();
    return this.t.charCodeAt(this.i);
  }

  expect(c: number): void {
    if (this.peek() !== c) throw new Unexpected();
    this.i++;
  }

  /** A string's end (after its closing quote) from its opening quote at `i`; `escaped`: it has a backslash. */
  stringEnd(): { end: number; escaped: boolean } {
    const t = this.t;
    let i = this.i + 1;
    let escaped = false;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === QUOTE) return { end: i + 1, escaped };
      if (c === BACKSLASH) {
        escaped = true;
        i += 2;
      } else if (c < 0x20 || Number.isNaN(c)) throw new Unexpected();
      else i++;
    }
  }

  string(): string {
    const { start, end, escaped } = this.stringSpan();
    return escaped ? this.unescape(start, end) : this.t.slice(start + 1, end - 1);
  }

  /** The string at the cursor (quotes included), the cursor after it. */
  stringSpan(): { start: number; end: number; escaped: boolean } {
    if (this.peek() !== QUOTE) throw new Unexpected();
    const start = this.i;
    const { end, escaped } = this.stringEnd();
    this.i = end;
    return { start, end, escaped };
  }

  unescape(start: number, end: number): string {
    try {
      return JSON.parse(this.t.slice(start, end)) as string;
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
      else if (Number.isNaN(c)) throw new Unexpected();
      else {
        const t = this.t;
        let i = this.i + 1;
        for (
          let d = t.charCodeAt(i);
          d === MINUS || d === 0x2b || d === 0x2e || (d >= ZERO && d <= NINE) || (d >= 0x61 && d <= 0x7a) || d === 0x45;
          d = t.charCodeAt(++i)
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
    let c = t.charCodeAt(i);
    if (c === MINUS) c = t.charCodeAt(++i);
    let value = 0;
    if (c === ZERO) c = t.charCodeAt(++i);
    else if (c > ZERO && c <= NINE) {
      do {
        value = value * 10 + (c - ZERO);
        c = t.charCodeAt(++i);
      } while (c >= ZERO && c <= NINE);
    } else throw new Unexpected();
    if (c >= ZERO && c <= NINE) throw new Unexpected(); // a leading zero stands alone
    // The common case: a whole number ≥ 0 of up to 15 digits, exact as accumulated.
    if (c !== 0x2e && c !== 0x65 && c !== 0x45 && t.charCodeAt(start) !== MINUS && i - start <= 15) {
      this.i = i;
      return value;
    }
    if (c === 0x2e) {
      c = t.charCodeAt(++i);
      if (!(c >= ZERO && c <= NINE)) throw new Unexpected();
      while (c >= ZERO && c <= NINE) c = t.charCodeAt(++i);
    }
    if (c === 0x65 || c === 0x45) {
      c = t.charCodeAt(++i);
      if (c === MINUS || c === 0x2b) c = t.charCodeAt(++i);
      if (!(c >= ZERO && c <= NINE)) throw new Unexpected();
      while (c >= ZERO && c <= NINE) c = t.charCodeAt(++i);
    }
    this.i = i;
    return Number(t.slice(start, i));
  }

  count(min: number): number {
    const n = this.number();
    if (!Number.isInteger(n) || n < min) throw new Unexpected();
    return n;
  }

  /** `[[id, state, samples, passes, reward sum, line, tokens], …]` into a table; the array left in the skeleton as `[]`. */
  rows(): PromptTable {
    this.ws();
    this.pieces.push(this.t.slice(this.copiedTo, this.i), '[]');
    const table = this.builder;
    this.expect(OPEN_ARRAY);
    if (this.peek() === CLOSE_ARRAY) this.i++;
    else
      for (;;) {
        if (this.fastRow(table)) {
          // The common separator first: `,` or `]` right after the row.
          const c = this.t.charCodeAt(this.i);
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
   * A whole number of up to 15 digits at `i` (no sign, no leading zero, no fraction or exponent:
   * as `summarize` writes counts), or -1 when the text there is anything else; `this.i` after it.
   */
  private wholeAt(i: number): number {
    const t = this.t;
    let c = t.charCodeAt(i);
    if (c === ZERO) {
      c = t.charCodeAt(i + 1);
      if ((c >= ZERO && c <= NINE) || c === 0x2e || c === 0x65 || c === 0x45) return -1;
      this.i = i + 1;
      return 0;
    }
    if (!(c > ZERO && c <= NINE)) return -1;
    const start = i;
    let value = 0;
    do {
      value = value * 10 + (c - ZERO);
      c = t.charCodeAt(++i);
    } while (c >= ZERO && c <= NINE);
    if (c === 0x2e || c === 0x65 || c === 0x45 || i - start > 15) return -1;
    this.i = i;
    return value;
  }

  /** `,` and a whole number (`wholeAt`); -1: anything else. */
  private commaWhole(): number {
    return this.t.charCodeAt(this.i) === COMMA ? this.wholeAt(this.i + 1) : -1;
  }

  /**
   * A row as `summarize` writes it (no white space, an id without escapes, whole counts) read in
   * one pass, the cursor after it; false: the cursor where it was, for `generalRow` (which reads
   * any row and refuses what the schema would). The same row either way.
   */
  private fastRow(table: PromptTableBuilder): boolean {
    const t = this.t;
    const from = this.i;
    if (t.charCodeAt(from) !== OPEN_ARRAY || t.charCodeAt(from + 1) !== QUOTE) return false;
    const idStart = from + 2;
    let i = idStart;
    for (let c = t.charCodeAt(i); c !== QUOTE; c = t.charCodeAt(++i)) if (c === BACKSLASH || c < 0x20 || c !== c) return false;
    const idEnd = i;
    this.i = idEnd + 1;
    const state = this.commaWhole();
    const samples = state < 0 ? -1 : this.commaWhole();
    const passes = samples < 0 ? -1 : this.commaWhole();
    if (passes < 0 || t.charCodeAt(this.i) !== COMMA) {
      this.i = from;
      return false;
    }
    // A reward sum may be fractional or negative: read as any JSON number.
    this.i++;
    const c = t.charCodeAt(this.i);
    const rewardSum = (c >= ZERO && c <= NINE) || c === MINUS ? this.number() : NaN;
    const line = rewardSum !== rewardSum ? -1 : this.commaWhole();
    const tokens = line < 1 ? -1 : this.commaWhole();
    if (tokens < 0 || t.charCodeAt(this.i) !== CLOSE_ARRAY) {
      this.i = from;
      return false;
    }
    this.i++;
    // A count beyond the table's 32 bits: the whole text is left to parseSummary.
    if (!table.push(idStart, idEnd, null, state, samples, passes, rewardSum, line, tokens)) throw new Unexpected();
    return true;
  }

  /** Any row, white space and escapes included (`fastRow` reads the usual ones). */
  private generalRow(table: PromptTableBuilder): void {
    this.expect(OPEN_ARRAY);
    const id = this.stringSpan();
    this.expect(COMMA);
    const state = this.count(0);
    this.expect(COMMA);
    const samples = this.count(0);
    this.expect(COMMA);
    const passes = this.count(0);
    this.expect(COMMA);
    const rewardSum = this.number();
    this.expect(COMMA);
    const line = this.count(1);
    this.expect(COMMA);
    const tokens = this.number();
    if (!(tokens >= 0)) throw new Unexpected();
    this.expect(CLOSE_ARRAY);
    // A count beyond the table's 32 bits: the whole text is left to parseSummary.
    if (!table.push(id.start + 1, id.end - 1, id.escaped ? this.unescape(id.start, id.end) : null, state, samples, passes, rewardSum, line, tokens))
      throw new Unexpected();
  }

  /** An object's members: `member(key)` reads each value (or skips it). */
  object(member: (key: string) => void): void {
    this.expect(OPEN_OBJECT);
    if (this.peek() === CLOSE_OBJECT) {
      this.i++;
      return;
    }
    for (;;) {
      const key = this.string();
      this.expect(COLON);
      member(key);
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
    this.object((key) => {
      if (key !== 'steps') return this.skip();
      // JSON.parse keeps a repeated key's last value: such a text is left to it.
      if (seenSteps || this.peek() !== OPEN_ARRAY) throw new Unexpected();
      seenSteps = true;
      this.array(() => this.step());
    });
    this.ws();
    if (this.i !== this.t.length) throw new Unexpected();
    this.pieces.push(this.t.slice(this.copiedTo));
  }

  private step(): void {
    const files: (PromptTable | null)[] = [];
    this.tables.push(files);
    if (this.peek() !== OPEN_OBJECT) return this.skip();
    let seenFiles = false;
    this.object((key) => {
      if (key !== 'files') return this.skip();
      if (seenFiles || this.peek() !== OPEN_ARRAY) throw new Unexpected();
      seenFiles = true;
      this.array(() => {
        let table: PromptTable | null = null;
        if (this.peek() !== OPEN_OBJECT) return this.skip();
        this.object((fileKey) => {
          if (fileKey !== 'prompts') return this.skip();
          if (table !== null || this.peek() !== OPEN_ARRAY) throw new Unexpected();
          table = this.rows();
        });
        files.push(table);
      });
    });
  }
}

/** Parses a summary's JSON text as `parseSummary` does, holding rollout prompt rows in compact tables. */
export function decodeSummary(text: string): RunSummary {
  const walk = new Walk(text);
  let summary: RunSummary;
  try {
    walk.summary();
    summary = parseSummary(walk.pieces.join(''));
  } catch {
    // Not as expected, or not a summary: the whole text, for the same summary or the same error.
    return parseSummary(text);
  }
  for (const [s, step] of summary.steps.entries()) {
    for (const [f, file] of step.files.entries()) {
      const table = walk.tables[s]?.[f];
      if (table) attachPromptTable(file, table);
    }
  }
  return summary;
}
