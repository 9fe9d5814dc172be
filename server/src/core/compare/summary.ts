// Run summaries (docs/compare.md): what `rollout-lens diff` compares, small enough to keep as a CI
// artifact. A summary lists its files' own figures under their steps; every figure of a step is
// derived from its files in path order (summarySteps.ts), so merging the summaries of shards of a
// run gives exactly the summary of the whole run: integers add, and floating-point sums are only
// ever summed in the same order.
import { evalDatasetSamples, sampleCount, verdictOf } from '../inspect';
import { fileStep } from '../logFiles';
import { droppedByCause, runFrameworkOf, stepNumberOf, type RunFramework, type StepKind } from '../run/model';
import type { RunPlan } from '../run/plan';
import type { SampleColumns } from '../store/sampleColumns';
import type { FileDetail, FileReport, Finding, FormatId, GroupCounts, SampleRecord } from '../types';
import { attachPromptTable, PromptTableBuilder } from './promptTable';
import { stepOfFiles } from './summarySteps';

/** 2: a rollout prompt row ends with its group's response tokens. */
export const SUMMARY_VERSION = 2;

/** Finite rewards summed (and squared) for exact merging; `none`: samples without a reward. */
export interface RewardStats {
  count: number;
  sum: number;
  sumSq: number;
  none: number;
}

/**
 * A rollout prompt (one group) in one file: `[id, state (index into the file's states), samples,
 * passes, reward sum, line, response tokens]`.
 */
export type PromptRow = [id: string, state: number, samples: number, passes: number, rewardSum: number, line: number, tokens: number];

/** An eval prompt of a dataset: `[id, samples, passes, reward sum (None as 0), line]`. */
export type EvalPromptRow = [id: string, samples: number, passes: number, rewardSum: number, line: number];

export interface DatasetFile {
  name: string;
  /** Samples per prompt the framework grouped by (the dataset's own n). */
  n: number;
  samples: number;
  noneReward: number;
  truncated: number;
  /** The dataset's first sample's line. */
  line: number;
  /** The dataset's metrics as the framework logs them (recomputed). */
  metrics: Record<string, number | null>;
  prompts: EvalPromptRow[];
}

export interface FileSummary {
  path: string;
  format: FormatId;
  samples: number;
  groups: GroupCounts;
  droppedByCause: Record<string, number>;
  responseTokens: number;
  /** Response tokens of the samples in dropped groups. */
  droppedTokens: number;
  reward: RewardStats;
  truncated: number;
  /** Samples that record a status (the truncated ratio's denominator). */
  withStatus: number;
  /** The file's metrics as the framework logs them (recomputed); null for NaN and ±Infinity. */
  metrics: Record<string, number | null>;
  /** Per drop reason, the line of the sample that names it in the file's first group dropped for it. */
  examples: Record<string, number>;
  /**
   * Per finding code: how many concern the file and where the first is (the file itself, or the
   * log that names it among a finding's related lines: a metrics log's `metric-mismatch`).
   */
  findings: Record<string, { count: number; file: string; line: number }>;
  /** Prompt states: `kept` and the drop reasons (`group_has_aborted_<cause>`, `zero_std_<r>`). */
  states: string[];
  prompts: PromptRow[];
  datasets: DatasetFile[];
}

export interface DatasetStep {
  name: string;
  n: number;
  samples: number;
  noneReward: number;
  truncated: number;
  /** Mean reward over the dataset's samples, None as 0; null without samples. */
  score: number | null;
  /** pass@k for k = 1, 2, 4, … ≤ n: the mean over prompts with at least k samples of the unbiased estimator. */
  passAtK: Record<string, number | null>;
}

export interface StepSummary {
  kind: StepKind;
  step: number | null;
  partial: boolean;
  samples: number;
  groups: GroupCounts;
  droppedByCause: Record<string, number>;
  responseTokens: number;
  droppedTokens: number;
  reward: RewardStats;
  truncated: number;
  withStatus: number;
  datasets: DatasetStep[];
  files: FileSummary[];
}

export interface RunSummary {
  version: typeof SUMMARY_VERSION;
  framework: RunFramework | null;
  steps: StepSummary[];
}

/** The state of a kept prompt group. */
export const KEPT = 'kept';

/** A sample passes when its reward is exactly 1 (miles' pass@k counts `reward == 1`). */
export function passes(reward: number | null): boolean {
  return reward === 1;
}

/** A prompt (a group, or an eval prompt) is solved when one of its samples passes. */
export function isSolved(passCount: number): boolean {
  return passCount > 0;
}

function finiteOrNull(record: Record<string, number>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(record)) out[k] = Number.isFinite(v) ? v : null;
  return out;
}

function addReward(stats: RewardStats, reward: number | null): void {
  if (reward === null) stats.none++;
  else if (Number.isFinite(reward)) {
    stats.count++;
    stats.sum += reward;
    stats.sumSq += reward * reward;
  }
}

/** A prompt's identity: miles' prompt hash, `instance_id` or label, verl's input hash; else its group key. */
function identityOf(store: SampleColumns, i: number): string {
  return store.promptKeyAt(i) ?? store.groupKeyAt(i) ?? `line:${store.lineAt(i)}`;
}

function identityOfRecord(s: SampleRecord): string {
  return s.promptKey ?? s.groupKey ?? `line:${s.line}`;
}

interface GroupAcc {
  id: string;
  /** `kept` or its drop reason. */
  reason: string;
  samples: number;
  passes: number;
  rewardSum: number;
  /** The sample that names the group, and its rank: not aborted (1) after aborted (0), then index, then line. */
  line: number;
  aborted: number;
  index: number;
}

/** A file's summary and the step it belongs to. */
export interface SummarizedFile {
  framework: RunFramework;
  kind: StepKind;
  step: number | null;
  partial: boolean;
  file: FileSummary;
}

/** One analysed file (with `keepDetail: 'store'`) as its summary; null for files that make no step. */
export function summarizeFile(report: FileReport, plan: RunPlan | null): SummarizedFile | null {
  if (report.kind !== 'rollout' && report.kind !== 'eval') return null;
  const framework = runFrameworkOf(report.format);
  if (framework === null) return null;
  const detail = report.detail;
  const planned = plan?.byPath.get(report.path);
  const step = stepNumberOf(report, planned) ?? (detail ? fileStep(report.path, detail.store ?? detail.samples) : null);
  const file: FileSummary = {
    path: report.path,
    format: report.format,
    samples: detail ? sampleCount(detail) : report.records,
    groups: { ...report.groups },
    droppedByCause: droppedByCause(report),
    responseTokens: 0,
    droppedTokens: 0,
    reward: { count: 0, sum: 0, sumSq: 0, none: 0 },
    truncated: 0,
    withStatus: 0,
    metrics: finiteOrNull(report.metrics),
    examples: {},
    findings: {},
    states: [KEPT],
    prompts: [],
    datasets: [],
  };
  if (detail?.store) summarizeStore(report, detail, file);
  if (report.kind === 'eval' && detail) file.datasets = datasetsOf(report);
  return { framework, kind: report.kind, step, partial: planned?.role === 'partial', file };
}

/**
 * A file's samples, read column by column from its store (no object per sample: a run folder is
 * millions of them), into its figures and one prompt row per group, held in a compact table.
 */
function summarizeStore(report: FileReport, detail: FileDetail, file: FileSummary): void {
  const store = detail.store!;
  const groups: (GroupAcc | undefined)[] = new Array(store.groupKeys.size);
  const rollout = report.kind === 'rollout';
  for (let i = 0; i < store.length; i++) {
    const reward = store.rewardAt(i);
    addReward(file.reward, reward);
    const responseLength = store.responseLengthAt(i);
    const length = responseLength !== null && Number.isFinite(responseLength) ? responseLength : 0;
    file.responseTokens += length;
    const status = store.statusAt(i);
    if (status !== null) {
      file.withStatus++;
      if (status === 'truncated') file.truncated++;
    }
    if (!rollout) continue;
    const gid = store.groupId(i);
    if (gid < 0) continue;
    if (verdictOf(detail, gid) !== null) file.droppedTokens += length;
    const aborted = store.abortedAt(i) ? 0 : 1;
    const index = store.indexAt(i) ?? Infinity;
    const line = store.lineAt(i);
    let g = groups[gid];
    if (!g) g = groups[gid] = { id: identityOf(store, i), samples: 0, passes: 0, rewardSum: 0, line, aborted, index };
    g.samples++;
    if (passes(reward)) g.passes++;
    if (reward !== null && Number.isFinite(reward)) g.rewardSum += reward;
    // The sample that names the group: the first aborted member in group order, else the first.
    if (aborted !== g.aborted ? aborted < g.aborted : index !== g.index ? index < g.index : line < g.line) {
      g.aborted = aborted;
      g.index = index;
      g.line = line;
    }
  }
  const stateIndex = new Map<string, number>([[KEPT, 0]]);
  const named: [GroupAcc, number][] = [];
  const table = new PromptTableBuilder(null);
  let fits = true;
  for (const [gid, g] of groups.entries()) {
    if (!g) continue;
    const reason = verdictOf(detail, gid) ?? KEPT;
    let state = stateIndex.get(reason);
    if (state === undefined) {
      stateIndex.set(reason, (state = file.states.length));
      file.states.push(reason);
    }
    if (reason !== KEPT && !(reason in file.examples)) file.examples[reason] = g.line;
    named.push([g, state]);
    fits &&= table.pushId(g.id, state, g.samples, g.passes, g.rewardSum, g.line);
  }
  if (fits) attachPromptTable(file, table.finish());
  else file.prompts = named.map(([g, state]) => [g.id, state, g.samples, g.passes, g.rewardSum, g.line]);
}

function datasetsOf(report: FileReport): DatasetFile[] {
  const detail = report.detail!;
  const out: DatasetFile[] = [];
  for (const part of evalDatasetSamples(report, detail)) {
    const summary = detail.datasets.find((d) => d.name === part.name);
    const byPrompt = new Map<string, EvalPromptRow>();
    const d: DatasetFile = {
      name: part.name,
      n: summary?.n ?? 1,
      samples: part.samples.length,
      noneReward: 0,
      truncated: 0,
      line: Infinity,
      metrics: finiteOrNull(summary?.metrics ?? {}),
      prompts: [],
    };
    for (const s of part.samples) {
      d.line = Math.min(d.line, s.line);
      if (s.reward === null) d.noneReward++;
      if (s.status === 'truncated') d.truncated++;
      const id = identityOfRecord(s);
      let row = byPrompt.get(id);
      if (!row) {
        byPrompt.set(id, (row = [id, 0, 0, 0, s.line]));
        d.prompts.push(row);
      }
      row[1]++;
      if (passes(s.reward)) row[2]++;
      if (s.reward !== null && Number.isFinite(s.reward)) row[3] += s.reward;
      row[4] = Math.min(row[4], s.line);
    }
    if (!Number.isFinite(d.line)) d.line = 1;
    out.push(d);
  }
  return out;
}

/** A file that belongs to a run of another framework than the files before it (a summary holds one run). */
export class MixedRunError extends Error {
  constructor(
    readonly first: RunFramework,
    readonly other: RunFramework,
    readonly path: string,
  ) {
    super(`${path}: a ${other} file in a ${first} run (a summary holds one run)`);
  }
}

/**
 * Builds a run's summary file by file (each file's store may be released once `add` returns),
 * then takes the run's findings (`finish`).
 */
export class SummaryBuilder {
  private framework: RunFramework | null = null;
  private readonly steps = new Map<string, { kind: StepKind; step: number | null; partial: boolean; files: FileSummary[] }>();
  private readonly byPath = new Map<string, FileSummary>();

  constructor(private readonly plan: RunPlan | null = null) {}

  /** Throws `MixedRunError` when the file belongs to a run of another framework (a summary is one run). */
  add(report: FileReport): void {
    const summarized = summarizeFile(report, this.plan);
    if (summarized !== null) this.addSummarized(summarized);
  }

  /** A file summarised by `summarizeFile` (here or on another thread), in the run's file order. */
  addSummarized(summarized: SummarizedFile): void {
    const path = summarized.file.path;
    if (this.framework !== null && this.framework !== summarized.framework) throw new MixedRunError(this.framework, summarized.framework, path);
    this.framework = summarized.framework;
    const key = stepKey(summarized.kind, summarized.step, path);
    let step = this.steps.get(key);
    if (!step) this.steps.set(key, (step = { kind: summarized.kind, step: summarized.step, partial: false, files: [] }));
    step.partial ||= summarized.partial;
    step.files.push(summarized.file);
    this.byPath.set(path, summarized.file);
  }

  finish(findings: readonly Pick<Finding, 'code' | 'file' | 'line' | 'related'>[]): RunSummary {
    for (const f of findings) {
      const own = this.byPath.get(f.file);
      const concerned = own ? [own] : [...new Set((f.related ?? []).map((r) => this.byPath.get(r.file)))];
      for (const file of concerned) {
        if (!file) continue;
        const seen = (file.findings[f.code] ??= { count: 0, file: f.file, line: f.line });
        seen.count++;
        if (f.file === seen.file && f.line < seen.line) seen.line = f.line;
      }
    }
    const steps = [...this.steps.values()].map((s) => stepOfFiles(s.kind, s.step, s.partial, s.files));
    return { version: SUMMARY_VERSION, framework: this.framework, steps: sortSteps(steps) };
  }
}

/** Steps are keyed by kind and number; an unnumbered file is a step of its own. */
export function stepKey(kind: StepKind, step: number | null, firstFile: string): string {
  return step === null ? `${kind}\u0000file\u0000${firstFile}` : `${kind}\u0000${step}`;
}

/** Numbered steps in order (a rollout before the eval of the same number), then unnumbered ones by file. */
export function sortSteps(steps: StepSummary[]): StepSummary[] {
  return steps.sort((a, b) => {
    if (a.step !== null && b.step !== null && a.step !== b.step) return a.step - b.step;
    if ((a.step === null) !== (b.step === null)) return a.step === null ? 1 : -1;
    if (a.kind !== b.kind) return a.kind === 'rollout' ? -1 : 1;
    const fa = a.files[0]?.path ?? '';
    const fb = b.files[0]?.path ?? '';
    return fa < fb ? -1 : fa > fb ? 1 : 0;
  });
}
