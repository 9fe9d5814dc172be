// miles' `compute_statistics` (np.mean, np.median, np.max, np.min) over a file's samples, with
// numpy's float semantics (docs/semantics.md#miles-sample-metrics). A million samples' values need
// not be laid out to get them: while the values are integers whose magnitudes sum below 2**53,
// every partial sum numpy's pairwise mean makes is exact, so the mean is the plain sum over the
// count in any order, and the median, max and min come from how many times each value occurs.
// Values outside that take the array, in the samples' order.
import { npMean } from './numeric';

export type Statistics = Record<string, number>;

/** Integers of a range this wide or less are counted (`statisticsOfCounts`), not laid out and sorted. */
export const MAX_COUNTED_RANGE = 1 << 20;

/** `compute_statistics` of `values` (the mean in their order; `values` may be sorted afterwards). */
export function statistics(values: Int32Array | Float64Array, prefix: string, out: Statistics): void {
  if (values.length === 0) return;
  out[`${prefix}mean`] = npMean(values);
  const sorted = sortNumbers(values);
  const mid = sorted.length >> 1;
  out[`${prefix}median`] = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  out[`${prefix}max`] = sorted[sorted.length - 1];
  out[`${prefix}min`] = sorted[0];
}

/**
 * Values seen one at a time (or a value and how many times): their count, sum, least and greatest,
 * and whether the mean of the sum is numpy's (`exact`).
 */
export class ExactSum {
  count = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;
  /** Every value a safe integer, not -0. */
  integral = true;
  private magnitude = 0;

  add(v: number, times = 1): void {
    if (!Number.isSafeInteger(v) || Object.is(v, -0)) this.integral = false;
    this.count += times;
    this.sum += v * times;
    this.magnitude += Math.abs(v) * times;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
  }

  /** Integral, and the magnitudes summing below 2**53 (rounding up never hides that). */
  get exact(): boolean {
    return this.integral && this.magnitude < 2 ** 53;
  }
}

/**
 * `compute_statistics` of the values `seen` summed, given as ascending distinct values and how
 * many times each occurs (`countAt(k)` of `valueAt(k)`, k < size; a count may be 0). Only for an
 * `exact` sum.
 */
export function statisticsOfCounts(
  seen: ExactSum,
  size: number,
  valueAt: (k: number) => number,
  countAt: (k: number) => number,
  prefix: string,
  out: Statistics,
): void {
  const total = seen.count;
  if (total === 0) return;
  out[`${prefix}mean`] = seen.sum / total;
  // The values at sorted positions mid - 1 and mid.
  const mid = total >> 1;
  let below = 0;
  let atMidLess = NaN;
  let atMid = NaN;
  for (let k = 0; k < size; k++) {
    const next = below + countAt(k);
    if (below <= mid - 1 && mid - 1 < next) atMidLess = valueAt(k);
    if (below <= mid && mid < next) {
      atMid = valueAt(k);
      break;
    }
    below = next;
  }
  out[`${prefix}median`] = total % 2 === 1 ? atMid : (atMidLess + atMid) / 2;
  out[`${prefix}max`] = seen.max;
  out[`${prefix}min`] = seen.min;
}

/**
 * `values` in ascending order, as `Array.prototype.sort((a, b) => a - b)` orders them. The typed
 * array's own sort does that in place without boxing a million numbers (a comparator makes V8 copy
 * them into heap numbers); it differs only where the comparator cannot decide: NaN, and -0 beside
 * 0 (kept in their order by the stable sort). Those rare arrays take the comparator.
 */
function sortNumbers(values: Int32Array | Float64Array): Int32Array | Float64Array {
  if (values instanceof Int32Array) return values.sort();
  let negZero = false;
  let zero = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== v) return values.sort((a, b) => a - b);
    if (v === 0) {
      if (Object.is(v, -0)) negZero = true;
      else zero = true;
    }
  }
  return negZero && zero ? values.sort((a, b) => a - b) : values.sort();
}
