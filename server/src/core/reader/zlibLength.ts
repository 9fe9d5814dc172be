// The length of zlib's output for some bytes, as CPython's `zlib.compress(data, level)` gives it
// (window 15 bits, memory level 8, default strategy): pako is a line-by-line port of zlib's
// deflate in plain JavaScript, so the engine stays free of platform modules. Its output equals
// CPython's in length on the cases test/unit/reader/textTail.test.ts pins (computed by Python's
// zlib: scripts/gen-real-fixtures.py, zlib_cases). A fresh stream per call, as zlib.compress
// makes one: no state carries over from one response to the next.
import { deflate } from 'pako/lib/deflate';

/** `len(zlib.compress(bytes, level))`. */
export function zlibLength(bytes: Uint8Array, level: number): number {
  return deflate(bytes, { level }).length;
}
