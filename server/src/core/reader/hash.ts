// A fast 64-bit non-cryptographic hash of raw bytes (two independent 32-bit lanes, FNV-1a and a
// multiply-rotate mix), printed as 16 hex digits. Used as prompt identity: equal prompt JSON text
// gives equal keys without ever building the prompt's string.

export function hashBytes(b: Uint8Array, s: number, e: number): string {
  let h1 = 0x811c9dc5 | 0;
  let h2 = 0x9747b28c | 0;
  for (let k = s; k < e; k++) {
    const c = b[k];
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  h1 ^= e - s;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b);
  h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
