// The end of a long JSON string, without decoding the rest: miles' `has_repetition` compresses the
// last 10 000 characters of a response longer than that (docs/semantics.md#miles-sample-metrics),
// and a response can be megabytes. The string is read as Python's `json.loads` reads it: a
// character is a code point, a `\uD83D\uDE00` pair of escapes is one, a lone surrogate escape is
// one (its own code point). What is kept is three numbers, not the text: the record stays small
// and crosses to the main thread from a scan worker as plain data.
import type { DeflateJobs } from './deflateJobs';
import { Skipped } from './jsonRule';
import { wasmRoutinesOf } from './lineBuffers';
import { ZlibSizer } from './zlibLength';

/** Code points of a long string's end the scanner keeps. */
export const TAIL_CHARS = 10000;

const BACKSLASH = 0x5c;

/** The last `TAIL_CHARS` code points of a string that has more of them. */
export interface TextTail {
  /** Bytes of their UTF-8 encoding (a lone surrogate counted as the 3 bytes UTF-8 would give it). */
  utf8Length: number;
  /**
   * Bytes of that encoding compressed by zlib at level 9, as Python's `zlib.compress(raw, 9)`
   * (header and checksum included); null when there is a lone surrogate (Python cannot encode it).
   */
  deflatedLength: number | null;
  /**
   * The first run of lone surrogates among them: its first code point's index in the tail and how
   * many follow in a row (Python cannot encode them as UTF-8: `surrogates not allowed`); null when
   * there is none.
   */
  surrogates: { at: number; length: number; first: number } | null;
  /**
   * Set when `deflatedLength` is being computed by `DeflateJobs` (that scan's ticket): then
   * `deflatedLength` is null and so are `surrogates`.
   */
  deflateTicket?: number;
}

/** A string longer than the rule's `maxString` whose end was kept; `tail` null: at most `TAIL_CHARS` code points. */
export class LongString extends Skipped {
  constructor(
    byteLength: number,
    readonly tail: TextTail | null,
  ) {
    super('string', byteLength, null);
  }
}

const ESCAPED: Record<number, number> = { 0x22: 0x22, 0x5c: 0x5c, 0x2f: 0x2f, 0x62: 0x08, 0x66: 0x0c, 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09 };

function hex4(b: Uint8Array, k: number): number {
  let v = 0;
  for (let j = k; j < k + 4; j++) {
    const c = b[j];
    v = v * 16 + (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);
  }
  return v;
}

/**
 * Whether `p` starts a character of the body `[s, e)`: not inside a UTF-8 sequence, nor inside an
 * escape. An escape is at most 6 bytes, so with no backslash in the 5 bytes before `p` none
 * covers it; the first backslash of a run cannot be inside one either (hex digits and the escaped
 * character that follows a backslash are not backslashes).
 */
function isBoundary(b: Uint8Array, s: number, p: number): boolean {
  if (p <= s) return true;
  if ((b[p] & 0xc0) === 0x80) return false;
  if (b[p] === BACKSLASH && b[p - 1] !== BACKSLASH) return true;
  for (let j = Math.max(s, p - 5); j < p; j++) if (b[j] === BACKSLASH) return false;
  return true;
}

/**
 * Decodes `[p, e)` (a validated string body from a boundary) to UTF-8 bytes; returns the byte
 * count, the code points and whether every one was ASCII. Runs of plain ASCII are copied whole
 * (found 16 bytes a step in WebAssembly where the line is in its memory).
 */
function decode(b: Uint8Array, p: number, e: number, out: Uint8Array): { length: number; chars: number; ascii: boolean } {
  const wasm = wasmRoutinesOf(b);
  const base = b.byteOffset;
  let n = 0;
  let chars = 0;
  let ascii = true;
  let k = p;
  while (k < e) {
    // A validated body has no `"` or control character: the run stops at `\` or a non-ASCII byte.
    let j = wasm !== null && e - k >= 16 ? wasm.skipText(base + k, base + e) - base : k;
    while (j < e && b[j] < 0x80 && b[j] !== BACKSLASH) j++;
    if (j > k) {
      out.set(b.subarray(k, j), n);
      n += j - k;
      chars += j - k;
      k = j;
      if (k === e) break;
    }
    const c = b[k];
    if (c !== BACKSLASH) {
      ascii = false;
      out[n++] = c;
      if ((c & 0xc0) !== 0x80) chars++;
      k++;
      continue;
    }
    const x = b[k + 1];
    chars++;
    if (x !== 0x75) {
      out[n++] = ESCAPED[x];
      k += 2;
      continue;
    }
    let u = hex4(b, k + 2);
    k += 6;
    // Python's scanner joins a high surrogate escape with a low one right after it.
    if (u >= 0xd800 && u <= 0xdbff && k + 6 <= e && b[k] === BACKSLASH && b[k + 1] === 0x75) {
      const low = hex4(b, k + 2);
      if (low >= 0xdc00 && low <= 0xdfff) {
        u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
        k += 6;
      }
    }
    if (u < 0x80) out[n++] = u;
    else {
      ascii = false;
      if (u < 0x800) {
        out[n++] = 0xc0 | (u >> 6);
        out[n++] = 0x80 | (u & 0x3f);
      } else if (u < 0x10000) {
        out[n++] = 0xe0 | (u >> 12);
        out[n++] = 0x80 | ((u >> 6) & 0x3f);
        out[n++] = 0x80 | (u & 0x3f);
      } else {
        out[n++] = 0xf0 | (u >> 18);
        out[n++] = 0x80 | ((u >> 12) & 0x3f);
        out[n++] = 0x80 | ((u >> 6) & 0x3f);
        out[n++] = 0x80 | (u & 0x3f);
      }
    }
  }
  return { length: n, chars, ascii };
}

/** What measuring tails keeps between calls: the decoded window and a zlib sizer. One per reader. */
export class TailMeasure {
  window = new Uint8Array(0);
  readonly sizer = new ZlibSizer();
}

/**
 * The tail of the validated string body `b[s, e)` (between the quotes), or null when it has at
 * most `TAIL_CHARS` code points. Decodes from a boundary a little before the tail, widening the
 * window until it holds more than `TAIL_CHARS + 1` code points (the first decoded one may be the
 * low half of a pair that began before the window) or reaches the start.
 */
export function textTail(b: Uint8Array, s: number, e: number, jobs: DeflateJobs | null = null, measure: TailMeasure | null = null): TextTail | null {
  const m = measure ?? new TailMeasure();
  // A code point takes at least one byte.
  if (e - s <= TAIL_CHARS) return null;
  let budget = TAIL_CHARS + (TAIL_CHARS >> 2);
  for (;;) {
    let p = Math.max(s, e - budget);
    while (!isBoundary(b, s, p)) p--;
    // Decoded text is never longer than its escaped form. The caller's window, reused: only
    // numbers leave `textTail` (a deflate job copies the bytes it is offered).
    if (m.window.length < e - p) m.window = new Uint8Array(Math.max(e - p, 2 * m.window.length));
    const decoded = m.window;
    const { length, chars, ascii } = decode(b, p, e, decoded);
    if (p === s && chars <= TAIL_CHARS) return null;
    if (p === s || chars >= TAIL_CHARS + 2) return tailOf(decoded.subarray(0, length), ascii, jobs, m.sizer);
    budget *= 2;
  }
}

/** The last `TAIL_CHARS` code points of the decoded `text` (which has more); `ascii`: a byte each, and no surrogate. */
function tailOf(text: Uint8Array, ascii: boolean, jobs: DeflateJobs | null, sizer: ZlibSizer | null): TextTail {
  if (ascii) return encodable(text.subarray(text.length - TAIL_CHARS), jobs, sizer);
  let start = text.length;
  for (let count = 0; count < TAIL_CHARS;) {
    start--;
    if ((text[start] & 0xc0) !== 0x80) count++;
  }
  const bytes = text.subarray(start);
  let surrogates: TextTail['surrogates'] = null;
  let index = 0;
  for (let k = 0; k < bytes.length; k++) {
    const c = bytes[k];
    if ((c & 0xc0) === 0x80) continue;
    if (c === 0xed && bytes[k + 1] >= 0xa0) {
      if (surrogates === null) surrogates = { at: index, length: 1, first: 0xd000 | ((bytes[k + 1] & 0x3f) << 6) | (bytes[k + 2] & 0x3f) };
      else if (surrogates.at + surrogates.length === index) surrogates.length++;
    }
    index++;
  }
  return surrogates === null ? encodable(bytes, jobs, sizer) : { utf8Length: bytes.length, deflatedLength: null, surrogates };
}

/**
 * The tail of UTF-8 `bytes` Python can encode: compressed here (by the caller's `sizer`; without
 * one, by a sizer of this call's own), or by `jobs` when it takes them.
 */
function encodable(bytes: Uint8Array, jobs: DeflateJobs | null, sizer: ZlibSizer | null): TextTail {
  const ticket = jobs === null ? -1 : jobs.offer(bytes);
  if (ticket < 0) return { utf8Length: bytes.length, deflatedLength: (sizer ?? new ZlibSizer()).length(bytes, 9), surrogates: null };
  return { utf8Length: bytes.length, deflatedLength: null, surrogates: null, deflateTicket: ticket };
}

/** `textTail` of a built string (JS text: a lone UTF-16 surrogate is one code point, as in Python). */
export function stringTail(text: string, jobs: DeflateJobs | null = null, measure: TailMeasure | null = null): TextTail | null {
  const sizer = measure?.sizer ?? null;
  if (text.length <= TAIL_CHARS) return null;
  // Back over TAIL_CHARS code points, as `Array.from` counts them (a pair is one, a lone half one),
  // without splitting the whole text: a response can be megabytes.
  let start = text.length;
  for (let count = 0; count < TAIL_CHARS && start > 0; count++) {
    start--;
    if (isLow(text.charCodeAt(start)) && start > 0 && isHigh(text.charCodeAt(start - 1))) start--;
  }
  if (start === 0) return null;
  let surrogates: TextTail['surrogates'] = null;
  let index = 0;
  for (let k = start; k < text.length; k++, index++) {
    const u = text.charCodeAt(k);
    if (u < 0xd800 || u > 0xdfff) continue;
    if (isHigh(u) && k + 1 < text.length && isLow(text.charCodeAt(k + 1))) {
      k++;
      continue;
    }
    if (surrogates === null) surrogates = { at: index, length: 1, first: u };
    else if (surrogates.at + surrogates.length === index) surrogates.length++;
  }
  // TextEncoder writes a lone surrogate as U+FFFD: 3 bytes, as many as its own UTF-8 form.
  const bytes = encoder.encode(text.slice(start));
  return surrogates === null ? encodable(bytes, jobs, sizer) : { utf8Length: bytes.length, deflatedLength: null, surrogates };
}

const encoder = new TextEncoder();

function isHigh(u: number): boolean {
  return u >= 0xd800 && u <= 0xdbff;
}

function isLow(u: number): boolean {
  return u >= 0xdc00 && u <= 0xdfff;
}
