// Float semantics of the code whose numbers we re-run: CPython's `sum()` and numpy's `np.mean`.
// The order of additions decides the last bits of a mean, and a metric we re-compute should be the
// same double the framework logged, not merely close to it.

/**
 * Python 3.12+ `sum(values)` (start 0): exact integer sum while every item is an int, then
 * Neumaier-compensated float summation (CPython `builtin_sum_impl`). `isInt[i]` says whether item i
 * is a Python int (JSON integer literal); ints below 2**53 are exact doubles.
 */
export function pySum(values: ArrayLike<number>, isInt?: ArrayLike<boolean | number>): number {
  let i = 0;
  let intSum = 0;
  while (i < values.length && isIntAt(isInt, i)) intSum += values[i++];
  if (i === values.length) return intSum;
  // The first float meets the int total in a plain `int + float` (no compensation)…
  let sum = intSum + values[i++];
  let c = 0;
  for (; i < values.length; i++) {
    const x = values[i];
    // …and an int after that is added plainly too, outside the compensation.
    if (isIntAt(isInt, i)) {
      sum += x;
      continue;
    }
    const t = sum + x;
    c += Math.abs(sum) >= Math.abs(x) ? sum - t + x : x - t + sum;
    sum = t;
  }
  // CPython adds the compensation only when it is non-zero and finite (keeps -0.0 and infinities).
  return c !== 0 && Number.isFinite(c) ? sum + c : sum;
}

/** Whether value `i` is an int: `isInt` as booleans, or as 0/1 (a typed array). */
function isIntAt(isInt: ArrayLike<boolean | number> | undefined, i: number): boolean {
  if (isInt === undefined) return false;
  const v = isInt[i];
  return v === true || v === 1;
}

/** numpy's pairwise summation of a float64 array (`np.add.reduce`, blocks of 128, 8 accumulators). */
export function npSum(values: ArrayLike<number>, start = 0, end = values.length): number {
  const n = end - start;
  if (n < 8) {
    let res = 0;
    for (let i = start; i < end; i++) res += values[i];
    return res;
  }
  if (n <= 128) {
    const r = [
      values[start],
      values[start + 1],
      values[start + 2],
      values[start + 3],
      values[start + 4],
      values[start + 5],
      values[start + 6],
      values[start + 7],
    ];
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (let j = 0; j < 8; j++) r[j] += values[start + i + j];
    }
    let res = r[0] + r[1] + (r[2] + r[3]) + (r[4] + r[5] + (r[6] + r[7]));
    for (; i < n; i++) res += values[start + i];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return npSum(values, start, start + n2) + npSum(values, start + n2, end);
}

/** `np.mean` of a float64 array: pairwise sum divided by the count (NaN for an empty array). */
export function npMean(values: ArrayLike<number>): number {
  return values.length === 0 ? NaN : npSum(values) / values.length;
}

/** `np.std` (population, ddof 0) as numpy computes it: mean, squared deviations, pairwise sum. */
export function npStd(values: readonly number[]): number {
  const mean = npMean(values);
  const sq = values.map((v) => (v - mean) * (v - mean));
  return Math.sqrt(npSum(sq) / values.length);
}

/** Relative difference |a − b| / max(|a|, |b|); 0 when both are equal (including both NaN). */
export function relativeDifference(a: number, b: number): number {
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return 0;
  if (Number.isNaN(a) || Number.isNaN(b) || !Number.isFinite(a) || !Number.isFinite(b)) return Infinity;
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
}
