// slime 624b824's GRPO reward normalisation of a step whose rollouts fan out
// (docs/semantics.md#group-shape): slime counts a group's rollouts against n (its
// `len(group) == n_samples_per_prompt` assertion) but trains on every sample, and
// `RolloutManager._post_process_rewards` reshapes the step's rewards into groups of n only when the
// step holds exactly n × rollout_batch_size samples; otherwise it takes the whole step as one row. So a
// fanned-out step gets the step's mean (and std) as every sample's baseline, not its group's: a group
// whose samples all scored the same still gets nonzero advantages.
import { pyFloatRepr } from '../../../../shared/pythonRepr';
import type { SampleColumns } from '../store/sampleColumns';
import type { CompactSummary } from './compactRollouts';
import { unbiasedStd } from './filters';

/** The rows slime normalises a step's rewards over, as `_post_process_rewards` shapes them. */
export interface SlimeNormalization {
  samples: number;
  groups: number;
  n: number;
  /**
   * `whole`: the step is one row (its sample count is not n × groups); `mixed`: rows of n samples in
   * the order written, some holding samples of two groups; `groups`: rows of n that are the groups.
   */
  rows: 'whole' | 'mixed' | 'groups';
  /** The whole step's mean and unbiased std (`rows` is `whole`); null otherwise or when a reward is missing. */
  whole: { mean: number; std: number } | null;
}

/**
 * How slime 624b824 shapes a fanned-out step's rewards for GRPO: null when n is unknown. The step's
 * groups are taken as its `rollout_batch_size` (a dump holds one step's groups).
 */
export function slimeNormalization(store: SampleColumns, fanned: CompactSummary): SlimeNormalization | null {
  const n = fanned.n;
  if (n === null) return null;
  const samples = store.length;
  if (samples === n * fanned.groups) {
    let rows: SlimeNormalization['rows'] = 'groups';
    for (let i = 0; i < samples; i++) if (i % n !== 0 && store.groupId(i) !== store.groupId(i - 1)) rows = 'mixed';
    return { samples, groups: fanned.groups, n, rows, whole: null };
  }
  // The whole step is one row: its rewards are read only then (a missing one leaves the figures out).
  const rewards = new Float64Array(samples);
  let sum = 0;
  for (let i = 0; i < samples; i++) {
    const r = store.rewardAt(i);
    if (r === null) return { samples, groups: fanned.groups, n, rows: 'whole', whole: null };
    rewards[i] = r;
    sum += r;
  }
  return { samples, groups: fanned.groups, n, rows: 'whole', whole: { mean: sum / samples, std: unbiasedStd(rewards) } };
}

/** A figure of the message: float64 to 6 significant digits (slime computes in float32). */
function shown(x: number): string {
  return pyFloatRepr(Number(x.toPrecision(6)));
}

/** The `compact-rollouts` finding's text for a slime step. */
export function slimeCompactMessage(fanned: CompactSummary, norm: SlimeNormalization | null, version: string): string {
  const head =
    `${fanned.fannedOut} of ${fanned.groups} group${fanned.groups === 1 ? '' : 's'} fan${fanned.fannedOut === 1 ? 's' : ''} a rollout out into several samples that share rollout_id` +
    ` (compact / sub-agent rollouts): ${version} counts each rollout once against n_samples_per_prompt but trains on every sample, one reward each`;
  if (norm === null || norm.rows === 'groups') return `${head}.`;
  const rule =
    `with GRPO's reward normalisation on (--advantage-estimator grpo, gspo, cispo or reinforce_plus_plus_baseline, without` +
    ` --disable-rewards-normalization), _post_process_rewards reshapes the rewards into groups of n only when the step holds` +
    ` exactly n × rollout_batch_size samples`;
  const expected = norm.n * norm.groups;
  if (norm.rows === 'mixed') {
    return (
      `${head}; ${rule}, and this step's ${norm.samples} samples do (${norm.groups} groups × ${norm.n}): they are cut into rows of` +
      ` ${norm.n} in the order written, and a group of another size than ${norm.n} spills across rows, so some row's baseline` +
      ` mixes groups.`
    );
  }
  const baseline =
    norm.whole === null
      ? 'the whole step as one row'
      : `the whole step as one row: mean ${shown(norm.whole.mean)} over its ${norm.samples} samples (std ${shown(norm.whole.std)}` +
        ` with grpo_std_normalization)`;
  return (
    `${head}; ${rule}, and this step holds ${norm.samples} (${norm.groups} groups × ${norm.n} = ${expected}). So GRPO's baseline is` +
    ` ${baseline}, not each group's: a group whose samples all scored the same still gets nonzero advantages.`
  );
}
