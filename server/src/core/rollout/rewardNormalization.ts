// miles main (31f1ca9)'s GRPO reward normalisation, run after a rollout step is dumped and logged
// (docs/framework-files.md#compact-rollouts): `convert_samples_to_train_data` →
// `_normalize_rewards_by_rollout` takes one reward per rollout (the samples of a group sharing
// `rollout_id`, else `index`) and raises when it cannot. The dump and the logged figures exist, the
// step never trains: the engine re-runs the checks that raise and says what miles raised.
import { pyIntRepr } from '../vocabulary/python';
import type { SampleColumns } from '../store/sampleColumns';
import { rewardRepr } from './messages';

export interface NormalizationCrash {
  /** The row the finding sits on: the first sample of the rollout that raised. */
  row: number;
  /** The rollout's other samples (ValueError), or the other rollouts without a reward (TypeError). */
  related: number[];
  /** The exception as Python prints it (`type: message`). */
  error: string;
}

/**
 * What `_normalize_rewards_by_rollout` raises on the samples of the rows `kept` does not exclude,
 * taken in row order (the flattened step miles dumps; a row's position among them is what miles'
 * message calls its row), or null. Reward groups are the samples' groups in order of first
 * appearance (`_reward_group_segments` by `group_index`), or all samples as one when one has none.
 * In each group, in order: a rollout whose samples' rewards are not all `==` its first sample's
 * raises `ValueError` (Python's `!=`: NaN differs from itself, None only from a number); then
 * `torch.tensor` of the rollouts' rewards raises `TypeError` on a None. `idsNameRollouts`
 * (`rolloutIdsNameRollouts`): a file whose `rollout_id`s are not miles main's rollout ids (a step
 * number on every sample, as the example run has them) is keyed by `index` alone.
 */
export function rewardNormalizationCrash(store: SampleColumns, excluded: (row: number) => boolean, idsNameRollouts: boolean): NormalizationCrash | null {
  return mayRaise(store, excluded, idsNameRollouts) ? normalizationCrashOf(store, excluded, idsNameRollouts) : null;
}

/** The reference walk behind `rewardNormalizationCrash`: every kept sample into lists (tests compare the two). */
export function normalizationCrashOf(store: SampleColumns, excluded: (row: number) => boolean, idsNameRollouts: boolean): NormalizationCrash | null {
  const rows: number[] = [];
  let ungrouped = false;
  for (let i = 0; i < store.length; i++) {
    if (excluded(i)) continue;
    rows.push(i);
    if (store.groupId(i) < 0) ungrouped = true;
  }
  const groups = new Map<number, number[]>();
  for (let p = 0; p < rows.length; p++) {
    const g = ungrouped ? 0 : store.groupId(rows[p]);
    const positions = groups.get(g);
    if (positions === undefined) groups.set(g, [p]);
    else positions.push(p);
  }
  for (const positions of groups.values()) {
    const rollouts = new Map<number | string, number[]>();
    for (const p of positions) {
      const row = rows[p];
      const key = (idsNameRollouts ? store.rolloutIdAt(row) : null) ?? store.indexAt(row) ?? `row ${p}`;
      const siblings = rollouts.get(key);
      if (siblings === undefined) rollouts.set(key, [p]);
      else siblings.push(p);
    }
    for (const [key, siblings] of rollouts) {
      const first = store.rewardAt(rows[siblings[0]]);
      // Python's `!=` on the rewards as read (null: None): NaN differs from itself, None only from a number.
      if (siblings.every((p) => store.rewardAt(rows[p]) === first)) continue;
      // As Python prints the list miles formats (`{sibling_rewards}`): each reward's repr, a bool `True` / `False`.
      const rewards = siblings.map((p) =>
        rewardRepr({ reward: store.rewardAt(rows[p]), rewardIsInt: store.rewardIsIntAt(rows[p]), rewardIsBool: store.rewardIsBoolAt(rows[p]) || undefined }),
      );
      return {
        row: rows[siblings[0]],
        related: siblings.slice(1).map((p) => rows[p]),
        error:
          `ValueError: all samples in rollout ${typeof key === 'number' ? pyIntRepr(key) : key} must share one reward; ` +
          `rows [${siblings.join(', ')}] have rewards [${rewards.join(', ')}]`,
      };
    }
    const unrewarded = [...rollouts.values()].filter((siblings) => store.rewardAt(rows[siblings[0]]) === null).map((siblings) => rows[siblings[0]]);
    if (unrewarded.length > 0) return { row: unrewarded[0], related: unrewarded.slice(1), error: 'TypeError: must be real number, not NoneType' };
  }
  return null;
}

/**
 * Whether `rewardNormalizationCrash` can find anything, in one pass over the columns that builds
 * nothing per sample (the common step, where it finds nothing, is not slowed by its lists). Only a
 * reward that is not `==` itself (NaN), a missing reward, or two samples under one rollout key in
 * a reward group can raise; keys that rise strictly within each group are all different. Whether
 * the reward groups are the samples' groups or all samples as one (a sample without a group) is
 * known only at the end, so the keys are followed both ways in the same pass.
 */
function mayRaise(store: SampleColumns, excluded: (row: number) => boolean, idsNameRollouts: boolean): boolean {
  let ungrouped = false;
  const last = new Float64Array(store.groupKeys.size).fill(-Infinity);
  let lastOfAll = -Infinity;
  let risingInAll = true;
  for (let i = 0; i < store.length; i++) {
    if (excluded(i)) continue;
    const r = store.rewardAt(i);
    if (r === null || r !== r) return true;
    const g = store.groupId(i);
    if (g < 0) ungrouped = true;
    const key = (idsNameRollouts ? store.rolloutIdAt(i) : null) ?? store.indexAt(i);
    if (key === null) continue; // keyed by its own row: no other sample shares it
    if (!(key > lastOfAll)) risingInAll = false;
    lastOfAll = key;
    if (g >= 0) {
      // Keys rising among all samples rise within each group: a group's fall answers both ways.
      if (!(key > last[g])) return true;
      last[g] = key;
    }
  }
  return ungrouped && !risingInAll;
}
