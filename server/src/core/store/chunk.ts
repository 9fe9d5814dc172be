// The sample store's chunk size and the codes and helpers its columns use (store/fieldRows.ts
// holds the chunk's columns, written from store/recordColumns.ts).
import type { SampleStatus } from '../vocabulary/types';

export const CHUNK_BITS = 14;
export const CHUNK = 1 << CHUNK_BITS;
export const MASK = CHUNK - 1;

export const STATUS_OF_CODE: readonly (SampleStatus | null)[] = [null, 'pending', 'completed', 'truncated', 'aborted', 'failed'];
export const STATUS_CODE = new Map<SampleStatus | null, number>(STATUS_OF_CODE.map((s, i) => [s, i]));

/** Int32 column values for null, and for "see the overflow map" (fractions, beyond int32, -0, these two). */
export const NULL = -0x80000000;
export const OUT = -0x7fffffff;

/**
 * The array a counting column (store/recordColumns.ts `count`, `intCount`) gets when row `j`'s
 * value `v` is not `first + j`: the count up to that row, then `v`. Writers write on into it once made.
 */
export function brokenCount<T extends Uint32Array | Int32Array>(make: new (length: number) => T, first: number, j: number, v: number): T {
  const out = new make(CHUNK);
  for (let k = 0; k < j; k++) out[k] = first + k;
  out[j] = v;
  return out;
}

/**
 * `col`, a label column (dataset, cause), with `code` at row `j`: a byte column comes back as an
 * Int32 copy when the code needs more than a byte (the caller keeps the column returned).
 */
export function withLabelCode(col: Uint8Array | Int32Array, j: number, code: number): Uint8Array | Int32Array {
  if (code > 255 && col.BYTES_PER_ELEMENT === 1) col = Int32Array.from(col);
  col[j] = code;
  return col;
}
