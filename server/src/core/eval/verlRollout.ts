// verl training metrics from a rollout dump (`trainer.rollout_data_dir/<step>.jsonl`): verl leaves
// rows with an empty response (`response_length == 0`) out of `critic/score/*` and reports their
// share as `response/aborted_ratio` (docs/semantics.md#denominator-inflation).
import { pyFloatRepr } from '../python';
import type { Finding, Location, SampleRecord } from '../types';
import { makeFinding } from './findings';
import { npMean } from './numeric';

export interface VerlRolloutResult {
  metrics: Record<string, number>;
  /** The mean score over every row, aborted ones included (a null score counts 0). */
  allAttemptsScoreMean: number;
  findings: Finding[];
}

/** The per-row score verl sums into `critic/score`: the dump's `score`, else the reward. */
export function verlScore(s: SampleRecord): number | null {
  const v = s.vars?.score;
  return typeof v === 'number' ? v : s.reward;
}

export function analyzeVerlRollout(file: string, samples: readonly SampleRecord[]): VerlRolloutResult {
  const total = samples.length;
  const kept: number[] = [];
  const aborted: SampleRecord[] = [];
  for (const s of samples) {
    if (s.aborted) aborted.push(s);
    else kept.push(verlScore(s) ?? 0);
  }
  const all = samples.map((s) => verlScore(s) ?? 0);
  const metrics: Record<string, number> = {};
  if (total === 0) return { metrics, allAttemptsScoreMean: NaN, findings: [] };
  // Exact float64 figures; verl's own are float32 (compare at 1e-6, docs/semantics.md#logged-vs-recomputed).
  metrics['critic/score/mean'] = npMean(kept);
  if (kept.length > 0) {
    metrics['critic/score/max'] = kept.reduce((a, b) => (b > a || Number.isNaN(b) ? b : a));
    metrics['critic/score/min'] = kept.reduce((a, b) => (b < a || Number.isNaN(b) ? b : a));
  }
  metrics['response/aborted_ratio'] = aborted.length / total;
  const allAttemptsScoreMean = npMean(all);
  const findings: Finding[] = [];
  const reported = metrics['critic/score/mean'];
  if (aborted.length > 0 && !(reported === allAttemptsScoreMean)) {
    const related = aborted.slice(1, 21).map((s): Location => ({ file, line: s.line }));
    findings.push(
      makeFinding(
        'denominator-inflation',
        { file, line: aborted[0].line, dataset: null, related },
        rolloutInflationMessage(reported, aborted.length, total, allAttemptsScoreMean),
      ),
    );
  }
  return { metrics, allAttemptsScoreMean, findings };
}

export function rolloutInflationMessage(reported: number, aborted: number, total: number, allAttempts: number): string {
  const ratio = pyFloatRepr(aborted / total);
  if (aborted === total) {
    return `critic/score/mean has no row to average: all ${total} rows have empty output (response/aborted_ratio = ${ratio}; verl raises ValueError: All samples are aborted, this should not happen.); over all ${total} attempts the mean score is ${pyFloatRepr(allAttempts)}`;
  }
  return `critic/score/mean = ${pyFloatRepr(reported)} leaves out ${aborted} of ${total} rows with empty output (response/aborted_ratio = ${ratio}); over all ${total} attempts the mean score is ${pyFloatRepr(allAttempts)}`;
}
