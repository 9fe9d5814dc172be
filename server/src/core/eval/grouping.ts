// Samples per prompt of a dataset (docs/semantics.md#eval-grouping) and how its samples are cut into groups.
import type { RolloutLensSettings } from '../vocabulary/settings';
import type { DatasetSummary, FormatId } from '../vocabulary/types';
import type { EvalConfig, EvalDatasetConfig } from './config';
import type { SampleList } from '../store/sampleList';

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
export function resolveGroupSize(name: string, config: EvalConfig | null, settings: RolloutLensSettings, ordered: SampleList): ResolvedN {
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
 * first and `trial_idx` orders within it. A list already in that order is returned as it is.
 */
export function groupingOrder(format: FormatId, samples: SampleList): SampleList {
  const n = samples.length;
  if (format === 'miles-eval-trials') {
    // Rank: the position where the sample's instance first appears (a sample without one: its own).
    const first = new Map<string, number>();
    const rank = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      const key = samples.groupKey(k);
      if (key === null) rank[k] = k;
      else {
        let at = first.get(key);
        if (at === undefined) first.set(key, (at = k));
        rank[k] = at;
      }
    }
    return sortedBy(samples, (a, b) => rank[a] - rank[b] || (samples.index(a) ?? 0) - (samples.index(b) ?? 0) || samples.line(a) - samples.line(b));
  }
  let sorted = true;
  let prevIndex = -Infinity;
  let prevLine = -Infinity;
  for (let k = 0; k < n; k++) {
    const index = samples.index(k);
    if (index === null) return samples;
    const line = samples.line(k);
    if (index < prevIndex || (index === prevIndex && line < prevLine)) sorted = false;
    prevIndex = index;
    prevLine = line;
  }
  if (sorted) return samples;
  return sortedBy(samples, (a, b) => (samples.index(a) as number) - (samples.index(b) as number) || samples.line(a) - samples.line(b));
}

/** The list in the order of a stable sort of its positions by `before`. */
function sortedBy(samples: SampleList, before: (a: number, b: number) => number): SampleList {
  const positions = Array.from({ length: samples.length }, (_, k) => k).sort(before);
  return samples.pick(Int32Array.from(positions));
}

/** Lengths of runs of identical consecutive prompts; null when some sample has no prompt identity. */
export function promptRuns(ordered: SampleList): number[] | null {
  const n = ordered.length;
  if (n === 0) return null;
  const runs: number[] = [];
  let len = 0;
  let prev: string | null = null;
  for (let k = 0; k < n; k++) {
    const prompt = ordered.promptKey(k);
    if (prompt === null) return null;
    if (k > 0 && prompt !== prev) {
      runs.push(len);
      len = 0;
    }
    len++;
    prev = prompt;
  }
  runs.push(len);
  return runs;
}

/** The common length when every run has the same length; else null. */
export function uniformRun(runs: readonly number[]): number | null {
  return runs.every((r) => r === runs[0]) ? runs[0] : null;
}

/** Line of the first sample (in grouping order) of the first group of `n` that holds more than one prompt; null if none. */
export function firstMixedGroup(ordered: SampleList, n: number): number | null {
  for (let g = 0; g < ordered.length; g += n) {
    const first = ordered.promptKey(g);
    for (let k = g + 1; k < Math.min(g + n, ordered.length); k++) if (ordered.promptKey(k) !== first) return ordered.line(g);
  }
  return null;
}
