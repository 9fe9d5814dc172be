// Per-dataset metrics, named and computed exactly as miles' `log_eval_rollout_data` logs them, or
// slime's (no none-reward ratio; a None reward makes its sum raise): the framework's rules say which
// (core/vocabulary/frameworks.ts).
import { MILES_RULES, type SampleFrameworkRules } from '../vocabulary/frameworks';
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
  /**
   * slime: what `sum(rewards)` raises on the first None reward (its partial sum an int or a float),
   * as Python prints it; then `eval/<ds>` is not logged. Null when nothing raises.
   */
  sumCrash: string | null;
}

/** Python's `sum` of rewards in order meeting a None: the TypeError names the partial sum's type. */
function sumNoneError(ordered: SampleList): string | null {
  let float = false;
  for (let i = 0; i < ordered.length; i++) {
    if (ordered.reward(i) === null) return `TypeError: unsupported operand type(s) for +: '${float ? 'float' : 'int'}' and 'NoneType'`;
    if (!ordered.rewardIsInt(i)) float = true;
  }
  return null;
}

/** `eval/<ds>`, `-none_reward_ratio` (miles), `-truncated_ratio`, `-pass@<k>` for samples in index order. */
export function datasetMetrics(name: string, ordered: SampleList, n: number, rules: SampleFrameworkRules = MILES_RULES): DatasetMetrics {
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
  const sumCrash = rules.evalNoneRewardRatio || noneCount === 0 ? null : sumNoneError(ordered);
  if (rules.evalNoneRewardRatio) metrics[`eval/${name}-none_reward_ratio`] = count > 0 ? noneCount / count : 0.0;
  // When any reward is None, miles' list holds the float 0.0 in its place: a float sum from there.
  if (sumCrash === null) metrics[`eval/${name}`] = count > 0 ? pySum(rewards, isInt) / count : 0.0;
  metrics[`eval/${name}-truncated_ratio`] = count > 0 ? truncated / count : 0.0;
  const passAtK = computePassAtK(rewards, n);
  if (passAtK.kind === 'metrics') {
    for (const [k, v] of Object.entries(passAtK.values)) metrics[`eval/${name}-${k}`] = v;
  }
  return { metrics, noneCount, passAtK, rewards, sumCrash };
}
