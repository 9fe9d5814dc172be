// A run's totals for one line of status (the editor's run status item): groups over the rollout
// steps of the run model (each step counted once, whatever files describe it), and its findings
// by severity and the metric mismatches among them.
import type { Finding, GroupCounts, Severity } from '../vocabulary/types';
import type { Run } from './model';

export interface RunTotals {
  rolloutSteps: number;
  groups: GroupCounts;
  /** `metric-mismatch` findings: a logged metric that differs from the recomputed value. */
  metricMismatches: number;
  findings: Record<Severity, number>;
}

export function runTotals(runs: readonly Run[], findings: readonly Pick<Finding, 'code' | 'severity'>[]): RunTotals {
  const groups: GroupCounts = { total: 0, kept: 0, dropped: 0 };
  let rolloutSteps = 0;
  for (const run of runs) {
    for (const step of run.steps) {
      if (step.kind !== 'rollout') continue;
      rolloutSteps++;
      groups.total += step.groups.total;
      groups.kept += step.groups.kept;
      groups.dropped += step.groups.dropped;
    }
  }
  const bySeverity: Record<Severity, number> = { error: 0, warning: 0, information: 0, hint: 0 };
  let metricMismatches = 0;
  for (const f of findings) {
    bySeverity[f.severity]++;
    if (f.code === 'metric-mismatch') metricMismatches++;
  }
  return { rolloutSteps, groups, metricMismatches, findings: bySeverity };
}
