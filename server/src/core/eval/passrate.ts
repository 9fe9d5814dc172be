// `passrate/pass@k`, which miles logs for a rollout with `--log-passrate`
// (docs/semantics.md#miles-sample-metrics): `_compute_passrate_from_samples` in miles main (31f1ca9)
// miles/ray/rollout/metrics.py groups the samples by `group_index` (first appearance; the samples
// without one form one group), keeps the groups of exactly `n_samples_per_prompt` samples, and hands
// their rewards (`get_reward_value`: None stays None) to `compute_pass_rate`, which counts the
// rewards `== 1` per group (`True` is 1; None and NaN are not).
import type { SampleColumns } from '../store/sampleColumns';
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
 * file's samples in miles' order.
 */
export function milesPassrate(store: SampleColumns, groupSize: number | null): Passrate {
  const out: Passrate = { values: {}, groupSize, excluded: 0, groups: 0 };
  if (groupSize === null || groupSize <= 1) return out;
  const n = store.length;
  const keyless = store.groupKeys.size;
  // Rows per group (index `keyless`: the samples without a group key), and groups by first appearance.
  const sizes = new Int32Array(keyless + 1);
  const order: number[] = [];
  for (let i = 0; i < n; i++) {
    const id = store.groupId(i);
    const g = id < 0 ? keyless : id;
    if (sizes[g]++ === 0) order.push(g);
  }
  const complete = order.filter((g) => sizes[g] === groupSize);
  out.groups = order.length;
  out.excluded = order.length - complete.length;
  if (complete.length === 0) return out;
  // Each complete group's count of rewards `== 1`, groups in miles' order (a None, or a reward the
  // engine could not read, is not 1). The estimate needs only the counts, not the flat rewards.
  const slot = new Int32Array(keyless + 1).fill(-1);
  complete.forEach((g, k) => (slot[g] = k));
  const correct = new Int32Array(complete.length);
  for (let i = 0; i < n; i++) {
    const id = store.groupId(i);
    const k = slot[id < 0 ? keyless : id];
    if (k >= 0 && store.rewardAt(i) === 1) correct[k]++;
  }
  out.values = passAtKOfCounts(correct, groupSize);
  return out;
}

/** The group size `_compute_passrate_from_samples` would use: the setting, else the groups' one common size. */
export function passrateGroupSize(store: SampleColumns, setting: number | null): number | null {
  if (setting !== null) return setting;
  const keyless = store.groupKeys.size;
  const sizes = new Int32Array(keyless + 1);
  for (let i = 0; i < store.length; i++) {
    const id = store.groupId(i);
    sizes[id < 0 ? keyless : id]++;
  }
  let common = 0;
  for (const s of sizes) {
    if (s === 0) continue;
    if (common !== 0 && s !== common) return null;
    common = s;
  }
  return common === 0 ? null : common;
}
