// Samples per prompt of a dataset (docs/semantics.md#eval-grouping) and how its samples are cut into groups.
import type { RolloutLensSettings } from '../settings';
import type { DatasetSummary, FormatId, SampleRecord } from '../types';
import type { EvalConfig, EvalDatasetConfig } from './config';

export interface ResolvedN {
  n: number;
  source: DatasetSummary['nSource'];
  /** The config entry of the dataset, when the config lists it. */
  entry: EvalDatasetConfig | null;
}

/**
 * The dataset's own n: its config entry → `eval.defaults` → the global `--n-samples-per-eval-prompt`
 * → inferred from the log (`inferred`, or `default` = 1 when the log has no prompt identity).
 */
export function resolveGroupSize(name: string, config: EvalConfig | null, settings: RolloutLensSettings, ordered: readonly SampleRecord[]): ResolvedN {
  const entry = config?.datasets.find((d) => d.name === name) ?? null;
  if (entry?.nSamplesPerEvalPrompt != null) return { n: entry.nSamplesPerEvalPrompt, source: 'dataset', entry };
  const defaults = config?.defaults.nSamplesPerEvalPrompt ?? null;
  if (defaults !== null) return { n: defaults, source: 'defaults', entry };
  if (settings.nSamplesPerEvalPrompt !== null) return { n: settings.nSamplesPerEvalPrompt, source: 'global', entry };
  const runs = promptRuns(ordered);
  if (runs === null) return { n: 1, source: 'default', entry };
  return { n: uniformRun(runs) ?? 1, source: 'inferred', entry };
}

/**
 * Samples in the order miles groups them: by `index` when every sample has one (ties: line order).
 * `miles-eval-trials` numbers trials per instance, so there the instance (first appearance) comes
 * first and `trial_idx` orders within it.
 */
export function groupingOrder(format: FormatId, samples: readonly SampleRecord[]): readonly SampleRecord[] {
  if (format !== 'miles-eval-trials' && inIndexOrder(samples)) return samples;
  const out = [...samples];
  if (format === 'miles-eval-trials') {
    const first = new Map<string, number>();
    out.forEach((s, i) => {
      const k = s.groupKey ?? `#${i}`;
      if (!first.has(k)) first.set(k, i);
    });
    const rank = (s: SampleRecord, i: number) => first.get(s.groupKey ?? `#${i}`) ?? i;
    const ranks = new Map(out.map((s, i) => [s, rank(s, i)]));
    return out.sort((a, b) => ranks.get(a)! - ranks.get(b)! || (a.index ?? 0) - (b.index ?? 0) || a.line - b.line);
  }
  if (out.every((s) => s.index !== null)) out.sort((a, b) => a.index! - b.index! || a.line - b.line);
  return out;
}

/**
 * Whether `samples` are in grouping order already: every sample has an index, and (index, line)
 * never decreases. A miles eval dump of one dataset is written so; it is then used as it is, not
 * copied and sorted.
 */
function inIndexOrder(samples: readonly SampleRecord[]): boolean {
  let prevIndex = -Infinity;
  let prevLine = -Infinity;
  for (const s of samples) {
    const i = s.index;
    if (i === null || i < prevIndex) return false;
    const line = s.line;
    if (i === prevIndex && line < prevLine) return false;
    prevIndex = i;
    prevLine = line;
  }
  return true;
}

/** Lengths of runs of identical consecutive prompts; null when some sample has no prompt identity. */
export function promptRuns(ordered: readonly SampleRecord[]): number[] | null {
  if (ordered.length === 0 || ordered.some((s) => s.promptKey === null)) return null;
  const runs: number[] = [];
  let len = 0;
  ordered.forEach((s, i) => {
    if (i > 0 && s.promptKey !== ordered[i - 1].promptKey) {
      runs.push(len);
      len = 0;
    }
    len++;
  });
  runs.push(len);
  return runs;
}

/** The common length when every run has the same length; else null. */
export function uniformRun(runs: readonly number[]): number | null {
  return runs.every((r) => r === runs[0]) ? runs[0] : null;
}

/** First sample (in grouping order) of the first group of `n` that holds more than one prompt. */
export function firstMixedGroup(ordered: readonly SampleRecord[], n: number): SampleRecord | null {
  for (let g = 0; g < ordered.length; g += n) {
    const members = ordered.slice(g, g + n);
    if (members.some((s) => s.promptKey !== members[0].promptKey)) return members[0];
  }
  return null;
}
