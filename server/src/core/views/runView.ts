// The run view model (docs/editors.md): what the run view panel and `rollout-lens report` draw, built
// from the engine's own per-file analyses (the same groups, reasons, metrics and dataset summaries
// `check` reports). Aggregated per step, so its size follows the number of steps and causes, not
// the number of samples: a run of 1 000 steps stays a few MB. At most `samplesPerReason` samples
// are listed per drop reason, by file and line; their prompt and response excerpts are read
// afterwards (core/views/runViewExcerpts.ts).
import { ABORTED_REASON_PREFIX, classifyCause, type CauseSettings, dropMetricName, isAbortedReason, ZERO_STD_REASON_PREFIX } from '../vocabulary/causes';
import { fileOverview } from '../run/fileOverview';
import { runOf } from '../run/model';
import type { RunPlan } from '../run/plan';
import {
  DEFAULT_SAMPLES_PER_REASON,
  type EvalRow,
  type ReasonInfo,
  RUN_VIEW_VERSION,
  type RunSection,
  type RunView,
  type SampleRef,
  type StepRow,
} from '../../../../shared/runViewModel';
import { evalRowOf } from './runViewEval';
import { copyRef } from './runViewExcerpts';
import { type FilePart, filePart, type RolloutPart } from './runViewFile';
import { dropShares, headlines, reasonFamily } from './runHeadline';
import { RunPromptsBuilder } from './runViewPrompts';
import { type FindingLike, FindingRows, RecomputedByStep } from './runViewRows';
import { mismatchByRoot, type RunTokenizerFound } from './runViewMismatch';
import type { FileReport, MetricsRecord, RunReport, TrainStepReport } from '../vocabulary/types';

export type { EvalRow, FilePart, ReasonInfo, RunView, SampleRef, StepRow };
export { filePart };
export { DEFAULT_SAMPLES_PER_REASON, RUN_VIEW_VERSION };

export interface RunViewOptions {
  causes: CauseSettings;
  samplesPerReason?: number;
  /** The run plan of a folder (core/run/plan.ts): a dump file's step is the one its name gives. */
  plan?: RunPlan | null;
}

interface StepAcc {
  row: StepRow;
  rewardSum: number;
  rewardCount: number;
  lengthSum: number;
  lengthCount: number;
  statusCount: number;
  truncated: number;
  /** verl rollout files: the kept-rows score mean of each, weighted by its kept rows, and every attempt's score. */
  verlKept: { sum: number; count: number };
  verlAll: { sum: number; count: number };
}

/** Key of a step in its run: its number, else its file. */
function stepKey(run: number, step: number | null, file: string): string {
  return step === null ? `${run}:f:${file}` : `${run}:s:${step}`;
}

/** Needs `report` built with `keepDetail` (per-sample detail); files without detail count only by their totals. */
export function buildRunView(report: RunReport, options: RunViewOptions): RunView {
  const builder = runViewBuilder(options);
  for (const file of report.files) builder.add(file);
  return builder.finish(report);
}

export interface RunViewBuilder {
  /** One file's report with its detail; the detail may be released once this returns. */
  add(file: FileReport): void;
  /** One file's part (core/views/runViewFile.ts `filePart`, made with this builder's plan and samples per reason), kept from before. */
  addPart(part: FilePart): void;
  /** Findings to count and list (as they come, so a folder's are not all held). */
  addFindings(findings: Iterable<FindingLike>): void;
  /** Findings counted and listed before (one file's, kept with its part). */
  mergeFindings(findings: FindingRows): void;
  /** A step's train_data, read (core/engine.ts `addTrainStep`): its mismatch joins its run's chart. */
  addTrainStep(step: TrainStepReport): void;
  /** Where a run's token texts came from (core/tokenizer/runTokenizer.ts), by its root. */
  addTokenizer(root: string, found: RunTokenizerFound): void;
  /** The model; `report`'s findings and train_data steps are added first (its files are not read again). */
  finish(report?: { findings: readonly FindingLike[]; trainSteps?: readonly TrainStepReport[] }): RunView;
}

/**
 * Builds the model file by file, so a caller can drop each file's samples as it goes (memory then
 * follows the largest file, as in `check`).
 */
export function runViewBuilder(options: RunViewOptions): RunViewBuilder {
  const perReason = Math.max(0, options.samplesPerReason ?? DEFAULT_SAMPLES_PER_REASON);
  const steps = new Map<string, StepAcc>();
  const reasons = new Map<string, ReasonInfo>();
  const samples: Record<string, SampleRef[]> = {};
  const omitted: Record<string, number> = {};
  const evalRows: EvalRow[] = [];
  const runs: RunSection[] = [];
  const runIndex = new Map<string, number>();
  const findingRows = new FindingRows();
  const recomputed = new RecomputedByStep();
  const loggedRecords: Pick<MetricsRecord, 'step' | 'metrics'>[] = [];
  const trainSteps: TrainStepReport[] = [];
  const tokenizers = new Map<string, RunTokenizerFound>();
  const totals = { files: 0, samples: 0, groups: 0, kept: 0, dropped: 0, droppedTokens: 0, totalTokens: 0 };
  /** Each run's rollout files' prompt rows (by run index), for its prompt history. */
  const prompts = new RunPromptsBuilder();

  function add(file: FileReport): void {
    addPart(filePart(file, options.plan, perReason, options.causes));
  }

  function addPart(part: FilePart): void {
    totals.files++;
    if (part.rollout) addRollout(part, part.rollout);
    else if (part.report.kind === 'eval') addEval(part);
    else for (const r of part.metricsRecords) loggedRecords.push(r);
  }

  /** The index of a file's run (core/run/model.ts `runOf`: framework and root). */
  function runOfPart(part: FilePart): number {
    const of = runOf(part.report, options.plan?.byPath.get(part.report.path)) ?? { framework: 'other' as const, root: '.' };
    const key = `${of.framework}\u0000${of.root}`;
    let i = runIndex.get(key);
    if (i === undefined) {
      i = runs.length;
      runs.push({ root: of.root, framework: of.framework, headline: null, prompts: null, promptGroupsOmitted: 0, mismatch: null });
      runIndex.set(key, i);
    }
    return i;
  }

  function addRollout(part: FilePart, r: RolloutPart): void {
    const { report, step } = part;
    const run = runOfPart(part);
    recomputed.add(run, step, report.metrics);
    const key = stepKey(run, step, report.path);
    let acc = steps.get(key);
    if (!acc) {
      const row: StepRow = {
        run,
        step,
        files: [],
        sources: [],
        samples: 0,
        groups: 0,
        kept: 0,
        dropped: 0,
        drops: {},
        zeroStdByReward: {},
        rewardMean: null,
        responseLengthMean: null,
        truncatedRatio: null,
        droppedTokens: 0,
        totalTokens: 0,
        dropShare: {},
        scoreMeanKept: null,
        scoreMeanAllAttempts: null,
      };
      const verlKept = { sum: 0, count: 0 };
      const verlAll = { sum: 0, count: 0 };
      acc = { row, rewardSum: 0, rewardCount: 0, lengthSum: 0, lengthCount: 0, statusCount: 0, truncated: 0, verlKept, verlAll };
      steps.set(key, acc);
    }
    if (r.prompts) prompts.add(run, step, report.path, part.source, r.prompts);
    const row = acc.row;
    row.files.push(report.path);
    row.sources.push(part.source);
    row.groups += report.groups.total;
    row.kept += report.groups.kept;
    row.dropped += report.groups.dropped;
    row.samples += r.samples;
    row.droppedTokens += r.droppedTokens;
    row.totalTokens += r.totalTokens;
    acc.rewardSum += r.rewardSum;
    acc.rewardCount += r.rewardCount;
    acc.lengthSum += r.lengthSum;
    acc.lengthCount += r.lengthCount;
    acc.statusCount += r.statusCount;
    acc.truncated += r.truncated;
    acc.verlKept.sum += r.verlKept.sum;
    acc.verlKept.count += r.verlKept.count;
    acc.verlAll.sum += r.verlAll.sum;
    acc.verlAll.count += r.verlAll.count;
    // Drops by cause as the engine's overview of the file counts them (core/run/fileOverview.ts).
    for (const { reason, groups: n } of fileOverview(report).drops) {
      row.drops[reason] = (row.drops[reason] ?? 0) + n;
      const info = reasonInfo(reason, dropMetricName(reason));
      info.groups += n;
      if (info.kind === 'zero-std' && info.reward !== null) row.zeroStdByReward[info.reward] = (row.zeroStdByReward[info.reward] ?? 0) + n;
    }
    // The first `perReason` samples of each reason over the run, in file order; the rest counted.
    for (const [reason, refs] of Object.entries(r.listed)) {
      const listed = (samples[reason] ??= []);
      for (const ref of refs) {
        if (listed.length < perReason) listed.push(copyRef(ref));
        else omitted[reason] = (omitted[reason] ?? 0) + 1;
      }
    }
    for (const [reason, n] of Object.entries(r.omitted)) omitted[reason] = (omitted[reason] ?? 0) + n;
  }

  function reasonInfo(reason: string, metric: string | null): ReasonInfo {
    let info = reasons.get(reason);
    if (!info) {
      if (isAbortedReason(reason)) {
        const cause = reason.slice(ABORTED_REASON_PREFIX.length);
        const causeClass = cause === 'unknown' ? 'unclassified' : classifyCause(cause, options.causes);
        info = { reason, metric, kind: 'aborted', cause, causeClass, reward: null, family: reasonFamily({ kind: 'aborted', causeClass }), groups: 0 };
      } else if (reason.startsWith(ZERO_STD_REASON_PREFIX)) {
        const reward = reason.slice(ZERO_STD_REASON_PREFIX.length);
        info = { reason, metric, kind: 'zero-std', cause: null, causeClass: null, reward, family: 'zero-std', groups: 0 };
      } else {
        info = { reason, metric, kind: 'other', cause: null, causeClass: null, reward: null, family: 'other', groups: 0 };
      }
      reasons.set(reason, info);
    }
    return info;
  }

  function addEval(part: FilePart): void {
    if (part.datasets.length === 0) return;
    const run = runOfPart(part);
    recomputed.add(run, part.step, part.report.metrics);
    for (const d of part.datasets) evalRows.push(evalRowOf(part.report, d, run, part.step));
  }

  function addFindings(findings: Iterable<FindingLike>): void {
    for (const f of findings) findingRows.add(f);
  }

  function finish(report?: { findings: readonly FindingLike[]; trainSteps?: readonly TrainStepReport[] }): RunView {
    if (report) addFindings(report.findings);
    for (const t of report?.trainSteps ?? []) trainSteps.push(t);
    // Each dump folder's train_data joins the miles run rooted there (a folder of train_data alone is a run of its own).
    for (const [root, mismatch] of mismatchByRoot(trainSteps, undefined, tokenizers)) {
      let section = runs.find((r) => r.root === root && r.framework === 'miles');
      if (section === undefined) {
        section = { root, framework: 'miles', headline: null, prompts: null, promptGroupsOmitted: 0, mismatch: null };
        runIndex.set(`miles\u0000${root}`, runs.length);
        runs.push(section);
      }
      section.mismatch = mismatch;
    }
    // Runs in the run model's order (by root, then framework), whatever order their files came in.
    const logged = recomputed.pair(loggedRecords);
    const order = runs.map((_, i) => i).sort((a, b) => runOrder(runs[a], runs[b]));
    const newIndex = new Map(order.map((old, i) => [old, i]));
    const sortedRuns = order.map((i) => runs[i]);
    runs.forEach((section, run) => Object.assign(section, prompts.finish(run)));
    for (const acc of steps.values()) acc.row.run = newIndex.get(acc.row.run)!;
    for (const row of evalRows) row.run = newIndex.get(row.run)!;
    for (const row of logged) row.run = newIndex.get(row.run)!;
    logged.sort((a, b) => a.run - b.run || (a.metric < b.metric ? -1 : a.metric > b.metric ? 1 : 0) || a.step - b.step);
    const rows = [...steps.entries()]
      .sort(([ka, a], [kb, b]) => {
        if (a.row.run !== b.row.run) return a.row.run - b.row.run;
        if (a.row.step !== null && b.row.step !== null) return a.row.step - b.row.step;
        if (a.row.step !== null || b.row.step !== null) return a.row.step === null ? 1 : -1;
        return ka < kb ? -1 : ka > kb ? 1 : 0;
      })
      .map(([, acc]) => {
        const row = acc.row;
        row.rewardMean = acc.rewardCount > 0 ? acc.rewardSum / acc.rewardCount : null;
        row.responseLengthMean = acc.lengthCount > 0 ? acc.lengthSum / acc.lengthCount : null;
        row.truncatedRatio = acc.statusCount > 0 ? acc.truncated / acc.statusCount : null;
        row.dropShare = dropShares(row);
        row.scoreMeanKept = acc.verlKept.count > 0 ? acc.verlKept.sum / acc.verlKept.count : null;
        row.scoreMeanAllAttempts = acc.verlAll.count > 0 ? acc.verlAll.sum / acc.verlAll.count : null;
        totals.samples += row.samples;
        totals.groups += row.groups;
        totals.kept += row.kept;
        totals.dropped += row.dropped;
        totals.droppedTokens += row.droppedTokens;
        totals.totalTokens += row.totalTokens;
        return row;
      });
    evalRows.sort((a, b) => a.run - b.run || (a.step ?? Infinity) - (b.step ?? Infinity) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));

    const listed = findingRows.finish();
    const said = headlines(sortedRuns, rows, reasons);
    said.perRun.forEach((headline, i) => (sortedRuns[i].headline = headline));

    return {
      version: RUN_VIEW_VERSION,
      reasons: [...reasons.values()].sort(reasonOrder),
      steps: rows,
      eval: evalRows,
      samples,
      samplesOmitted: omitted,
      findings: findingRows.counts,
      findingRows: listed.rows,
      findingRowsOmitted: listed.omitted,
      runs: sortedRuns,
      headline: said.overall,
      logged,
      totals,
    };
  }
  return {
    add,
    addPart,
    addFindings,
    mergeFindings: (f) => findingRows.merge(f),
    addTrainStep: (t) => void trainSteps.push(t),
    addTokenizer: (root, found) => void tokenizers.set(root, found),
    finish,
  };
}

function runOrder(a: RunSection, b: RunSection): number {
  if (a.root !== b.root) return a.root < b.root ? -1 : 1;
  return a.framework < b.framework ? -1 : a.framework > b.framework ? 1 : 0;
}

const CLASS_ORDER: Record<string, number> = { infrastructure: 0, policy: 1, scored: 2, unclassified: 3 };

/** Aborted causes by class then name; zero-std by reward; others last. */
function reasonOrder(a: ReasonInfo, b: ReasonInfo): number {
  const kind = (r: ReasonInfo) => (r.kind === 'aborted' ? 0 : r.kind === 'zero-std' ? 1 : 2);
  const byKind = kind(a) - kind(b);
  if (byKind !== 0) return byKind;
  const byClass = (CLASS_ORDER[a.causeClass ?? ''] ?? 4) - (CLASS_ORDER[b.causeClass ?? ''] ?? 4);
  if (byClass !== 0) return byClass;
  return a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0;
}
