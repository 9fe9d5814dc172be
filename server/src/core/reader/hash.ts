// A fast 64-bit non-cryptographic hash of raw bytes, printed as 16 hex digits: two 32-bit lanes
// with murmur3-style mixing, four bytes per step. Used as prompt identity: equal prompt JSON text
// gives equal keys without ever building the prompt's string.

function mix(h: number, k: number, c1: number, c2: number): number {
  k = Math.imul(k, c1);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, c2);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function finish(h: number, length: number): number {
  h ^= length;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The hash of `b[s, e)` as 16 hex digits; `words`: scratch for its two words (a hot caller keeps its own). */
export function hashBytes(b: Uint8Array, s: number, e: number, words: Uint32Array = new Uint32Array(2)): string {
  hashPair(b, s, e, words);
  return hex64(words[0], words[1]);
}

/** `hashBytes` as its two 32-bit words (`out[0]` the first 8 hex digits), without the string. */
export function hashPair(b: Uint8Array, s: number, e: number, out: Uint32Array): void {
  let h1 = 0x811c9dc5 | 0;
  let h2 = 0x9747b28c | 0;
  let k = s;
  for (const last = e - 3; k < last; k += 4) {
    const w = b[k] | (b[k + 1] << 8) | (b[k + 2] << 16) | (b[k + 3] << 24);
    h1 = mix(h1, w, 0xcc9e2d51, 0x1b873593);
    h2 = mix(h2, w, 0x85ebca77, 0xc2b2ae3d);
  }
  let tail = 0;
  for (let shift = 0; k < e; k++, shift += 8) tail |= b[k] << shift;
  h1 = mix(h1, tail, 0xcc9e2d51, 0x1b873593);
  h2 = mix(h2, tail ^ 0x5bd1e995, 0x85ebca77, 0xc2b2ae3d);
  out[0] = finish(h1, e - s);
  out[1] = finish(h2, e - s);
}

const HEX_DIGIT = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/** 16 lowercase hex digits of two 32-bit words, in one string allocation (toString(16) + padStart cost four). */
export function hex64(a: number, b: number): string {
  const d = HEX_DIGIT;
  return String.fromCharCode(
    d[(a >>> 28) & 15],
    d[(a >>> 24) & 15],
    d[(a >>> 20) & 15],
    d[(a >>> 16) & 15],
    d[(a >>> 12) & 15],
    d[(a >>> 8) & 15],
    d[(a >>> 4) & 15],
    d[a & 15],
    d[(b >>> 28) & 15],
    d[(b >>> 24) & 15],
    d[(b >>> 20) & 15],
    d[(b >>> 16) & 15],
    d[(b >>> 12) & 15],
    d[(b >>> 8) & 15],
    d[(b >>> 4) & 15],
    d[b & 15],
  );
}
