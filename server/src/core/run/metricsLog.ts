// A metrics log (miles' dashboard `metrics.jsonl`) against what the other files of its run
// recomputed (docs/semantics.md#logged-vs-recomputed): the one comparison `check` (core/engine.ts),
// the editor's open metrics logs, run view, run status and comparisons all make.
import { compareMetrics, type RecomputedMetrics } from '../eval/compareMetrics';
import type { Finding, MetricsRecord } from '../vocabulary/types';

export type { RecomputedMetrics } from '../eval/compareMetrics';

/** The findings of a metrics log at `path` (as shown): each logged figure that differs from what its step's files recomputed. */
export function metricsLogFindings(path: string, records: readonly MetricsRecord[], recomputed: readonly RecomputedMetrics[]): Finding[] {
  return compareMetrics(path, records, recomputed);
}
