// One analysed file as every surface shows it (its overview): its step, groups, drops by cause (each reason with
// the metric it counts in), eval datasets and metrics. The engine derives it once from a file's
// report; the run model folds it into steps (model.ts), `check`'s text tables, the language
// server's Groups view and the run view render it.
import { DROP_METRIC_PREFIX, dropMetricName } from '../vocabulary/causes';
import { passKValues } from '../eval/passAtK';
import type { DatasetSummary, FileDetail, FileKind, FileReport, FormatId, GroupCounts } from '../vocabulary/types';

/** The reason under which drops no metric names are counted. */
export const UNNAMED_DROPS = 'unknown';

/** Groups dropped for one reason. */
export interface DropRow {
  /** `group_has_aborted_<cause>`, `zero_std_<r>`, or UNNAMED_DROPS. */
  reason: string;
  /** The metric the framework counts it in; null for UNNAMED_DROPS (no metric names those). */
  metric: string | null;
  groups: number;
}

export interface FileOverview {
  path: string;
  kind: FileKind;
  format: FormatId;
  /** The records' step, else the last number in the file's name (`FileReport.step`); null when neither says. */
  step: number | null;
  groups: GroupCounts;
  /** In the order the drop metrics come, UNNAMED_DROPS last. */
  drops: DropRow[];
  /** An eval file's datasets: the analysis's, else read back from the metric names (a report without detail). */
  datasets: DatasetSummary[];
  /** Recomputed metrics, exactly as the framework names them. */
  metrics: Record<string, number>;
}

/**
 * Dropped groups by reason, from a rollout file's drop metrics (miles counts each dropped group
 * once, in `rollout/dynamic_filter/drop_<reason>`). Drops no metric names are counted as
 * UNNAMED_DROPS. The one derivation every surface reads (through `fileOverview` or the run model).
 */
export function droppedByCause(report: Pick<FileReport, 'metrics' | 'groups'>): Record<string, number> {
  const out: Record<string, number> = {};
  let counted = 0;
  for (const [metric, value] of Object.entries(report.metrics)) {
    if (!metric.startsWith(DROP_METRIC_PREFIX) || !(value > 0)) continue;
    const reason = metric.slice(DROP_METRIC_PREFIX.length);
    out[reason] = (out[reason] ?? 0) + value;
    counted += value;
  }
  if (report.groups.dropped > counted) out[UNNAMED_DROPS] = (out[UNNAMED_DROPS] ?? 0) + report.groups.dropped - counted;
  return out;
}

/** The k of each `eval/<name>-pass@k` among `metrics`, in metric order. */
export function passKsOf(metrics: Record<string, number>, name: string): number[] {
  const prefix = `eval/${name}-pass@`;
  return Object.keys(metrics)
    .filter((k) => k.startsWith(prefix))
    .map((k) => Number(k.slice(prefix.length)));
}

/**
 * The pass@k a dataset's metrics hold that miles, grouping over the global n (`groupSize`), would not
 * log (it logs k = 1, 2, 4, … ≤ n): what the wrong grouping leaves out.
 */
export function passKsNotLogged(d: Pick<DatasetSummary, 'metrics' | 'name'>, groupSize: number): number[] {
  const logged = new Set(passKValues(groupSize));
  return passKsOf(d.metrics, d.name).filter((k) => !logged.has(k));
}

/** Without detail (e.g. a JSON round trip), datasets are read back from the metric names; samples −1: unknown. */
function datasetsFromMetrics(metrics: Record<string, number>): DatasetSummary[] {
  const names = Object.keys(metrics)
    .filter((k) => k.startsWith('eval/') && metrics[`${k}-none_reward_ratio`] !== undefined)
    .map((k) => k.slice('eval/'.length));
  return names.map((name) => {
    const own = Object.fromEntries(Object.entries(metrics).filter(([k]) => k === `eval/${name}` || k.startsWith(`eval/${name}-`)));
    const ks = passKsOf(own, name);
    const summary: DatasetSummary = { name, samples: -1, n: ks.length ? Math.max(...ks) : 1, nSource: 'default', metrics: own };
    return summary;
  });
}

/** What an overview reads of a report (the run view keeps only these of a file). */
export type SummarizedReport = Pick<FileReport, 'path' | 'kind' | 'format' | 'step' | 'groups' | 'metrics'> & { detail?: Pick<FileDetail, 'datasets'> };

/** What every surface shows of one file (see above). */
export function fileOverview(report: SummarizedReport): FileOverview {
  return {
    path: report.path,
    kind: report.kind,
    format: report.format,
    step: report.step ?? null,
    groups: report.groups,
    drops: Object.entries(droppedByCause(report)).map(([reason, groups]) => ({
      reason,
      metric: reason === UNNAMED_DROPS ? null : dropMetricName(reason),
      groups,
    })),
    datasets: report.detail?.datasets ?? datasetsFromMetrics(report.metrics),
    metrics: report.metrics,
  };
}
