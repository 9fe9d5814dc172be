// The run view's rows that are not steps: findings with severity and message (the first ones,
// errors first, so a folder's thousands of findings are not all held), and a metrics log's values
// beside what the engine recomputed for the same metric and step (docs/semantics.md#logged-vs-recomputed).
import type { FindingRow, LoggedRow } from '../../../../shared/runViewModel';
import type { Finding, MetricsRecord, Severity } from '../vocabulary/types';

/** Findings listed with their messages; the rest are only counted. */
export const MAX_FINDING_ROWS = 200;

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

export type FindingLike = Pick<Finding, 'code' | 'severity' | 'message' | 'file' | 'line'>;

/** Counts every finding by code; keeps the first `MAX_FINDING_ROWS` of each severity, so the most severe are listed. */
export class FindingRows {
  readonly counts: Record<string, number> = {};
  private readonly bySeverity: FindingRow[][] = [[], [], [], []];
  private total = 0;

  constructor(private readonly sourceOf: (file: string) => string = (file) => file) {}

  add(f: FindingLike): void {
    this.counts[f.code] = (this.counts[f.code] ?? 0) + 1;
    this.total++;
    const list = this.bySeverity[SEVERITY_ORDER[f.severity] ?? 3];
    if (list.length < MAX_FINDING_ROWS) {
      list.push({ code: f.code, severity: f.severity, message: f.message, file: f.file, source: this.sourceOf(f.file), line: f.line });
    }
  }

  /** Adds what another list counted and kept (one file's, kept from before), as if its findings came now. */
  merge(from: FindingRows): void {
    for (const [code, n] of Object.entries(from.counts)) this.counts[code] = (this.counts[code] ?? 0) + n;
    this.total += from.total;
    from.bySeverity.forEach((rows, i) => {
      const list = this.bySeverity[i];
      for (const row of rows) if (list.length < MAX_FINDING_ROWS) list.push(row);
    });
  }

  /** Errors first, then warnings, information, hints; within one, by file then line. */
  finish(): { rows: FindingRow[]; omitted: number } {
    const rows = this.bySeverity
      .flatMap((list) => list.slice().sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line)))
      .slice(0, MAX_FINDING_ROWS);
    return { rows, omitted: this.total - rows.length };
  }
}

/** What each run recomputed at each step (rollout and eval metrics together, as `compareMetrics` pairs them). */
export class RecomputedByStep {
  private readonly byRun = new Map<number, Map<number, Record<string, number>>>();

  add(run: number, step: number | null, metrics: Record<string, number>): void {
    if (step === null) return;
    let steps = this.byRun.get(run);
    if (!steps) this.byRun.set(run, (steps = new Map()));
    const into = steps.get(step) ?? {};
    steps.set(step, into);
    for (const [name, value] of Object.entries(metrics)) if (!(name in into)) into[name] = value;
  }

  /**
   * The logged values of metrics some run recomputed at the same step, with that value: the
   * first run (in run order) that has it. Logged metrics no run recomputed are left out (a
   * dashboard logs hundreds the logs cannot give).
   */
  pair(records: readonly Pick<MetricsRecord, 'step' | 'metrics'>[]): LoggedRow[] {
    const out: LoggedRow[] = [];
    const runs = [...this.byRun.keys()].sort((a, b) => a - b);
    for (const record of records) {
      if (record.step === null) continue;
      for (const [metric, logged] of Object.entries(record.metrics)) {
        for (const run of runs) {
          const recomputed = this.byRun.get(run)?.get(record.step)?.[metric];
          if (recomputed === undefined || !Number.isFinite(recomputed) || !Number.isFinite(logged)) continue;
          out.push({ run, metric, step: record.step, logged, recomputed });
          break;
        }
      }
    }
    return out.sort((a, b) => a.run - b.run || (a.metric < b.metric ? -1 : a.metric > b.metric ? 1 : 0) || a.step - b.step);
  }
}
