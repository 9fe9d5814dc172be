// pass@k exactly as miles logs it (`compute_pass_rate`): flat rewards cut into groups of
// `group_size`, k = 1, 2, 4, … ≤ group_size, per-group unbiased estimator, numpy mean over groups.
import { npMean, relativeDifference } from './numeric';

/** k values miles logs for a group size: 2**i for i in range(int(log2(n)) + 1); none for n ≤ 1. */
export function passKValues(groupSize: number): number[] {
  if (groupSize <= 1) return [];
  const ks: number[] = [];
  for (let k = 1; k <= groupSize; k *= 2) ks.push(k);
  return ks;
}

/**
 * Per-group estimator 1 − C(n−c, k)/C(n, k), computed as numpy does:
 * `1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1))` (sequential product), 1.0 when n − c < k.
 */
export function passAtKEstimate(n: number, c: number, k: number): number {
  if (n - c < k) return 1.0;
  let prod = 1.0;
  for (let i = n - c + 1; i <= n; i++) prod *= 1.0 - k / i;
  return 1.0 - prod;
}

/**
 * miles computes `num_groups = len(flat_rewards) // group_size` and asserts
 * `len(flat_rewards) == num_groups * group_size`; with 8 samples and group size 3 that is
 * 8 // 3 = 2 groups, 2 × 3 ≠ 8, and the assertion text below.
 */
export function passAtKAssertion(count: number, groupSize: number): string | null {
  const numGroups = Math.floor(count / groupSize);
  if (count === numGroups * groupSize) return null;
  return `AssertionError: len(flat_rewards)=${count} num_groups=${numGroups} group_size=${groupSize}`;
}

export type PassAtKOutcome = { kind: 'metrics'; values: Record<string, number> } | { kind: 'crash'; crash: string };

/**
 * pass@k of flat rewards (None already replaced by 0.0, in index order) grouped by `groupSize`.
 * Keys are `pass@<k>`. A group size of 1 gives no metrics (miles returns `{}`).
 */
export function computePassAtK(flatRewards: ArrayLike<number>, groupSize: number): PassAtKOutcome {
  if (groupSize <= 1) return { kind: 'metrics', values: {} };
  const crash = passAtKAssertion(flatRewards.length, groupSize);
  if (crash !== null) return { kind: 'crash', crash };
  const numGroups = flatRewards.length / groupSize;
  const correct = new Int32Array(numGroups);
  for (let g = 0; g < numGroups; g++) {
    let c = 0;
    for (let j = 0; j < groupSize; j++) if (flatRewards[g * groupSize + j] === 1) c++;
    correct[g] = c;
  }
  return { kind: 'metrics', values: passAtKOfCounts(correct, groupSize) };
}

/**
 * `compute_pass_rate`'s figures from each group's count of rewards `== 1` (groups in miles' order,
 * all of `groupSize` samples). A group's estimate depends only on its count: it is computed once for
 * each count that occurs, and only for those (an estimate costs up to `groupSize` steps, so every
 * count of a large group would cost its size squared: one group of a whole file's samples).
 */
export function passAtKOfCounts(correct: Int32Array, groupSize: number): Record<string, number> {
  const values: Record<string, number> = {};
  const estimates = new Float64Array(correct.length);
  const byCount = new Float64Array(groupSize + 1);
  // The counts' estimates computed for the current k: `known[c] === k` (k is never 0).
  const known = new Int32Array(groupSize + 1);
  for (const k of passKValues(groupSize)) {
    for (let g = 0; g < correct.length; g++) {
      const c = correct[g];
      if (known[c] !== k) {
        byCount[c] = passAtKEstimate(groupSize, c, k);
        known[c] = k;
      }
      estimates[g] = byCount[c];
    }
    values[`pass@${k}`] = npMean(estimates);
  }
  return values;
}

/**
 * Two groupings' pass@k are the same figure when they differ by at most this much (relative): numpy
 * sums the per-group estimates in another order for another group count, so equal figures can
 * differ in the last bit (0.5833333333333334 over groups of 2, 0.5833333333333333 over groups of 3).
 */
export const SAME_PASS_AT_K_TOLERANCE = 1e-12;

export interface PassAtKDifference {
  /** Values `other` logs that are wrong: they differ from the right value, or the right grouping has no such k. */
  wrong: Record<string, number>;
  /** Keys the right grouping has and `other` does not log. */
  missing: string[];
}

/**
 * What `other` (pass@k over another grouping) gets wrong against `right`. pass@1 is never wrong:
 * it is the share of rewards equal to 1 whatever the grouping, so only rounding can tell them apart.
 */
export function passAtKDifference(other: Record<string, number>, right: Record<string, number>): PassAtKDifference {
  const wrong: Record<string, number> = {};
  for (const [k, v] of Object.entries(other)) {
    if (k === 'pass@1') continue;
    const r = right[k];
    if (r === undefined || relativeDifference(v, r) > SAME_PASS_AT_K_TOLERANCE) wrong[k] = v;
  }
  const missing = Object.keys(right).filter((k) => !(k in other));
  return { wrong, missing };
}
