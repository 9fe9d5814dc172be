// Reading a large summary fast (docs/compare.md#reading-a-summary). The rollout prompt rows are
// nearly all of a summary's bytes; they are read here from the bytes as they are (no text is made
// of them), each row kept as its id's place and hash, its state and passes (what a diff reads of
// every row), its other figures read from the bytes when asked (SummaryRows). Only the rest of the
// document (the "skeleton": every byte but the rows) goes through JSON.parse and the schema
// (summaryJson.ts). Anything this reader does not expect (another layout, a row that is not [id,
// 3 whole numbers ≥ 0, a number, a line ≥ 1, a number ≥ 0]) hands the whole text to
// `parseSummary`, which then gives the same summary or the same error as always.
import { attachPromptTable } from './attachedRows';
import { BACKSLASH, CLOSE_ARRAY, COMMA, JsonCursor, MINUS, NINE, OPEN_ARRAY, OPEN_OBJECT, QUOTE, Unexpected, utf8, ZERO } from './jsonBytes';
import { asciiText, hashUnits, ID_HASH_BITS, type PromptTable } from './promptTable';
import { promptTableOf } from './promptTableBuilder';
import type { RunSummary } from './summary';
import { parseSummary } from './summaryJson';
import { RowsBuilder } from './summaryRows';

class Walk extends JsonCursor {
  /** The skeleton's byte ranges (start, end, …), joined by `[]` (each rows array left empty). */
  private readonly ranges: number[] = [];
  private copiedTo = 0;
  /** Per step, per file, the table of its rows (null: the file has no `prompts` key). */
  readonly tables: (PromptTable | null)[][] = [];
  /** One builder for every file's rows: its buffers are made once. */
  private readonly builder: RowsBuilder;

  constructor(t: Uint8Array) {
    super(t);
    // A row takes 16 bytes at least (`["",0,0,0,0,1,0]`), separators aside.
    this.builder = new RowsBuilder(t, Math.ceil(t.length / 16));
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
      const table = promptTableOf(file.prompts);
      if (table) attachPromptTable(file, table);
    }
  return summary;
}
