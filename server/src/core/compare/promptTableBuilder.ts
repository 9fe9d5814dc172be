// Prompt tables built row by row (promptTable.ts): by `summarize` from a file's groups, by the
// summary reader from a text's rows, or from rows as arrays (`promptTableOf`).
import { fitsTable, PromptTable } from './promptTable';
import type { PromptRow } from './summary';

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

/** A table of `rows`; null when a count or line does not fit it. */
export function promptTableOf(rows: readonly PromptRow[]): PromptTable | null {
  const builder = new PromptTableBuilder(null);
  for (const [id, state, samples, passes, rewardSum, line, tokens] of rows)
    if (!builder.pushId(id, state, samples, passes, rewardSum, line, tokens)) return null;
  return builder.finish();
}
