// The per-sample metrics miles logs for a rollout (`rollout/…`) and for each eval dataset
// (`eval/<ds>/…`), recomputed from the samples (docs/semantics.md#miles-sample-metrics): miles'
// `_compute_metrics_from_samples` in miles/ray/rollout/metrics.py, with Python's and numpy's
// semantics for equality, rounding, means and medians.
import { pyRoundRepr } from '../python';
import type { SampleRecord } from '../types';
import { npMean } from './numeric';

export interface MilesSampleMetrics {
  metrics: Record<string, number>;
  /**
   * Groups miles main's zero-std count would crash on (`round(None)`): every reward is equal and
   * the first is None. Their zero-std counts follow the fixed behaviour (never zero-std).
   */
  crashGroups: { key: string | null; first: SampleRecord; members: SampleRecord[] }[];
  /** `repetition_frac` was not recomputed: a response is not text. */
  repetitionUnknown: boolean;
  /**
   * Samples whose `has_repetition` raises in miles (a lone surrogate in the tail it encodes): the
   * first, its exception, and how many there are. miles then logs no metric of the step.
   */
  repetitionCrash: { first: SampleRecord; error: string; count: number } | null;
}

export const ROUND_NONE_ERROR = "TypeError: type NoneType doesn't define __round__ method";

/** `compute_statistics`: np.mean, np.median, np.max, np.min of the values. */
function statistics(values: readonly number[], prefix: string, out: Record<string, number>): void {
  if (values.length === 0) return;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  out[`${prefix}mean`] = npMean(values);
  out[`${prefix}median`] = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  out[`${prefix}max`] = sorted[sorted.length - 1];
  out[`${prefix}min`] = sorted[0];
}

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
 * A file's samples in order: an array, or the engine's columnar store. Walked one row at a time,
 * so a file of a million samples is never turned into a million records at once.
 */
export interface SampleRows {
  readonly length: number;
  at(i: number): SampleRecord | undefined;
}

/**
 * What miles logs from the samples of one rollout or eval dataset, names without their prefix
 * (`response_len/mean`, `zero_std/count_1.0`, …). Samples in miles' order (eval: by index).
 */
export function milesSampleMetrics(samples: SampleRows): MilesSampleMetrics {
  const out: Record<string, number> = {};
  const result: MilesSampleMetrics = { metrics: out, crashGroups: [], repetitionUnknown: false, repetitionCrash: null };
  const n = samples.length;
  if (n === 0) return result;
  const lengths: (number | null)[] = [];
  const truncated: number[] = [];
  let versions: (string | number)[][] | null = [];
  let cached = 0;
  let prompt = 0;
  let repetitive = 0;
  let unknown = false;
  for (let i = 0; i < n; i++) {
    const s = samples.at(i)!;
    const x = s.miles;
    if (x === undefined) return { metrics: {}, crashGroups: [], repetitionUnknown: false, repetitionCrash: null };
    lengths.push(x.effectiveLength);
    truncated.push(s.status === 'truncated' ? 1 : 0);
    cached += x.cachedTokens;
    prompt += x.totalPromptTokens;
    if (x.repetition === true) repetitive++;
    else if (x.repetition === null) unknown = true;
    else if (typeof x.repetition === 'string') {
      if (result.repetitionCrash === null) result.repetitionCrash = { first: s, error: x.repetition, count: 0 };
      result.repetitionCrash.count++;
    }
    if (versions !== null) {
      if (x.weightVersions === null) versions = null;
      else versions.push(x.weightVersions);
    }
  }

  if (lengths.every((x) => x !== null)) statistics(lengths as number[], 'response_len/', out);

  zeroStd(samples, out, result.crashGroups);

  out['prefix_cache_hit_rate'] = prompt > 0 ? cached / prompt : 0;
  out['avg_cached_tokens_per_sample'] = cached / n;

  // np.mean of the 0/1 verdicts: the count over n, exactly.
  if (unknown) result.repetitionUnknown = true;
  else if (result.repetitionCrash === null) out['repetition_frac'] = repetitive / n;
  out['truncated_ratio'] = npMean(truncated);

  if (versions !== null) {
    const oldest = versions.map(oldestVersion).filter((v): v is number => v !== null);
    if (oldest.length > 0) {
      statistics(oldest, 'weight_version/', out);
      out['weight_version/mixed_version_ratio'] = versions.filter(mixedVersions).length / n;
    }
  }
  return result;
}

interface ZeroStdGroup {
  first: SampleRecord;
  allEqual: boolean;
  /** Rows of a group whose rewards are all null so far (a crash group needs its members). */
  nullRows: number[] | null;
}

/**
 * `_compute_zero_std_metrics`: groups by `group_index` (samples without one form one group, as
 * eval samples do); a group is zero-std when every reward equals the first (Python `==`: NaN equals
 * nothing, None equals None). Counted by `str(round(first_reward, 1))`; the percentages read the
 * keys "0.0" and "1.0" only, so an int reward 1 (key "1") is not in all_one_percentage.
 */
function zeroStd(samples: SampleRows, out: Record<string, number>, crash: MilesSampleMetrics['crashGroups']): void {
  const groups = new Map<string | null, ZeroStdGroup>();
  for (let i = 0; i < samples.length; i++) {
    const s = samples.at(i)!;
    const g = groups.get(s.groupKey);
    if (!g) {
      const first = s.reward;
      groups.set(s.groupKey, { first: s, allEqual: !(typeof first === 'number' && Number.isNaN(first)), nullRows: first === null ? [i] : null });
      continue;
    }
    if (!g.allEqual) continue;
    if (s.reward !== g.first.reward) {
      g.allEqual = false;
      g.nullRows = null;
    } else if (g.nullRows !== null) g.nullRows.push(i);
  }
  const counts = new Map<string, number>();
  for (const [key, g] of groups) {
    if (!g.allEqual) continue;
    if (g.first.reward === null) {
      const members = g.nullRows!.map((i) => samples.at(i)!);
      crash.push({ key, first: members[0], members });
      continue;
    }
    const r = pyRoundRepr(g.first.reward, g.first.rewardIsInt, 1);
    counts.set(r, (counts.get(r) ?? 0) + 1);
  }
  for (const [r, c] of counts) out[`zero_std/count_${r}`] = c;
  out['zero_std/all_zero_percentage'] = (counts.get('0.0') ?? 0) / groups.size;
  out['zero_std/all_one_percentage'] = (counts.get('1.0') ?? 0) / groups.size;
}

/** miles' has_repetition raises on a response: the log would crash its metric code. */
export function repetitionCrashMessage(metric: string, crash: NonNullable<MilesSampleMetrics['repetitionCrash']>): string {
  const n = crash.count;
  return `${n} response${n === 1 ? '' : 's'} with a lone surrogate in ${n === 1 ? 'its' : 'their'} last 10 000 characters: miles' ${metric} code (has_repetition) raises ${crash.error}${n === 1 ? '' : ' on the first'}, so no metric of this log is logged`;
}

/** miles main's zero-std count rounds a None reward: the log would crash its metric code. */
export function crashMessage(metric: string, groups: number): string {
  return `${groups} group${groups === 1 ? '' : 's'} with every reward null: miles main's ${metric} code raises ${ROUND_NONE_ERROR} on ${groups === 1 ? 'it' : 'them'}, so no metric of this log is logged; fixed behaviour: a group holding a null reward is never zero-std`;
}
