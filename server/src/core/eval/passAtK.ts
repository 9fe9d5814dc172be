// pass@k exactly as miles logs it (`compute_pass_rate`): flat rewards cut into groups of
// `group_size`, k = 1, 2, 4, … ≤ group_size, per-group unbiased estimator, numpy mean over groups.
import { npMean } from './numeric';

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
  const correct: number[] = [];
  for (let g = 0; g < numGroups; g++) {
    let c = 0;
    for (let j = 0; j < groupSize; j++) if (flatRewards[g * groupSize + j] === 1) c++;
    correct.push(c);
  }
  const values: Record<string, number> = {};
  for (const k of passKValues(groupSize)) {
    values[`pass@${k}`] = npMean(correct.map((c) => passAtKEstimate(groupSize, c, k)));
  }
  return { kind: 'metrics', values };
}
