// Per-dataset metrics, named and computed exactly as miles' `log_eval_rollout_data` logs them.
import type { SampleList } from '../store/sampleList';
import { pySum } from './numeric';
import { computePassAtK } from './passAtK';
import type { PassAtKOutcome } from './passAtK';

export interface DatasetMetrics {
  metrics: Record<string, number>;
  noneCount: number;
  /** pass@k by the dataset's own n: values, or the assertion miles would fail with. */
  passAtK: PassAtKOutcome;
  /** The flat rewards pass@k reads (None → 0.0), in index order: for pass@k by another n. */
  rewards: Float64Array;
}

/** `eval/<ds>`, `-none_reward_ratio`, `-truncated_ratio`, `-pass@<k>` for samples in index order. */
export function datasetMetrics(name: string, ordered: SampleList, n: number): DatasetMetrics {
  const count = ordered.length;
  // One pass over the samples: the rewards as miles sums them (None → 0.0, which is also what
  // pass@k reads), which of them Python holds as ints, and the counts.
  const rewards = new Float64Array(count);
  const isInt = new Uint8Array(count);
  let noneCount = 0;
  let truncated = 0;
  for (let i = 0; i < count; i++) {
    const r = ordered.reward(i);
    if (r === null) noneCount++;
    else {
      rewards[i] = r;
      if (ordered.rewardIsInt(i)) isInt[i] = 1;
    }
    if (ordered.status(i) === 'truncated') truncated++;
  }
  const metrics: Record<string, number> = {};
  metrics[`eval/${name}-none_reward_ratio`] = count > 0 ? noneCount / count : 0.0;
  // When any reward is None, miles' list holds the float 0.0 in its place: a float sum from there.
  metrics[`eval/${name}`] = count > 0 ? pySum(rewards, isInt) / count : 0.0;
  metrics[`eval/${name}-truncated_ratio`] = count > 0 ? truncated / count : 0.0;
  const passAtK = computePassAtK(rewards, n);
  if (passAtK.kind === 'metrics') {
    for (const [k, v] of Object.entries(passAtK.values)) metrics[`eval/${name}-${k}`] = v;
  }
  return { metrics, noneCount, passAtK, rewards };
}
