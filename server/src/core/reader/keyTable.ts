// Recognising the members of a JSON object by the bytes of their keys, for readers that walk a
// line themselves and convert only the values they need (formats/milesSample/line.ts). Lines of a log
// repeat the same keys in the same order, so the key at each member position is remembered with
// the field it names: a key is usually recognised by comparing its bytes with the remembered ones,
// without validating, decoding or looking it up again.
import { JsonError } from './jsonError';
import { skipString } from './jsonSkip';
import { stringText } from './ruleParse';

const QUOTE = 0x22;
export const WS = new Uint8Array(256);
WS[0x20] = WS[0x09] = WS[0x0a] = WS[0x0d] = 1;

/** Positions and key lengths remembered (the same bounds as the scanner's key cache). */
const MAX_POSITIONS = 64;
const MAX_KEY_BYTES = 64;

interface KnownKey {
  /** The key's bytes as written (between the quotes). */
  bytes: Uint8Array;
  field: number;
}

/** The fields one kind of object names, and the keys last seen at each member position. */
export class KeyTable {
  private readonly fields: Map<string, number>;
  private readonly known: (KnownKey | undefined)[] = [];
  /** Set by `fieldAt`: the index after the key's closing quote; by `leadAt`: the value's first byte. */
  keyEnd = 0;
  /**
   * By member position: the bytes last seen from the end of the previous member (after `{` or `,`)
   * to the member's value (`"index": `: whitespace, the key, whitespace, `:`, whitespace), and the
   * field its key names. Lines of one log repeat them byte for byte.
   */
  private readonly leads: (Uint8Array | undefined)[] = [];
  /** Each lead as `wordsOf` gives it: compared four bytes at a time. */
  private readonly leadWords: (Int32Array | undefined)[] = [];
  private leadFields = new Int32Array(MAX_POSITIONS);
  /**
   * A DataView of the last line buffer compared: lines come from a few long-lived buffers, so one
   * is made per buffer, not per line (and kept by the table, which its reader drops with the file).
   */
  private view: DataView | null = null;
  private viewBytes: Uint8Array | null = null;

  constructor(names: readonly string[]) {
    this.fields = new Map(names.map((name, k) => [name, k]));
  }

  /**
   * `i` at a key's opening quote (checked by the caller), at member `position` of its object: the
   * number of the field the key names, or -1 for any other key; `keyEnd` is set. Keys are compared
   * by their text as JSON reads it (escapes decoded), so `"a\u0062"` names the field `ab`. Throws
   * `JsonError` on a malformed key.
   */
  fieldAt(b: Uint8Array, i: number, e: number, position: number): number {
    const hit = position < MAX_POSITIONS ? this.known[position] : undefined;
    if (hit !== undefined) {
      const bytes = hit.bytes;
      const n = bytes.length;
      const close = i + 1 + n;
      // The same bytes, then a quote: the same (valid) string as the one remembered.
      if (close < e && b[close] === QUOTE) {
        let k = 0;
        while (k < n && bytes[k] === b[i + 1 + k]) k++;
        if (k === n) {
          this.keyEnd = close + 1;
          return hit.field;
        }
      }
    }
    const end = skipString(b, i, e);
    this.keyEnd = end;
    const field = this.fields.get(stringText(b, i, end)) ?? -1;
    if (position < MAX_POSITIONS && end - i - 2 <= MAX_KEY_BYTES && position <= this.known.length) {
      this.known[position] = { bytes: new Uint8Array(b.subarray(i + 1, end - 1)), field };
    }
    return field;
  }

  /**
   * `i` just after `{` or `,` at member `position`: when the bytes there are the lead remembered for
   * the position, its field (-1: a key of no field) with `keyEnd` at the value's first byte (after
   * any further whitespace); else NO_LEAD. Equal bytes are the same valid key and separators.
   */
  leadAt(b: Uint8Array, i: number, e: number, position: number): number {
    const lead = this.leads[position];
    if (lead === undefined) return NO_LEAD;
    const n = lead.length;
    if (i + n >= e) return NO_LEAD;
    if (b !== this.viewBytes) {
      this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
      this.viewBytes = b;
    }
    if (!sameWords(this.leadWords[position] as Int32Array, lead, b, this.view as DataView, i)) return NO_LEAD;
    let v = i + n;
    while (WS[b[v]] === 1 && v < e) v++;
    this.keyEnd = v;
    return this.leadFields[position];
  }

  /** Remembers `b[s, valueStart)` as the lead of member `position`, naming `field`. */
  keepLead(b: Uint8Array, s: number, valueStart: number, position: number, field: number): void {
    if (position >= MAX_POSITIONS || valueStart - s > MAX_KEY_BYTES + 8 || position > this.leads.length) return;
    const lead = new Uint8Array(b.subarray(s, valueStart));
    const words = wordsOf(lead);
    this.leads[position] = lead;
    this.leadWords[position] = words;
    this.leadFields[position] = field;
  }
}

/**
 * `bytes` (4 or more) as little-endian 32-bit words: those at 0, 4, 8, … and, last, the word that
 * ends with the last byte (overlapping the one before it unless the length is a multiple of 4),
 * so every byte is in a word and a comparison takes no byte loop.
 */
function wordsOf(bytes: Uint8Array): Int32Array {
  const n = bytes.length;
  if (n < 4) return new Int32Array(0);
  const words = new Int32Array((n + 3) >>> 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, n);
  for (let k = 0; k < words.length - 1; k++) words[k] = view.getInt32(4 * k, true);
  words[words.length - 1] = view.getInt32(n - 4, true);
  return words;
}

/**
 * Whether `b` holds `bytes` at `at` (`words`: `wordsOf(bytes)`; `view`: a DataView over exactly
 * `b`), compared four bytes at a time.
 */
function sameWords(words: Int32Array, bytes: Uint8Array, b: Uint8Array, view: DataView, at: number): boolean {
  const n = bytes.length;
  if (n < 4) {
    for (let k = 0; k < n; k++) if (bytes[k] !== b[at + k]) return false;
    return true;
  }
  const last = words.length - 1;
  for (let k = 0; k < last; k++) if (words[k] !== view.getInt32(at + 4 * k, true)) return false;
  return words[last] === view.getInt32(at + n - 4, true);
}

/** `leadAt`'s answer when the bytes at the position are not the ones remembered. */
export const NO_LEAD = -2;

export function skipWs(b: Uint8Array, i: number, e: number): number {
  while (i < e && WS[b[i]] === 1) i++;
  return i;
}

/** A syntax error the caller does not report itself (it falls back to the full scan, which does). */
export function malformed(i: number): never {
  throw new JsonError('malformed', i);
}

/** Entries a `RecentTexts` keeps, and the longest string body it keeps. */
const RECENT = 16;
/** Calls of `RecentTexts.repeated` that answer null (V8 allocates feedback after a function's 8th call). */
const WARM_CALLS = 24;
const RECENT_BYTES = 64;
/**
 * New values in a row after which `text` stops comparing and keeping them, and how often it then
 * tries again (a hit ends the pause): the comparisons and copies cost a file whose field differs
 * on every line ~0.3 µs a line for nothing (BENCHMARKS.md, "Design measurements").
 */
const MISSES_BEFORE_PAUSE = 64;
const MISSES_BETWEEN_TRIES = 64;

/**
 * The texts of short string values a field repeats (statuses, exit statuses, dataset names), found
 * by comparing bytes with the last few seen, so they are not decoded or hashed again line after line.
 */
export class RecentTexts {
  private readonly bytes: Uint8Array[] = [];
  private readonly texts: string[] = [];
  private next = 0;

  /** The entry that matched last: tried first (a field mostly repeats one value). */
  private last = 0;
  private calls = 0;
  /** New values in a row (counted on while paused: every MISSES_BETWEEN_TRIES-th is looked up). */
  private misses = 0;
  /** Set by `repeated`: the index after the string. */
  end = 0;

  /**
   * `i` at a string's opening quote: when the string is the last one matched (the same bytes, then
   * a quote: the same valid literal), its text, with `end` after it; else null (nothing checked).
   */
  repeated(b: Uint8Array, i: number, e: number): string | null {
    // The first calls answer null: the caller's other path (`text`, which finds the same entry)
    // then runs on lines V8 collects feedback for, so a new value on a later line does not send
    // the whole optimised line reader back to the interpreter (and V8 to compiling it again).
    if (this.bytes.length === 0 || this.calls < WARM_CALLS) {
      this.calls++;
      return null;
    }
    const known = this.bytes[this.last];
    const n = known.length;
    const close = i + 1 + n;
    if (close >= e || b[close] !== QUOTE) return null;
    for (let k = 0; k < n; k++) if (known[k] !== b[i + 1 + k]) return null;
    this.end = close + 1;
    return this.texts[this.last];
  }

  /** The text of the validated string literal `b[s, end)` (quotes included). */
  text(b: Uint8Array, s: number, end: number): string {
    const n = end - s - 2;
    if (n > RECENT_BYTES) return stringText(b, s, end);
    // A field whose values keep changing (an error text per sample) is only looked up now and then.
    if (this.misses >= MISSES_BEFORE_PAUSE && this.misses++ % MISSES_BETWEEN_TRIES !== 0) return stringText(b, s, end);
    const all = this.bytes;
    if (all.length > 0 && same(all[this.last], b, s + 1, n)) {
      this.misses = 0;
      return this.texts[this.last];
    }
    for (let k = 0; k < all.length; k++) {
      if (same(all[k], b, s + 1, n)) {
        this.last = k;
        this.misses = 0;
        return this.texts[k];
      }
    }
    if (this.misses < MISSES_BEFORE_PAUSE) this.misses++;
    // Escapes are decoded by the scanner; the bytes as written stay the key.
    const text = stringText(b, s, end);
    this.bytes[this.next] = new Uint8Array(b.subarray(s + 1, end - 1));
    this.texts[this.next] = text;
    this.last = this.next;
    this.next = (this.next + 1) % RECENT;
    return text;
  }
}

/** Whether `known` holds the `n` bytes at `b[at]`. */
function same(known: Uint8Array, b: Uint8Array, at: number, n: number): boolean {
  if (known.length !== n) return false;
  let j = 0;
  while (j < n && known[j] === b[at + j]) j++;
  return j === n;
}
