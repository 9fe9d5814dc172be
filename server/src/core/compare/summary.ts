// Run summaries (docs/compare.md): what `rollout-lens diff` compares, small enough to keep as a CI
// artifact. A summary lists its files' own figures under their steps; every figure of a step is
// derived from its files in path order (summarySteps.ts), so merging the summaries of shards of a
// run gives exactly the summary of the whole run: integers add, and floating-point sums are only
// ever summed in the same order.
import { evalDatasetSamples, sampleCount, verdictOf } from '../inspect';
import { fileStep } from '../logFiles';
import { droppedByCause, runFrameworkOf, stepNumberOf, type RunFramework, type StepKind } from '../run/model';
import type { RunPlan } from '../run/plan';
import type { FileDetail, FileReport, Finding, FormatId, GroupCounts, SampleRecord, TrainStepReport } from '../types';
import { stepOfFiles } from './summarySteps';

/**
 * 2: a rollout prompt row ends with its group's response tokens. 3: a rollout step may carry its
 * train_data's log-prob mismatch (`mismatch`).
 */
export const SUMMARY_VERSION = 3;

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

/**
 * A step's train–inference mismatch from all ranks of its train_data (core/train/tokenMismatch.ts):
 * |Δ log-prob| over the loss mask's finite tokens. Its p99 cannot be merged from parts, so a step's
 * figures come whole from one summary (docs/compare.md#merging).
 */
export interface StepMismatch {
  tokens: number;
  mean: number;
  p99: number;
  /** The step's train_data files (every rank). */
  ranks: number;
  /** The first of them by path (where a gate failure points). */
  file: string;
  /**
   * miles' `Sample.index` of the sample with the highest mean |Δ| (its line in the rollout dump
   * would depend on which files a shard holds, so a summary keeps the index).
   */
  worstSample: number | null;
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
  /** Absent: the step has no train_data with the trainer's log-probs. */
  mismatch?: StepMismatch;
  /** Empty only for a step known from its train_data alone. */
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
function identityOf(s: SampleRecord): string {
  return s.promptKey ?? s.groupKey ?? `line:${s.line}`;
}

interface GroupAcc {
  id: string;
  /** `kept` or its drop reason. */
  reason: string;
  samples: number;
  passes: number;
  rewardSum: number;
  tokens: number;
  /** The sample that names the group: the first aborted member in group order, else the first. */
  line: number;
  rank: [aborted: number, index: number, line: number];
}

function better(a: GroupAcc['rank'], b: GroupAcc['rank']): boolean {
  return a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2];
}

/**
 * Visits a file's samples in line order with their group's id (-1: none), from its store, or from
 * its records and group outcomes (an editor's open document), so both give the same rows.
 */
function eachGroupedSample(detail: FileDetail, visit: (s: SampleRecord, gid: number) => void): void {
  const store = detail.store;
  if (store) {
    for (let i = 0; i < store.length; i++) visit(store.at(i), store.groupId(i));
    return;
  }
  const groupOfLine = new Map<number, number>();
  detail.groups.forEach((g, gi) => {
    for (const line of g.lines) groupOfLine.set(line, gi);
  });
  for (const s of detail.samples) visit(s, groupOfLine.get(s.line) ?? -1);
}

/** A group's drop reason by the id `eachGroupedSample` gives it; null: kept. */
function groupReason(detail: FileDetail, gid: number): string | null {
  if (detail.store) return verdictOf(detail, gid);
  const g = detail.groups[gid];
  return g.kept ? null : g.reason;
}

/** One analysed file (with its detail: `keepDetail: 'store'`, or records) as its summary; null for files that make no step. */
export function summarizeFile(
  report: FileReport,
  plan: RunPlan | null,
): { framework: RunFramework; kind: StepKind; step: number | null; partial: boolean; file: FileSummary } | null {
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
  if (detail) {
    // Groups in the order of their first sample (a store's group ids are that order already).
    const groups: (GroupAcc | undefined)[] = [];
    const order: GroupAcc[] = [];
    eachGroupedSample(detail, (s, gid) => {
      addReward(file.reward, s.reward);
      const length = s.responseLength !== null && Number.isFinite(s.responseLength) ? s.responseLength : 0;
      file.responseTokens += length;
      if (s.status !== null) {
        file.withStatus++;
        if (s.status === 'truncated') file.truncated++;
      }
      if (report.kind !== 'rollout' || gid < 0) return;
      const reason = groupReason(detail, gid);
      if (reason !== null) file.droppedTokens += length;
      const rank: GroupAcc['rank'] = [s.aborted ? 0 : 1, s.index ?? Infinity, s.line];
      let g = groups[gid];
      if (!g) order.push((groups[gid] = g = { id: identityOf(s), reason: reason ?? KEPT, samples: 0, passes: 0, rewardSum: 0, tokens: 0, line: s.line, rank }));
      g.samples++;
      g.tokens += length;
      if (passes(s.reward)) g.passes++;
      if (s.reward !== null && Number.isFinite(s.reward)) g.rewardSum += s.reward;
      if (better(rank, g.rank)) {
        g.rank = rank;
        g.line = s.line;
      }
    });
    const stateIndex = new Map<string, number>([[KEPT, 0]]);
    for (const g of order) {
      let state = stateIndex.get(g.reason);
      if (state === undefined) {
        stateIndex.set(g.reason, (state = file.states.length));
        file.states.push(g.reason);
      }
      if (g.reason !== KEPT && !(g.reason in file.examples)) file.examples[g.reason] = g.line;
      file.prompts.push([g.id, state, g.samples, g.passes, g.rewardSum, g.line, g.tokens]);
    }
  }
  if (report.kind === 'eval' && detail) file.datasets = datasetsOf(report);
  return { framework, kind: report.kind, step, partial: planned?.role === 'partial', file };
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
      const id = identityOf(s);
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

/**
 * Builds a run's summary file by file (each file's store may be released once `add` returns),
 * then takes the run's findings (`finish`).
 */
export class SummaryBuilder {
  private framework: RunFramework | null = null;
  private readonly steps = new Map<string, { kind: StepKind; step: number | null; partial: boolean; files: FileSummary[] }>();
  private readonly byPath = new Map<string, FileSummary>();

  constructor(private readonly plan: RunPlan | null = null) {}

  /** Throws when the file belongs to a run of another framework (a summary is one run). */
  add(report: FileReport): void {
    const summarized = summarizeFile(report, this.plan);
    if (summarized === null) return;
    if (this.framework !== null && this.framework !== summarized.framework) {
      throw new Error(`${report.path}: a ${summarized.framework} file in a ${this.framework} run (a summary holds one run)`);
    }
    this.framework = summarized.framework;
    const key = stepKey(summarized.kind, summarized.step, report.path);
    let step = this.steps.get(key);
    if (!step) this.steps.set(key, (step = { kind: summarized.kind, step: summarized.step, partial: false, files: [] }));
    step.partial ||= summarized.partial;
    step.files.push(summarized.file);
    this.byPath.set(report.path, summarized.file);
  }

  /** `trainSteps`: the run's train_data steps (RunReport.trainSteps), whose mismatch joins their rollout step. */
  finish(findings: readonly Pick<Finding, 'code' | 'file' | 'line' | 'related'>[], trainSteps: readonly TrainStepReport[] = []): RunSummary {
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
    const mismatches = new Map<string, StepMismatch>();
    for (const t of trainSteps) {
      const m = stepMismatchOf(t);
      if (m === null) continue;
      const key = stepKey('rollout', t.step, '');
      mismatches.set(key, m);
      this.framework ??= 'miles'; // train_data is miles' dump (`--dump-details`)
      if (!this.steps.has(key)) this.steps.set(key, { kind: 'rollout', step: t.step, partial: false, files: [] });
    }
    const steps = [...this.steps.entries()].map(([key, s]) => stepOfFiles(s.kind, s.step, s.partial, s.files, mismatches.get(key)));
    return { version: SUMMARY_VERSION, framework: this.framework, steps: sortSteps(steps) };
  }
}

/** A train step's mismatch as a summary holds it; null without trainer log-probs or finite tokens. */
export function stepMismatchOf(t: TrainStepReport): StepMismatch | null {
  const m = t.mismatch;
  if (m === null || m.tokens === 0 || !Number.isFinite(m.mean) || !Number.isFinite(m.p99)) return null;
  const file = [...t.files].sort()[0] ?? '';
  return { tokens: m.tokens, mean: m.mean, p99: m.p99, ranks: t.files.length, file, worstSample: m.worstSamples[0]?.sample ?? null };
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
