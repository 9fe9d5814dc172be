// A file's rollout prompt rows held compactly (docs/compare.md#reading-a-summary): a run of
// 1 000 steps × 512 prompts is half a million rows a side, which as JSON arrays cost ~150 bytes
// each and keep the collector busy; here a row is a span of a text, four 32-bit integers and two
// doubles (reward sum, response tokens).
// Summaries read from a file (summaryDecode.ts) carry their tables; a summary built in memory has
// its rows, from which a table is made when asked (promptTableBuilder.ts). A file summary is given
// its table by attachedRows.ts.
import { CLOSE, COMMA_BYTE, OPEN, RowBytes } from './rowBytes';
import type { PromptRow } from './summary';

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
}
