// The per-sample metrics miles logs for a rollout (`rollout/…`) and for each eval dataset
// (`eval/<ds>/…`), recomputed from the samples (docs/semantics.md#miles-sample-metrics): miles'
// `_compute_metrics_from_samples` in miles/ray/rollout/metrics.py, with Python's and numpy's
// semantics for equality, rounding, means and medians. slime's `compute_metrics_from_samples`
// (slime/observability/rollout_metrics.py) logs a subset: which names is the framework's rule
// (core/vocabulary/frameworks.ts).
import { pyRoundRepr } from '../vocabulary/python';
import { SampleStore } from '../store/sampleStore';
import { emptyMilesRow } from '../store/fieldRows';
import { SampleColumns } from '../store/sampleColumns';
import type { KeyedReward, SampleRecord } from '../vocabulary/types';
import { MILES_RULES, type SampleFrameworkRules } from '../vocabulary/frameworks';
import { ExactSum, MAX_COUNTED_RANGE, statistics, statisticsOfCounts } from './statistics';

/**
 * A group miles main's zero-std count would crash on: its first sample's row (in the samples as
 * given, or the store's), and whether any member is aborted. No record is kept: a log whose rewards
 * are all null has one such group per group.
 */
export interface CrashGroup {
  key: string | null;
  row: number;
  aborted: boolean;
  /** What `round(first_reward, 1)` raises: `ROUND_NONE_ERROR`, or the same for a dict (a reward object under no key). */
  error: string;
}

export interface MilesSampleMetrics {
  metrics: Record<string, number>;
  /**
   * Groups miles main's zero-std count would crash on (`round(None)`): every reward is equal and
   * the first is None. Their zero-std counts follow the fixed behaviour (never zero-std).
   */
  crashGroups: CrashGroup[];
  /** `repetition_frac` was not recomputed: a response is not text. */
  repetitionUnknown: boolean;
  /**
   * Samples whose `has_repetition` raises in miles (a lone surrogate in the tail it encodes): the
   * first, its exception, and how many there are. miles then logs no metric of the step.
   */
  repetitionCrash: { first: SampleRecord; error: string; count: number } | null;
}

const ROUND_NONE_ERROR = "TypeError: type NoneType doesn't define __round__ method";

/** `s.oldest_weight_version`: the least of the versions that are digit strings (or ints), else null. */
function oldestVersion(versions: readonly (string | number)[]): number | null {
  let min: number | null = null;
  for (const v of versions) {
    // Python's str(v).isdigit(): a non-negative int, or a string of digits (ASCII here).
    const text = typeof v === 'number' ? (Number.isInteger(v) && v >= 0 ? String(v) : '') : v;
    if (!/^[0-9]+$/.test(text)) continue;
    const n = Number(text);
    if (min === null || n < min) min = n;
  }
  return min;
}

/** `len(set(versions)) > 1`: Python keeps the string "3" and the int 3 apart. */
function mixedVersions(versions: readonly (string | number)[]): boolean {
  return new Set(versions.map((v) => (typeof v === 'number' ? `n${v}` : `s${v}`))).size > 1;
}

/**
 * What miles logs from the samples of one rollout or eval dataset, names without their prefix
 * (`response_len/mean`, `zero_std/count_1.0`, …). Samples in miles' order (eval: by index): the
 * engine's columnar store of a file, read column by column (no record is built but those of a
 * crash group), or records (put in a store of their own first).
 */
export function milesSampleMetrics(samples: Iterable<SampleRecord> | SampleColumns, rules: SampleFrameworkRules = MILES_RULES): MilesSampleMetrics {
  const store = samples instanceof SampleColumns ? samples : SampleStore.of(samples);
  const out: Record<string, number> = {};
  const result: MilesSampleMetrics = { metrics: out, crashGroups: [], repetitionUnknown: false, repetitionCrash: null };
  const n = store.length;
  if (n === 0) return result;
  // Lengths are summed as they come; laid out only when that sum is not numpy's mean.
  const lengths = new ExactSum();
  let lengthsKnown = true;
  let truncated = 0;
  let versionsKnown = true;
  /** By `weight_versions` list id: how many rows have it. */
  const rowsOfList: number[] = [];
  let cached = 0;
  let prompt = 0;
  let repetitive = 0;
  let unknown = false;
  const row = emptyMilesRow();
  for (let i = 0; i < n; i++) {
    if (!store.milesAt(i, row)) return { metrics: {}, crashGroups: [], repetitionUnknown: false, repetitionCrash: null };
    if (row.effectiveLength === null) lengthsKnown = false;
    else if (lengthsKnown) lengths.add(row.effectiveLength);
    if (store.statusAt(i) === 'truncated') truncated++;
    cached += row.cachedTokens;
    prompt += row.totalPromptTokens;
    const r = row.repetition;
    if (r === true) repetitive++;
    else if (r === null) unknown = true;
    else if (typeof r === 'string') {
      if (result.repetitionCrash === null) result.repetitionCrash = { first: store.at(i), error: r, count: 0 };
      result.repetitionCrash.count++;
    }
    const list = row.weightVersions;
    if (list < 0) versionsKnown = false;
    else if (versionsKnown) rowsOfList[list] = (rowsOfList[list] ?? 0) + 1;
  }

  if (lengthsKnown) lengthMetrics(store, lengths, out);

  if (store.hasZeroStdRewards) keyedZeroStd(store, out, result.crashGroups, rules.zeroStdPercentages);
  else zeroStd(store, out, result.crashGroups, rules.zeroStdPercentages);

  out['prefix_cache_hit_rate'] = prompt > 0 ? cached / prompt : 0;
  out['avg_cached_tokens_per_sample'] = cached / n;

  // np.mean of the 0/1 verdicts: the count over n, exactly.
  if (unknown) result.repetitionUnknown = true;
  else if (result.repetitionCrash === null) out['repetition_frac'] = repetitive / n;
  // np.mean of 0s and 1s: their pairwise sum is the exact count.
  out['truncated_ratio'] = truncated / n;

  if (versionsKnown && rules.weightVersionMetrics) versionMetrics(store, rowsOfList, out);
  return result;
}

/** `response_len/…` of every row's effective length (`seen`: all of them summed), from their counts where exact. */
function lengthMetrics(store: SampleColumns, seen: ExactSum, out: Record<string, number>): void {
  const n = store.length;
  const row = emptyMilesRow();
  const { min, max } = seen;
  if (seen.exact && max - min <= MAX_COUNTED_RANGE) {
    const counts = new Int32Array(max - min + 1);
    for (let i = 0; i < n; i++) {
      store.milesAt(i, row);
      counts[(row.effectiveLength as number) - min]++;
    }
    statisticsOfCounts(
      seen,
      counts.length,
      (k) => k + min,
      (k) => counts[k],
      'response_len/',
      out,
    );
    return;
  }
  // Token counts: int32 (half the memory of doubles) where they all are.
  const int32 = seen.integral && min >= -(2 ** 31) && max < 2 ** 31;
  const lengths = int32 ? new Int32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    store.milesAt(i, row);
    lengths[i] = row.effectiveLength as number;
  }
  statistics(lengths, 'response_len/', out);
}

/**
 * `weight_version/…`: every row has a `weight_versions` list (`rowsOf`: how many rows have each, by
 * list id); each distinct list is read once.
 */
function versionMetrics(store: SampleColumns, rowsOf: readonly number[], out: Record<string, number>): void {
  const n = store.length;
  const row = emptyMilesRow();
  /** By list id: its oldest version (NaN: none). */
  const oldestOf: number[] = [];
  const seen = new ExactSum();
  const byValue = new Map<number, number>();
  let mixed = 0;
  for (let id = 0; id < rowsOf.length; id++) {
    const rows = rowsOf[id];
    if (rows === undefined) continue;
    const list = store.weightVersionList(id);
    const v = oldestVersion(list) ?? NaN;
    oldestOf[id] = v;
    if (mixedVersions(list)) mixed += rows;
    if (Number.isNaN(v)) continue;
    seen.add(v, rows);
    byValue.set(v, (byValue.get(v) ?? 0) + rows);
  }
  if (seen.count === 0) return;
  if (seen.exact) {
    const values = [...byValue.keys()].sort((a, b) => a - b);
    statisticsOfCounts(
      seen,
      values.length,
      (k) => values[k],
      (k) => byValue.get(values[k]) as number,
      'weight_version/',
      out,
    );
  } else {
    // Not exact as a sum of counts: the versions in row order, as numpy adds them.
    const oldest = new Float64Array(seen.count);
    let count = 0;
    for (let i = 0; i < n; i++) {
      store.milesAt(i, row);
      const v = oldestOf[row.weightVersions];
      if (!Number.isNaN(v)) oldest[count++] = v;
    }
    statistics(oldest, 'weight_version/', out);
  }
  out['weight_version/mixed_version_ratio'] = mixed / n;
}

/** Float rewards whose zero-std keys `zeroStd` remembers. */
const MAX_FLOAT_KEYS = 4096;

/**
 * `_compute_zero_std_metrics`: groups by `group_index` (samples without one form one group, as
 * eval samples do); a group is zero-std when every reward equals the first (Python `==`: NaN equals
 * nothing, None equals None). Counted by `str(round(first_reward, 1))`; the percentages read the
 * keys "0.0" and "1.0" only, so an int reward 1 (key "1") is not in all_one_percentage. Per group
 * (the store's group ids, first appearance order; the samples without a key at their first
 * appearance): its first row and whether every reward so far equals that row's.
 */
function zeroStd(store: SampleColumns, out: Record<string, number>, crash: MilesSampleMetrics['crashGroups'], percentages: boolean): void {
  const n = store.length;
  const groups = store.groupKeys.size;
  // Index `groups` is the keyless samples' group.
  const first = new Int32Array(groups + 1).fill(-1);
  const unequal = new Uint8Array(groups + 1);
  for (let i = 0; i < n; i++) {
    const id = store.groupId(i);
    const g = id < 0 ? groups : id;
    const f = first[g];
    if (f < 0) {
      first[g] = i;
      if (!store.sameReward(i, i)) unequal[g] = 1;
    } else if (unequal[g] === 0 && !store.sameReward(i, f)) unequal[g] = 1;
  }
  // Groups by first appearance (a store's ids mostly are; its tables may hold keys of no row).
  let present = 0;
  for (let g = 0; g <= groups; g++) if (first[g] >= 0) present++;
  let order = new Int32Array(present);
  for (let g = 0, k = 0; g <= groups; g++) if (first[g] >= 0) order[k++] = g;
  for (let k = 1; k < present; k++) {
    if (first[order[k]] < first[order[k - 1]]) {
      order = Int32Array.from([...order].sort((a, b) => first[a] - first[b]));
      break;
    }
  }
  const counts = new Map<string, number>();
  let crashed: number[] | null = null;
  // The float rewards' keys by value (-0.0 apart: a Map takes it for 0.0): a file's rewards take
  // few values, and each key costs an exact decimal rounding.
  const floatKeys = new Map<number | string, string>();
  for (let k = 0; k < present; k++) {
    const g = order[k];
    if (unequal[g] !== 0) continue;
    const f = first[g];
    const r = store.rewardAt(f);
    if (r === null) (crashed ??= []).push(g);
    else {
      let key: string;
      if (store.rewardIsIntAt(f)) key = pyRoundRepr(r, true, 1);
      else {
        const at = Object.is(r, -0) ? '-0' : r;
        const known = floatKeys.get(at);
        if (known !== undefined) key = known;
        else {
          key = pyRoundRepr(r, false, 1);
          if (floatKeys.size < MAX_FLOAT_KEYS) floatKeys.set(at, key);
        }
      }
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  if (crashed !== null) {
    // By group: its entry in `crash`, or -1; then one pass over the rows for aborted members.
    const entry = new Int32Array(groups + 1).fill(-1);
    for (const g of crashed) {
      entry[g] = crash.length;
      crash.push({ key: g === groups ? null : store.groupKeys.value(g), row: first[g], aborted: false, error: ROUND_NONE_ERROR });
    }
    for (let i = 0; i < n; i++) {
      const id = store.groupId(i);
      const k = entry[id < 0 ? groups : id];
      if (k >= 0 && store.abortedAt(i)) crash[k].aborted = true;
    }
  }
  for (const [r, c] of counts) out[`zero_std/count_${r}`] = c;
  if (!percentages) return;
  const total = present;
  out['zero_std/all_zero_percentage'] = (counts.get('0.0') ?? 0) / total;
  out['zero_std/all_one_percentage'] = (counts.get('1.0') ?? 0) / total;
}

/** has_repetition raises on a response: the log would crash its metric code. */
export function repetitionCrashMessage(
  metric: string,
  crash: NonNullable<MilesSampleMetrics['repetitionCrash']>,
  rules: SampleFrameworkRules = MILES_RULES,
): string {
  const n = crash.count;
  return `${n} response${n === 1 ? '' : 's'} with a lone surrogate in ${n === 1 ? 'its' : 'their'} last 10 000 characters: ${rules.owner} ${metric} code (has_repetition) raises ${crash.error}${n === 1 ? '' : ' on the first'}, so no metric of this log is logged`;
}

/**
 * miles main's zero-std count rounds the first reward of a group whose rewards are all equal: None
 * (or, read under no reward key, a reward object) raises, so the log would crash its metric code (miles main, slime).
 */
export function crashMessage(metric: string, crash: readonly CrashGroup[], rules: SampleFrameworkRules = MILES_RULES): string {
  const groups = crash.length;
  const error = crash[0].error;
  const what = error === ROUND_NONE_ERROR ? 'every reward null' : 'every reward the same reward object (no reward key set)';
  return `${groups} group${groups === 1 ? '' : 's'} with ${what}: ${rules.versionOwner} ${metric} code raises ${error} on ${groups === 1 ? 'it' : 'them'}, so no metric of this log is logged; the tool's figures count such a group as never zero-std`;
}

/**
 * `_compute_zero_std_metrics` over `get_reward_value` (`rewardKey`) where an eval file's rewards
 * were read with their own key (`SampleColumns.zeroStdRewardAt`): the rows in order, a group per
 * group key (the keyless rows one group), Python's `==` between rewards (a dict equals a dict of
 * equal items, never a number), `round` refusing None and dicts.
 */
function keyedZeroStd(store: SampleColumns, out: Record<string, number>, crash: MilesSampleMetrics['crashGroups'], percentages: boolean): void {
  const n = store.length;
  const groups = store.groupKeys.size;
  const first = new Int32Array(groups + 1).fill(-1);
  const firstReward: KeyedReward[] = [];
  const unequal = new Uint8Array(groups + 1);
  const order: number[] = [];
  for (let i = 0; i < n; i++) {
    const id = store.groupId(i);
    const g = id < 0 ? groups : id;
    const r = store.zeroStdRewardAt(i);
    if (first[g] < 0) {
      first[g] = i;
      firstReward[g] = r;
      order.push(g);
    }
    if (unequal[g] === 0 && !pyEqual(firstReward[g], r)) unequal[g] = 1;
  }
  const counts = new Map<string, number>();
  for (const g of order) {
    if (unequal[g] !== 0) continue;
    const r = firstReward[g];
    if (r.pyType !== null || r.reward === null) {
      const error = r.pyType !== null ? `TypeError: type ${r.pyType} doesn't define __round__ method` : ROUND_NONE_ERROR;
      let aborted = false;
      for (let i = 0; i < n && !aborted; i++) if ((store.groupId(i) < 0 ? groups : store.groupId(i)) === g) aborted = store.abortedAt(i);
      crash.push({ key: g === groups ? null : store.groupKeys.value(g), row: first[g], aborted, error });
      continue;
    }
    const key = pyRoundRepr(r.reward, r.rewardIsInt, 1);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const [r, c] of counts) out[`zero_std/count_${r}`] = c;
  if (!percentages) return;
  out['zero_std/all_zero_percentage'] = (counts.get('0.0') ?? 0) / order.length;
  out['zero_std/all_one_percentage'] = (counts.get('1.0') ?? 0) / order.length;
}

/**
 * Python's `a == b` for two rewards: None equals None, numbers by value (NaN equals nothing, itself
 * neither), other values by their equality text, or as one object (a dict holding a NaN equals
 * itself: its items are compared by identity first) but for that none when they hold a NaN.
 */
function pyEqual(a: KeyedReward, b: KeyedReward): boolean {
  if (a.pyType !== null || b.pyType !== null) return a === b || (a.pyType !== null && b.pyType !== null && a.text !== null && a.text === b.text);
  if (a.reward === null || b.reward === null) return a.reward === b.reward;
  return a.reward === b.reward;
}
