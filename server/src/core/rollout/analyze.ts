// Rollout (training) analysis (docs/semantics.md#aborted-group-filter): re-runs miles' aborted-group filter and the optional
// dynamic filter `check_reward_nonzero_std` on one file's samples, recomputes the drop metrics
// `rollout/dynamic_filter/drop_<reason>`, and judges every failure cause (§2.4) and group (§2.5).
import type { RolloutLensSettings } from '../settings';
import { classifyCause, dropMetricName } from '../causes';
import { severityOf, type FindingCode } from '../catalog';
import type { FormatId, Finding, GroupCounts, GroupOutcome, SampleRecord } from '../types';
import { abortedFilter, zeroStdFilter } from './filters';
import { groupSamples, type SampleGroup } from './groups';
import { abortCauseUnknownMessage, groupDroppedMessage, infraScoredMessage, policyDiscardedMessage, zeroStdMessage } from './messages';
import { incompleteGroups, misgrouped } from './shape';
import { crashMessage, milesSampleMetrics } from '../eval/milesMetrics';

export interface RolloutResult {
  /** One outcome per group, in file order (first-written member). */
  groups: GroupOutcome[];
  counts: GroupCounts;
  /** Drop metric → groups dropped for that reason; only reasons that occurred, first-seen order. */
  metrics: Record<string, number>;
  /** miles-sample files: the per-sample metrics miles logs under `rollout/…` (docs/semantics.md#miles-sample-metrics). */
  sampleMetrics: Record<string, number>;
  findings: Finding[];
}

export function analyzeRollout(file: string, format: FormatId, samples: readonly SampleRecord[], settings: RolloutLensSettings): RolloutResult {
  // verl has no aborted-group filter: it masks empty responses (response_length == 0) out of the
  // loss and its means instead of dropping the group, and `check_reward_nonzero_std` is miles'
  // filter (verl's DAPO group filter logs under other names). So a verl file gets groups and the
  // shape checks, but no `group_has_aborted_*` / `zero_std_*` drops.
  const filtersRun = format !== 'verl-rollout' && format !== 'verl-validation';
  // Samples without a group key belong to no group (see groupSamples); only their causes are checked.
  const { groups, ungrouped } = groupSamples(samples);
  const findings: Finding[] = [];
  const outcomes: GroupOutcome[] = [];
  const metrics: Record<string, number> = {};

  const finding = (code: FindingCode, at: SampleRecord, message: string, related: readonly SampleRecord[]): void => {
    findings.push({
      code,
      severity: severityOf(code),
      file,
      line: at.line,
      message,
      group: at.groupKey,
      dataset: at.dataset,
      fix: null,
      ...(related.length > 0 ? { related: related.map((s) => ({ file, line: s.line })) } : {}),
    });
  };

  for (const g of groups) {
    const { outcome, namer } = filtersRun ? filterGroup(g, settings, finding) : { outcome: keptOutcome(g), namer: null };
    outcomes.push(outcome);
    if (outcome.metric !== null) metrics[outcome.metric] = (metrics[outcome.metric] ?? 0) + 1;
    for (const s of g.members) checkCause(s, format, settings, filtersRun, namer, outcome.reason, finding);
  }
  for (const s of ungrouped) checkCause(s, format, settings, filtersRun, null, null, finding);
  for (const p of [...incompleteGroups(groups, settings.nSamplesPerPrompt), ...misgrouped(groups)]) {
    finding(p.code, p.at, p.message, p.related);
  }

  const sampleMetrics: Record<string, number> = {};
  if (format === 'miles-sample' || format === 'miles-pt') {
    const perSample = milesSampleMetrics(samples);
    for (const [k, v] of Object.entries(perSample.metrics)) sampleMetrics[`rollout/${k}`] = v;
    // A group with an aborted member is gone before miles logs (check_no_aborted); one whose rewards
    // are all null without an abort reaches the zero-std count and its round(None).
    const crash = perSample.crashGroups.filter((g) => !g.members.some((s) => s.aborted));
    if (crash.length > 0)
      finding(
        'metrics-crash',
        crash[0].first,
        crashMessage('rollout/zero_std/…', crash.length),
        crash.slice(1).map((g) => g.first),
      );
  }

  // Stable: on one line, the group's finding comes before the sample's own cause findings.
  findings.sort((a, b) => a.line - b.line);
  const dropped = outcomes.filter((o) => !o.kept).length;
  return { groups: outcomes, counts: { total: outcomes.length, kept: outcomes.length - dropped, dropped }, metrics, sampleMetrics, findings };
}

type Report = (code: FindingCode, at: SampleRecord, message: string, related: readonly SampleRecord[]) => void;

/** The aborted-group filter first (§2.1), then the dynamic filter on survivors (§2.2). */
function filterGroup(g: SampleGroup, settings: RolloutLensSettings, report: Report): { outcome: GroupOutcome; namer: SampleRecord | null } {
  const aborted = abortedFilter(g.members);
  if (aborted) {
    const others = g.members.filter((s) => s !== aborted.namer);
    report('group-dropped', aborted.namer, groupDroppedMessage(aborted.reason, g.key, g.members, aborted.namer, settings), others);
    return { outcome: droppedOutcome(g, aborted.reason), namer: aborted.namer };
  }
  if (settings.dynamicFilter !== 'check_reward_nonzero_std') return { outcome: keptOutcome(g), namer: null };
  const verdict = zeroStdFilter(g.members);
  if (verdict.kind !== 'dropped') return { outcome: keptOutcome(g), namer: null };
  const [first, ...others] = g.members;
  report('zero-std-group', first, zeroStdMessage(verdict.reason, g.key, g.members, verdict.std), others);
  return { outcome: droppedOutcome(g, verdict.reason), namer: null };
}

/** Per-sample cause checks (§2.4), independent of the group's fate. */
function checkCause(
  s: SampleRecord,
  format: FormatId,
  settings: RolloutLensSettings,
  filtersRun: boolean,
  namer: SampleRecord | null,
  groupReason: string | null,
  report: Report,
): void {
  if (s.aborted && (s.cause === null || s.cause === '')) {
    // verl records no causes and drops nothing, so an unknown cause there says nothing new.
    if (filtersRun) report('abort-cause-unknown', s, abortCauseUnknownMessage(s, namer, format === 'miles-trajectory'), []);
    return;
  }
  const cls = classifyCause(s.cause, settings);
  if (s.aborted && cls === 'policy') report('policy-failure-discarded', s, policyDiscardedMessage(s), []);
  if (!s.aborted && cls === 'infrastructure') report('infra-failure-scored', s, infraScoredMessage(s, groupReason), []);
}

function keptOutcome(g: SampleGroup): GroupOutcome {
  return { key: g.key, lines: g.members.map((s) => s.line), kept: true, reason: null, metric: null };
}

function droppedOutcome(g: SampleGroup, reason: string): GroupOutcome {
  return { key: g.key, lines: g.members.map((s) => s.line), kept: false, reason, metric: dropMetricName(reason) };
}
