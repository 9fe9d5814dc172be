// Run summaries (docs/compare.md): what `rollout-lens diff` compares, small enough to keep as a CI
// artifact. A summary lists its files' own figures under their steps; every figure of a step is
// derived from its files in path order (summarySteps.ts), so merging the summaries of shards of a
// run gives exactly the summary of the whole run: integers add, and floating-point sums are only
// ever summed in the same order. The summary's types are here; a file is summarised by
// summarizeFile.ts, a run's files put together by summaryBuilder.ts.
import type { RunFramework, StepKind } from '../run/model';
import type { FormatId, GroupCounts, TrainStepReport } from '../vocabulary/types';
import type { SUMMARY_VERSION } from './summaryFormat';

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

/** A file's summary and the step it belongs to. */
export interface SummarizedFile {
  framework: RunFramework;
  kind: StepKind;
  step: number | null;
  partial: boolean;
  file: FileSummary;
}

/** A train step's mismatch as a summary holds it; null without trainer log-probs or finite tokens. */
export function stepMismatchOf(t: TrainStepReport): StepMismatch | null {
  const m = t.mismatch;
  if (m === null || m.tokens === 0 || !Number.isFinite(m.mean) || !Number.isFinite(m.p99)) return null;
  const file = [...t.files].sort()[0] ?? '';
  return { tokens: m.tokens, mean: m.mean, p99: m.p99, ranks: t.files.length, file, worstSample: m.worstSamples[0]?.sample ?? null };
}
