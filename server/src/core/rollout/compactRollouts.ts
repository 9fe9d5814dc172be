// miles' compact / sub-agent rollouts (docs/framework-files.md#compact-rollouts): one rollout (one
// agent run on one input sample) written as several samples that share `Sample.rollout_id`. miles
// main (31f1ca9) counts such a rollout once: its group holds n rollouts, not n samples
// (`generate_rollout_async` asserts `len(group) == n_samples_per_prompt` before flattening), the
// step is not trimmed by sample count, and `_normalize_rewards_by_rollout` gives GRPO one reward
// per rollout. Its `_compute_passrate_from_samples` still counts samples, so it leaves such a
// group out of `passrate/pass@k`.
import { pyFloatRepr } from '../../../../shared/pythonRepr';
import { SampleColumns } from '../store/sampleColumns';
import { rowList, sampleList, type SampleList } from '../store/sampleList';
import { computePassAtK } from '../eval/passAtK';

/**
 * Whether a file's `rollout_id`s name rollouts: some sample has one, and the samples sharing an id
 * share their group and their `index`. miles sets it only on the siblings of a compact rollout,
 * each a copy of one input sample (same `group_index`, same `index`), to that sample's index; an
 * id on samples of different indexes or groups (a step written there by hand) names no rollout,
 * and the samples are counted one by one.
 */
export function rolloutIdsNameRollouts(samples: SampleColumns | SampleList): boolean {
  if (samples instanceof SampleColumns && !samples.hasRolloutIds) return false;
  const list = samples instanceof SampleColumns ? sampleList(samples) : samples;
  const first = new Map<number, number>();
  let any = false;
  for (let k = 0; k < list.length; k++) {
    const id = list.rolloutId(k);
    if (id === null) continue;
    any = true;
    const seen = first.get(id);
    if (seen === undefined) first.set(id, k);
    else if (list.groupKey(seen) !== list.groupKey(k) || list.index(seen) !== list.index(k)) return false;
  }
  return any;
}

/**
 * The rollouts of `members` in order of first appearance, each as its members' positions. The key
 * is miles' (`_normalize_rewards_by_rollout`): `rollout_id`, else `index` (one number space, as
 * Python's dict keys them), else the sample alone.
 */
export function rolloutsOf(members: SampleList): number[][] {
  const byKey = new Map<number, number[]>();
  const out: number[][] = [];
  for (let k = 0; k < members.length; k++) {
    const key = members.rolloutId(k) ?? members.index(k);
    if (key === null) {
      out.push([k]);
      continue;
    }
    const seen = byKey.get(key);
    if (seen !== undefined) seen.push(k);
    else {
      const rollout = [k];
      byKey.set(key, rollout);
      out.push(rollout);
    }
  }
  return out;
}

/** The number of rollouts among `members` (`rolloutsOf`), without building them. */
export function rolloutCount(members: SampleList): number {
  const keys = new Set<number>();
  let alone = 0;
  for (let k = 0; k < members.length; k++) {
    const key = members.rolloutId(k) ?? members.index(k);
    if (key === null) alone++;
    else keys.add(key);
  }
  return keys.size + alone;
}

/** A file's fanned-out groups and the pass@k by rollouts, for the `compact-rollouts` finding. */
export interface CompactSummary {
  /** Groups with a rollout of several samples. */
  fannedOut: number;
  groups: number;
  /** The row of the first sample of a fanned-out rollout (the finding's place), and its siblings' rows. */
  first: number;
  siblings: number[];
  /** `pass@<k>` over the groups of exactly n rollouts, one reward per rollout (its first sample's). */
  byRollouts: Record<string, number>;
  /** Groups of exactly `n` rollouts (those `byRollouts` covers). */
  whole: number;
  /** Rollouts per group: `n_samples_per_prompt` (the setting, else the groups' one common count); null: unknown. */
  n: number | null;
}

/**
 * The compact layout of a file's samples (`store`, in miles' order): null when no rollout fans out.
 * Groups as miles' `group_by` makes them: by `group_index`, in order of first appearance, the
 * samples without one as one group.
 */
export function compactSummary(store: SampleColumns, groupSize: number | null): CompactSummary | null {
  const rowsOf = new Map<number, number[]>();
  for (let i = 0; i < store.length; i++) {
    const g = store.groupId(i);
    const rows = rowsOf.get(g);
    if (rows === undefined) rowsOf.set(g, [i]);
    else rows.push(i);
  }
  let fannedOut = 0;
  let first = -1;
  let siblings: number[] = [];
  const perGroup: { members: SampleList; rollouts: number[][] }[] = [];
  for (const rows of rowsOf.values()) {
    const members = rowList(store, Int32Array.from(rows));
    const rollouts = rolloutsOf(members);
    perGroup.push({ members, rollouts });
    const wide = rollouts.find((r) => r.length > 1);
    if (wide === undefined) continue;
    fannedOut++;
    if (first < 0 || rows[wide[0]] < first) {
      first = rows[wide[0]];
      siblings = wide.slice(1).map((k) => rows[k]);
    }
  }
  if (fannedOut === 0) return null;
  // Without the setting: the groups' one common number of rollouts, as miles' sync loop asserts one n.
  const counts = new Set(perGroup.map((g) => g.rollouts.length));
  const n = groupSize ?? (counts.size === 1 ? [...counts][0] : null);
  let whole = 0;
  const flat: number[] = [];
  for (const { members, rollouts } of perGroup) {
    if (n === null || rollouts.length !== n) continue;
    whole++;
    // `compute_pass_rate` counts `== 1`: a None (or a reward not read) is not 1.
    for (const r of rollouts) flat.push(members.reward(r[0]) ?? 0);
  }
  const pass = n !== null && n > 1 && whole > 0 ? computePassAtK(flat, n) : null;
  return { fannedOut, groups: perGroup.length, first, siblings, n, byRollouts: pass?.kind === 'metrics' ? pass.values : {}, whole };
}

/** The `compact-rollouts` finding's text: what miles main (31f1ca9) does with such groups, and pass@k by rollouts. */
export function compactRolloutsMessage(s: CompactSummary, loggedPassrate: Record<string, number>, versionOwner: string, version: string): string {
  const head =
    `${s.fannedOut} of ${s.groups} group${s.groups === 1 ? '' : 's'} fan${s.fannedOut === 1 ? 's' : ''} a rollout out into several samples that share rollout_id` +
    ` (compact / sub-agent rollouts): ${version} counts each rollout once — such a step is not trimmed by sample count,` +
    ` and GRPO's baseline takes one reward per rollout (_normalize_rewards_by_rollout)`;
  const n = s.n;
  if (n === null || n <= 1) return `${head}.`;
  const logged = Object.keys(loggedPassrate).length;
  const what =
    logged === 0
      ? `so it logs no passrate/pass@k for this step`
      : `so its passrate/pass@k covers only the ${s.groups - s.fannedOut} other group${s.groups - s.fannedOut === 1 ? '' : 's'}`;
  const by = Object.entries(s.byRollouts)
    .map(([k, v]) => `${k} = ${pyFloatRepr(v)}`)
    .join(', ');
  const figure =
    by === ''
      ? `no group holds exactly ${n} rollouts, so there is no pass@k by rollouts either`
      : `by rollouts (one reward each, the ${s.whole} group${s.whole === 1 ? '' : 's'} of ${n} rollouts): ${by}`;
  return (
    `${head}; ${versionOwner} _compute_passrate_from_samples counts samples and leaves out every group of another size than` +
    ` n_samples_per_prompt = ${n}, ${what}. Pass@k ${figure}.`
  );
}
