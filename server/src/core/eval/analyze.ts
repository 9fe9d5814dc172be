// Evaluation analysis (docs/semantics.md#eval-metrics): per-dataset metrics as miles logs them, pass@k grouped by each
// dataset's own n, and the evaluation bugs a log reveals (docs/semantics.md#known-framework-bugs).
import type { RolloutLensSettings } from '../vocabulary/settings';
import type { DatasetSummary, FormatId, Finding, Location, SampleRecord } from '../vocabulary/types';
import type { EvalConfig } from './config';
import { datasetMetrics } from './datasetMetrics';
import { fileStep } from '../vocabulary/logFiles';
import { splitDatasets } from './datasets';
import { recordsOf, sampleList, type SampleList } from '../store/sampleList';
import type { SampleColumns } from '../store/sampleColumns';
import { asRecords } from '../store/rowView';

import * as msg from './findings';
import { firstMixedGroup, groupingOrder, promptRuns, resolveGroupSize, uniformRun } from './grouping';
import type { ResolvedN } from './grouping';
import { crashMessage, milesSampleMetrics, repetitionCrashMessage } from './milesMetrics';
import { computePassAtK, passAtKDifference } from './passAtK';
import { analyzeVerlRollout } from './verlRollout';
import { analyzeVerlValidation } from './verlValidation';
import { sampleRulesOf } from '../vocabulary/frameworks';
import { rolloutIdsNameRollouts, rolloutsOf } from '../rollout/compactRollouts';

export interface EvalResult {
  datasets: DatasetSummary[];
  metrics: Record<string, number>;
  findings: Finding[];
  /** Step of the file (`rollout_id`/`step` of its records, else a number in its name); null if none. */
  step: number | null;
  /**
   * pass@k as miles main (31f1ca9) computes it (grouped by the global n), by metric name, where that
   * grouping gets it wrong (`passAtKDifference`); `compareMetrics` names a logged value that equals it.
   */
  wrongMetrics: Record<string, { groupSize: number; ownGroupSize: number; value: number }>;
}

/** Whether the analysis splits `format`'s eval files into datasets (`splitDatasets`); verl's name theirs. */
export function splitsDatasets(format: FormatId): boolean {
  return format !== 'verl-validation' && format !== 'verl-rollout';
}

/**
 * `samples`: the file's store (the engine's, when no detail is kept: read in place, no object per
 * sample), or its records in line order.
 */
export function analyzeEval(
  file: string,
  format: FormatId,
  samples: readonly SampleRecord[] | SampleColumns,
  settings: RolloutLensSettings,
  config: EvalConfig | null,
): EvalResult {
  const step = fileStep(file, samples);
  // verl's analyses read records (files of a few thousand rows): a store's rows as views.
  if (format === 'verl-validation') return { ...analyzeVerlValidation(file, asRecords(samples)), step, wrongMetrics: {} };
  if (!splitsDatasets(format)) {
    const r = analyzeVerlRollout(file, asRecords(samples));
    return { datasets: [], metrics: r.metrics, findings: r.findings, step, wrongMetrics: {} };
  }
  const result: EvalResult = { datasets: [], metrics: {}, findings: [], step, wrongMetrics: {} };
  for (const part of splitDatasets(file, format, sampleList(samples), evalDatasetOrder(config), evalDatasetRenames(config))) {
    analyzeDataset(file, format, part.name, part.samples, settings, config, result);
  }
  return result;
}

/** The eval config's dataset names in its order (what `splitDatasets` names index restarts by). */
export function evalDatasetOrder(config: EvalConfig | null): readonly string[] {
  return config?.datasets.map((d) => d.name) ?? [];
}

/**
 * Recorded dataset name → the eval config's `name` miles logs it under, for the names the
 * entries' `metadata_overrides` write (`dataset`, else `dataset_name`, as a sample's dataset is
 * read). A name two entries write maps to null: the samples' index restarts decide.
 */
export function evalDatasetRenames(config: EvalConfig | null): ReadonlyMap<string, string | null> {
  const out = new Map<string, string | null>();
  for (const d of config?.datasets ?? []) {
    const written = d.overriddenNames.dataset ?? d.overriddenNames.datasetName;
    if (written === null) continue;
    out.set(written, out.has(written) && out.get(written) !== d.name ? null : d.name);
  }
  return out;
}

function analyzeDataset(
  file: string,
  format: FormatId,
  name: string,
  samples: SampleList,
  settings: RolloutLensSettings,
  config: EvalConfig | null,
  out: EvalResult,
): void {
  const ordered = groupingOrder(format, samples);
  const resolved = resolveGroupSize(name, config, settings, ordered);
  const rules = sampleRulesOf(format);
  const computed = datasetMetrics(name, ordered, resolved.n, rules);
  // The per-sample metrics miles logs under eval/<ds>/… (docs/semantics.md#miles-sample-metrics).
  const perSample = milesSampleMetrics(ordered.wholeStore() ?? recordsOf(ordered), rules);
  for (const [k, v] of Object.entries(perSample.metrics)) computed.metrics[`eval/${name}/${k}`] = v;
  const summary: DatasetSummary = { name, samples: ordered.length, n: resolved.n, nSource: resolved.source, metrics: computed.metrics };
  Object.assign(out.metrics, computed.metrics);
  const first = minLine(samples);
  const at = { file, line: first, dataset: name, related: configLocations(config, resolved) };
  const push = (f: Finding) => out.findings.push(f);

  // miles' and slime's eval paths both extend a dataset with every sample of an attempt (sorted by index).
  const fanned = compactAttempts(ordered);
  if (fanned !== null) {
    // miles' pass@k chunks the samples, not the attempts: no n fixes that (misgrouped-dataset would say one does).
    const crash = computed.passAtK.kind === 'crash' ? computed.passAtK.crash : null;
    const byAttempts = resolved.n > 1 ? computePassAtK(fanned.rewards, resolved.n) : null;
    const text = msg.compactEvalMessage(name, rules.versionOwner, {
      fannedOut: fanned.fannedOut,
      rollouts: fanned.rewards.length,
      samples: ordered.length,
      n: resolved.n,
      crash,
      byRollouts: byAttempts?.kind === 'metrics' ? byAttempts.values : null,
    });
    // slime's sum raising on a None reward comes first: that finding (below) says nothing is logged.
    if (computed.sumCrash === null)
      push(msg.makeFinding(crash !== null ? 'metrics-crash' : 'compact-rollouts', { ...at, line: ordered.line(fanned.first) }, text));
    checkGlobalGrouping(name, computed.rewards, resolved, settings.nSamplesPerEvalPrompt, computed.passAtK, summary, out, at);
  } else if (resolved.source === 'inferred' || resolved.source === 'default') {
    const runs = promptRuns(ordered);
    const why = runs === null ? 'no-prompt' : uniformRun(runs) !== null ? 'uniform' : 'uneven';
    push(msg.makeFinding('group-size-inferred', at, msg.inferredMessage(name, resolved.n, why)));
  } else if (!checkGrouping(name, ordered, resolved, config, computed.passAtK, at, push)) {
    // A misgrouped dataset's own pass@k is over wrong groups too: its fix comes first.
    checkGlobalGrouping(name, computed.rewards, resolved, settings.nSamplesPerEvalPrompt, computed.passAtK, summary, out, at);
  }
  if (computed.sumCrash !== null) {
    // slime sums the rewards before anything else of the dataset: that is where it raises.
    push(
      msg.makeFinding(
        'metrics-crash',
        { ...at, line: firstNullLine(ordered), related: [] },
        msg.sumCrashMessage(name, computed.noneCount, ordered.length, computed.sumCrash, rules.versionOwner),
      ),
    );
  } else checkRewards(name, ordered, at, push);
  // A whole dataset without rewards is eval-all-aborted, whose message names the crash already.
  if (perSample.crashGroups.length > 0 && computed.noneCount < ordered.length && computed.sumCrash === null) {
    const g = perSample.crashGroups[0];
    push(
      msg.makeFinding(
        'metrics-crash',
        { ...at, line: ordered.line(g.row), related: [] },
        crashMessage(`eval/${name}/zero_std/…`, perSample.crashGroups, rules),
      ),
    );
  }
  const rep = perSample.repetitionCrash;
  if (rep !== null)
    push(msg.makeFinding('metrics-crash', { ...at, line: rep.first.line, related: [] }, repetitionCrashMessage(`eval/${name}/repetition_frac`, rep, rules)));
  out.datasets.push(summary);
}

/**
 * passk-group-size-mismatch: miles main (31f1ca9) groups pass@k by the global n even when the
 * dataset sets its own (entry or eval.defaults). Shows the assertion it hits or the values it gets
 * wrong; none when every value it logs is right (equal within SAME_PASS_AT_K_TOLERANCE) and none is
 * missing. The fix names the flag: the dataset's own n is what the log was made with.
 */
function checkGlobalGrouping(
  name: string,
  rewards: Float64Array,
  resolved: ResolvedN,
  g: number | null,
  own: ReturnType<typeof computePassAtK>,
  summary: DatasetSummary,
  out: EvalResult,
  at: msg.FindingAt,
): void {
  if (g === null || g === resolved.n || (resolved.source !== 'dataset' && resolved.source !== 'defaults') || own.kind === 'crash') return;
  const other = computePassAtK(rewards, g);
  let wrong: Parameters<typeof msg.passkMismatchMessage>[3];
  if (other.kind === 'crash') {
    summary.wrongPassAtK = { groupSize: g, crash: other.crash };
    wrong = { crash: other.crash };
  } else {
    const diff = passAtKDifference(other.values, own.values);
    if (Object.keys(diff.wrong).length === 0 && diff.missing.length === 0) return;
    const metrics: Record<string, number> = {};
    for (const [k, v] of Object.entries(diff.wrong)) {
      metrics[`eval/${name}-${k}`] = v;
      out.wrongMetrics[`eval/${name}-${k}`] = { groupSize: g, ownGroupSize: resolved.n, value: v };
    }
    summary.wrongPassAtK = { groupSize: g, metrics };
    wrong = { values: diff.wrong, missing: diff.missing };
  }
  const fix = { kind: 'set-n-samples-per-eval-prompt' as const, dataset: name, value: resolved.n, configFile: null };
  out.findings.push(msg.makeFinding('passk-group-size-mismatch', { ...at, fix }, msg.passkMismatchMessage(name, resolved.n, g, wrong, own.values)));
}

/** misgrouped-dataset: observed prompt repetition, sample count and group contents against n. True when it found one. */
function checkGrouping(
  name: string,
  ordered: SampleList,
  resolved: ResolvedN,
  config: EvalConfig | null,
  passAtK: ReturnType<typeof computePassAtK>,
  at: msg.FindingAt,
  push: (f: Finding) => void,
): boolean {
  const runs = promptRuns(ordered);
  const m = runs === null ? null : uniformRun(runs);
  const crash = passAtK.kind === 'crash' ? passAtK.crash : null;
  const n = resolved.n;
  if (m !== null && m !== n) {
    const fix = { kind: 'set-n-samples-per-eval-prompt' as const, dataset: name, value: m, configFile: config?.path ?? null };
    const firstBad = firstMixedGroup(ordered, n) ?? ordered.line(0);
    push(msg.makeFinding('misgrouped-dataset', { ...at, line: firstBad, fix }, msg.misgroupedRepeatMessage(name, m, n, crash)));
    return true;
  }
  if (crash !== null) {
    push(msg.makeFinding('misgrouped-dataset', at, msg.misgroupedCountMessage(name, ordered.length, n, crash)));
    return true;
  }
  const mixed = runs !== null && m === null ? firstMixedGroup(ordered, n) : null;
  if (mixed === null) return false;
  push(msg.makeFinding('misgrouped-dataset', { ...at, line: mixed }, msg.misgroupedMixedMessage(name, n, mixed)));
  return true;
}

/** eval-all-aborted (every reward null) or none-reward (some null). */
function checkRewards(name: string, ordered: SampleList, at: msg.FindingAt, push: (f: Finding) => void): void {
  const none: number[] = [];
  for (let k = 0; k < ordered.length; k++) if (ordered.reward(k) === null) none.push(ordered.line(k));
  if (none.length === 0) return;
  let first = Infinity;
  for (const line of none) if (line < first) first = line;
  const nullAt = { file: at.file, line: first, dataset: name };
  if (none.length === ordered.length) {
    let allAborted = true;
    for (let k = 0; k < ordered.length && allAborted; k++) allAborted = ordered.aborted(k);
    push(msg.makeFinding('eval-all-aborted', at, msg.allAbortedMessage(name, ordered.length, allAborted)));
    return;
  }
  const related = none
    .filter((line) => line !== nullAt.line)
    .slice(0, 20)
    .map((line): Location => ({ file: at.file, line }));
  push(msg.makeFinding('none-reward', { ...nullAt, related }, msg.noneRewardMessage(name, none.length, ordered.length)));
}

/** The line of the first sample without a reward. */
function firstNullLine(ordered: SampleList): number {
  let first = Infinity;
  for (let k = 0; k < ordered.length; k++) if (ordered.reward(k) === null) first = Math.min(first, ordered.line(k));
  return first;
}

/** The config entry's line and the line of its (or the defaults') n, for related information. */
function configLocations(config: EvalConfig | null, resolved: ResolvedN): Location[] {
  if (!config) return [];
  const out: Location[] = [];
  if (resolved.entry) out.push({ file: config.path, line: resolved.entry.nLine ?? resolved.entry.line });
  if (resolved.source === 'defaults' && config.defaults.nLine) out.push({ file: config.path, line: config.defaults.nLine });
  return out;
}

/** Smallest line number (a loop: spreading a large array into Math.min overflows the stack). */
export function minLine(samples: SampleList): number {
  let min = Infinity;
  for (let k = 0; k < samples.length; k++) min = Math.min(min, samples.line(k));
  return min;
}

/**
 * A dataset's attempts in grouping order when some fan out into several samples (siblings share
 * `rollout_id`: `rolloutsOf`), each with its first sample's reward (None: 0, as `== 1` counts it);
 * null when none fans out.
 */
function compactAttempts(ordered: SampleList): { rewards: Float64Array; fannedOut: number; first: number } | null {
  // miles sets rollout_id only on the siblings of an attempt that fanned out, copies of one sample: ids
  // on samples of different indexes (a step number on every sample) name no attempt.
  if (!rolloutIdsNameRollouts(ordered)) return null;
  const rollouts = rolloutsOf(ordered);
  let fannedOut = 0;
  let first = -1;
  for (const r of rollouts)
    if (r.length > 1 && ordered.rolloutId(r[0]) !== null) {
      fannedOut++;
      if (first < 0) first = r[0];
    }
  if (fannedOut === 0) return null;
  return { rewards: Float64Array.from(rollouts, (r) => ordered.reward(r[0]) ?? 0), fannedOut, first };
}
