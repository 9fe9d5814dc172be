// `passrate/pass@k`, which miles logs for a rollout with `--log-passrate`
// (docs/semantics.md#miles-sample-metrics): `_compute_passrate_from_samples` in miles main (31f1ca9)
// miles/ray/rollout/metrics.py groups the samples by `group_index` (first appearance; the samples
// without one form one group), keeps the groups of exactly `n_samples_per_prompt` samples, and hands
// their rewards (`get_reward_value`: None stays None) to `compute_pass_rate`, which counts the
// rewards `== 1` per group (`True` is 1; None and NaN are not).
import type { GroupTally, SampleColumns } from '../store/sampleColumns';
import { passAtKOfCounts } from './passAtK';

export interface Passrate {
  /** `pass@<k>` → value, without the `passrate/` prefix; empty when miles logs none. */
  values: Record<string, number>;
  /** The group size used, and where it came from. */
  groupSize: number | null;
  /** Groups left out for another size (miles warns "pass@k: excluding …"). */
  excluded: number;
  groups: number;
}

/**
 * `groupSize`: `--n-samples-per-prompt` (miles' default is 1: no pass@k). `store`: one rollout
 * file's samples in miles' order. `tally`: the store's `groupTally()`, when the caller has it.
 */
export function milesPassrate(store: SampleColumns, groupSize: number | null, tally?: GroupTally): Passrate {
  const out: Passrate = { values: {}, groupSize, excluded: 0, groups: 0 };
  if (groupSize === null || groupSize <= 1) return out;
  // Rows per group and groups by first appearance (the samples without a group key are one group).
  const { sizes, ones, order } = tally ?? store.groupTally();
  // Each complete group's count of rewards `== 1`, groups in miles' order (a None, or a reward the
  // engine could not read, is not 1). The estimate needs only the counts, not the flat rewards.
  let complete = 0;
  for (const g of order) if (sizes[g] === groupSize) complete++;
  out.groups = order.length;
  out.excluded = order.length - complete;
  if (complete === 0) return out;
  const correct = new Int32Array(complete);
  let k = 0;
  for (const g of order) if (sizes[g] === groupSize) correct[k++] = ones[g];
  out.values = passAtKOfCounts(correct, groupSize);
  return out;
}

/**
 * The group size `_compute_passrate_from_samples` would use: the setting, else the groups' one
 * common size. `tally`: the store's `groupTally()`, when the caller has it.
 */
export function passrateGroupSize(store: SampleColumns, setting: number | null, tally?: GroupTally): number | null {
  if (setting !== null) return setting;
  const { sizes, order } = tally ?? store.groupTally();
  let common = 0;
  for (const g of order) {
    if (common !== 0 && sizes[g] !== common) return null;
    common = sizes[g];
  }
  return common === 0 ? null : common;
}
