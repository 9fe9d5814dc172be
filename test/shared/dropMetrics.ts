// Tests that compare group drops compare only the drop metrics of a file: miles-sample files also
// carry the per-sample metrics miles logs (docs/semantics.md#miles-sample-metrics).
import { DROP_METRIC_PREFIX } from '../../server/src/core/vocabulary/causes';

/** The `rollout/dynamic_filter/drop_*` members of a file's metrics. */
export function dropMetrics<V>(m: Record<string, V>): Record<string, V> {
  return Object.fromEntries(Object.entries(m).filter(([k]) => k.startsWith(DROP_METRIC_PREFIX)));
}
