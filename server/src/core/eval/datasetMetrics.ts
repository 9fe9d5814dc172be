// Per-dataset metrics, named and computed exactly as miles' `log_eval_rollout_data` logs them.
import type { SampleRecord } from '../types';
import { pySum } from './numeric';
import { computePassAtK } from './passAtK';
import type { PassAtKOutcome } from './passAtK';

export interface DatasetMetrics {
  metrics: Record<string, number>;
  noneCount: number;
  /** pass@k by the dataset's own n: values, or the assertion miles would fail with. */
  passAtK: PassAtKOutcome;
}

/** `eval/<ds>`, `-none_reward_ratio`, `-truncated_ratio`, `-pass@<k>` for samples in index order. */
export function datasetMetrics(name: string, ordered: readonly SampleRecord[], n: number): DatasetMetrics {
  const count = ordered.length;
  const noneCount = ordered.filter((s) => s.reward === null).length;
  const metrics: Record<string, number> = {};
  metrics[`eval/${name}-none_reward_ratio`] = count > 0 ? noneCount / count : 0.0;
  metrics[`eval/${name}`] = count > 0 ? pySum(...scoredRewards(ordered)) / count : 0.0;
  const truncated = ordered.filter((s) => s.status === 'truncated').length;
  metrics[`eval/${name}-truncated_ratio`] = count > 0 ? truncated / count : 0.0;
  const passAtK = computePassAtK(flatRewards(ordered), n);
  if (passAtK.kind === 'metrics') {
    for (const [k, v] of Object.entries(passAtK.values)) metrics[`eval/${name}-${k}`] = v;
  }
  return { metrics, noneCount, passAtK };
}

/**
 * The list miles sums: rewards as they are, except that when any is None every None becomes the
 * float 0.0 (which also makes the sum a float sum from there on).
 */
function scoredRewards(ordered: readonly SampleRecord[]): [number[], boolean[]] {
  return [ordered.map((s) => s.reward ?? 0.0), ordered.map((s) => s.reward !== null && s.rewardIsInt)];
}

/** Flat rewards for pass@k: None → 0.0, in index order. */
export function flatRewards(ordered: readonly SampleRecord[]): number[] {
  return ordered.map((s) => s.reward ?? 0.0);
}
