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
  return normalizationMayRaise(store, excluded, idsNameRollouts) ? normalizationCrashOf(store, excluded, idsNameRollouts) : null;
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
 * Whether `rewardNormalizationCrash` can find anything, building nothing per sample where it finds
 * nothing (the common step is not slowed by the walk's lists). Only a reward that is not `==`
 * itself (NaN), a missing reward, or two samples under one rollout key in a reward group can raise.
 * Whether the reward groups are the samples' groups or all samples as one (a sample without a
 * group) is known only at the end, so one pass follows the keys both ways: keys that rise strictly
 * are all different. Where they do not (lines out of order), the keys are sorted, per group or all
 * together, and compared with their neighbours.
 */
export function normalizationMayRaise(store: SampleColumns, excluded: (row: number) => boolean, idsNameRollouts: boolean): boolean {
  let ungrouped = false;
  const last = new Float64Array(store.groupKeys.size).fill(-Infinity);
  let lastOfAll = -Infinity;
  let risingInAll = true;
  let risingInGroups = true;
  for (let i = 0; i < store.length; i++) {
    if (excluded(i)) continue;
    const r = store.rewardAt(i);
    if (r === null || r !== r) return true;
    const g = store.groupId(i);
    if (g < 0) ungrouped = true;
    const key = rolloutKey(store, i, idsNameRollouts);
    if (key === null) continue; // keyed by its own row: no other sample shares it
    if (!(key > lastOfAll)) risingInAll = false;
    lastOfAll = key;
    if (g >= 0) {
      if (!(key > last[g])) risingInGroups = false;
      last[g] = key;
    }
  }
  // Keys rising among all samples rise within each group too.
  if (risingInAll || (!ungrouped && risingInGroups)) return false;
  return ungrouped ? repeatsAmongAll(store, excluded, idsNameRollouts) : repeatsWithinGroups(store, excluded, idsNameRollouts);
}

/** The key `normalizationCrashOf` files a row's sample under, or null when it is keyed by its row alone. */
function rolloutKey(store: SampleColumns, row: number, idsNameRollouts: boolean): number | null {
  return (idsNameRollouts ? store.rolloutIdAt(row) : null) ?? store.indexAt(row);
}

/** Whether two kept samples share a key (all samples one reward group). */
function repeatsAmongAll(store: SampleColumns, excluded: (row: number) => boolean, idsNameRollouts: boolean): boolean {
  const keys = new Float64Array(store.length);
  let n = 0;
  for (let i = 0; i < store.length; i++) {
    if (excluded(i)) continue;
    const key = rolloutKey(store, i, idsNameRollouts);
    if (key !== null) keys[n++] = key;
  }
  return hasNeighbourRepeat(keys.subarray(0, n));
}

/** Whether two kept samples of one group share a key: rows bucketed by group, each bucket's keys sorted. */
function repeatsWithinGroups(store: SampleColumns, excluded: (row: number) => boolean, idsNameRollouts: boolean): boolean {
  const groups = store.groupKeys.size;
  // Each group's first position in `keys`, then (after the fill) its end.
  const start = new Int32Array(groups + 1);
  for (let i = 0; i < store.length; i++) if (!excluded(i) && rolloutKey(store, i, idsNameRollouts) !== null) start[store.groupId(i) + 1]++;
  for (let g = 0; g < groups; g++) start[g + 1] += start[g];
  const keys = new Float64Array(start[groups]);
  const end = start.slice(0, groups);
  for (let i = 0; i < store.length; i++) {
    if (excluded(i)) continue;
    const key = rolloutKey(store, i, idsNameRollouts);
    if (key !== null) keys[end[store.groupId(i)]++] = key;
  }
  for (let g = 0; g < groups; g++) if (hasNeighbourRepeat(keys.subarray(start[g], start[g + 1]))) return true;
  return false;
}

/** Whether `keys` (sorted here, in place) holds a value twice. */
function hasNeighbourRepeat(keys: Float64Array): boolean {
  if (keys.length < 2) return false;
  keys.sort();
  for (let j = 1; j < keys.length; j++) if (keys[j] === keys[j - 1]) return true;
  return false;
}
