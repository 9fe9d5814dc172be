// Byte → text helpers on the hot path. Node's `Buffer` decodes natively (`utf8Slice`) and finds a
// byte with memchr (`indexOf`); a plain `Uint8Array` (browser worker) falls back to TextDecoder and
// a loop. Building a string char by char allocates once per character: never on the hot path.

interface NodeBytes extends Uint8Array {
  utf8Slice(start: number, end: number): string;
}

const decoder = new TextDecoder('utf-8');

function isNodeBuffer(b: Uint8Array): b is NodeBytes {
  return typeof (b as Partial<NodeBytes>).utf8Slice === 'function';
}

/** UTF-8 text of `b[s, e)`. */
export function utf8Text(b: Uint8Array, s: number, e: number): string {
  if (isNodeBuffer(b)) return b.utf8Slice(s, e);
  if (e - s <= 16) {
    let ascii = true;
    for (let k = s; k < e; k++) if (b[k] >= 0x80) ascii = false;
    if (ascii) return String.fromCharCode.apply(null, Array.from(b.subarray(s, e)));
  }
  return decoder.decode(b.subarray(s, e));
}

/**
 * Whether `byte` occurs in `b[s, e)`. `indexOf` has no end bound (it would search the rest of a
 * multi-MB buffer), so short ranges loop here and long ones search a bounded view.
 */
export function hasByte(b: Uint8Array, byte: number, s: number, e: number): boolean {
  if (e - s <= 64) {
    for (let k = s; k < e; k++) if (b[k] === byte) return true;
    return false;
  }
  return b.subarray(s, e).indexOf(byte) >= 0;
}

/**
 * Short strings repeat line after line (keys, statuses, causes, dataset names, small numbers):
 * they are looked up by a hash of their bytes instead of being decoded and allocated again.
 * Bounded: a fixed table of slots, each holding the last string whose hash fell in it, so unique
 * values (indices, an error text per sample) replace entries without growing or clearing a map.
 * One per scan (a `RuleParser` holds it): a hit is checked byte by byte, so a table shared would
 * give the same strings, but each scan keeps its own.
 */
const SHORT = 32;
const SLOTS = 4096;

export class ShortTexts {
  private readonly slotHash = new Int32Array(SLOTS);
  // '' with hash 0 is the entry of an empty string (n = 0 gives h = 0), so every slot starts valid.
  private readonly slotText = new Array<string>(SLOTS).fill('');

  /** UTF-8 text of `b[s, e)`, the string seen before when these bytes were. */
  text(b: Uint8Array, s: number, e: number): string {
    const n = e - s;
    if (n > SHORT) return utf8Text(b, s, e);
    let h = n | 0;
    for (let k = s; k < e; k++) {
      const c = b[k];
      if (c >= 0x80) return utf8Text(b, s, e);
      h = Math.imul(h ^ c, 0x01000193);
    }
    const slot = (h ^ (h >>> 15)) & (SLOTS - 1);
    const hit = this.slotText[slot];
    if (this.slotHash[slot] === h && hit.length === n) {
      let same = true;
      for (let k = 0; k < n; k++) {
        if (hit.charCodeAt(k) !== b[s + k]) {
          same = false;
          break;
        }
      }
      if (same) return hit;
    }
    const text = utf8Text(b, s, e);
    this.slotHash[slot] = h;
    this.slotText[slot] = text;
    return text;
  }
}
