// Recognising the members of a JSON object by the bytes of their keys, for readers that walk a
// line themselves and convert only the values they need (formats/milesLine.ts). Lines of a log
// repeat the same keys in the same order, so the key at each member position is remembered with
// the field it names: a key is usually recognised by comparing its bytes with the remembered ones,
// without validating, decoding or looking it up again.
import { JsonError } from './jsonError';
import { skipString } from './jsonSkip';
import { stringText } from './scanJson';

const QUOTE = 0x22;
const WS = new Uint8Array(256);
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
  /** Set by `fieldAt`: the index after the key's closing quote. */
  keyEnd = 0;

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
}

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
const RECENT_BYTES = 64;

/**
 * The texts of short string values a field repeats (statuses, exit statuses, dataset names), found
 * by comparing bytes with the last few seen, so they are not decoded or hashed again line after line.
 */
export class RecentTexts {
  private readonly bytes: Uint8Array[] = [];
  private readonly texts: string[] = [];
  private next = 0;

  /** The text of the validated string literal `b[s, end)` (quotes included). */
  text(b: Uint8Array, s: number, end: number): string {
    const n = end - s - 2;
    if (n > RECENT_BYTES) return stringText(b, s, end);
    const all = this.bytes;
    for (let k = 0; k < all.length; k++) {
      const known = all[k];
      if (known.length !== n) continue;
      let j = 0;
      while (j < n && known[j] === b[s + 1 + j]) j++;
      if (j === n) return this.texts[k];
    }
    // Escapes are decoded by the scanner; the bytes as written stay the key.
    const text = stringText(b, s, end);
    this.bytes[this.next] = new Uint8Array(b.subarray(s + 1, end - 1));
    this.texts[this.next] = text;
    this.next = (this.next + 1) % RECENT;
    return text;
  }
}
