// The run view model: plain data the run view panel (VS Code), `rollout-lens report` and
// the chart script in webview/ share. Built by server/src/core/views/runView.ts. Every string that
// comes from a log (reasons, causes, paths, excerpts) is hostile: render it as text only.
import type { RunComparison } from './compareViewModel';

export const RUN_VIEW_VERSION = 3;
/** Samples listed per drop reason unless the caller says otherwise. */
export const DEFAULT_SAMPLES_PER_REASON = 20;

/** One drop reason as the framework names it, with what it means. */
export interface ReasonInfo {
  /** `group_has_aborted_<cause>` or `zero_std_<r>`, character for character. */
  reason: string;
  /** `rollout/dynamic_filter/drop_<reason>`. */
  metric: string | null;
  kind: 'aborted' | 'zero-std' | 'other';
  /** The cause of an aborted-group drop (`unknown` when none was recorded); null otherwise. */
  cause: string | null;
  /** Who causes it (docs/semantics.md#failure-causes); null for zero-std drops. */
  causeClass: 'infrastructure' | 'policy' | 'scored' | 'unclassified' | null;
  /** The reward of a zero-std drop (`1.0`, `0`, ...), as miles writes it in the reason; null otherwise. */
  reward: string | null;
  /** Its colour family: the cause's class for an aborted group, zero-std, else other (core/views/runHeadline.ts). */
  family: ReasonFamily;
  /** Groups dropped for it over the whole run. */
  groups: number;
}

/** What a drop is coloured by: who caused the abort (docs/semantics.md#failure-causes), or a zero-std group. */
export type ReasonFamily = 'infrastructure' | 'policy' | 'zero-std' | 'other';

/** One run of the run model (core/run/model.ts): one framework's files under one root. Its steps and eval rows name it by index. */
export interface RunSection {
  /** The dump folder D for dump-layout files; else the folder given, or a file's folder. */
  root: string;
  framework: 'miles' | 'verl' | 'slime' | 'other';
  /** The step that lost the largest share of its groups, and why (core/views/runHeadline.ts); null when no step dropped a group. */
  headline: string | null;
  /** Its rollout prompts across steps (core/compare/promptHistory.ts); null when it has none, or they were not followed. */
  prompts: PromptLearning | null;
  /** Groups whose prompts the run view did not follow, the run being too large (core/views/runViewPrompts.ts); 0 normally. */
  promptGroupsOmitted: number;
  /** Its steps' train–inference log-prob mismatch, read from train_data (core/views/runViewMismatch.ts); null when the run has no train_data. */
  mismatch: RunMismatch | null;
}

/** A step's |Δ log-prob| over the tokens in the loss mask: the engine's figures (core/train/tokenMismatch.ts `MismatchSummary`) as the run view carries them. */
export interface MismatchFigures {
  /** Tokens in the loss mask whose |Δ| is finite (the distribution's). */
  tokens: number;
  /** Tokens in the loss mask where either log-prob is NaN or infinite. */
  nonFinite: number;
  mean: number;
  p50: number;
  p99: number;
  max: number;
  /** p50 and p99 from a histogram (a step of more than EXACT_TOKENS, 4 Mi, tokens; within 1.1%). */
  approximate: boolean;
}

/** Where a worst sample or token is: its `Sample.index`, and its line in the step's rollout dump when that is in the run (`source`: for an editor to open it). */
export interface MismatchPlace {
  sample: number;
  file: string | null;
  source: string | null;
  line: number | null;
}

/** A step's worst sample by mean |Δ| over its loss-mask tokens (core/train/tokenMismatch.ts `WorstSample`). */
export interface MismatchWorstSample extends MismatchPlace {
  mean: number;
  tokens: number;
  max: number;
}

/** A step's worst token by |Δ| (core/train/tokenMismatch.ts `WorstToken`). */
export interface MismatchWorstToken extends MismatchPlace {
  /** Position in the response (0 = its first token). */
  position: number;
  token: number | null;
  /** Its text from the run's tokenizer, escaped to be visible (core/tokenizer/tokenText.ts); null without one. Log-derived: text only. */
  text: string | null;
  rolloutLogProb: number | null;
  trainLogProb: number | null;
  absDiff: number;
}

/** One step's mismatch figures in the run view. */
export interface MismatchStep extends MismatchFigures {
  step: number;
  /** The samples of the largest mean |Δ|, worst first (at most 5, the engine's). */
  worstSamples: MismatchWorstSample[];
  /** The tokens of the largest |Δ|, worst first (at most 5, the engine's). */
  worstTokens: MismatchWorstToken[];
}

/**
 * Where token texts came from (core/tokenizer/runTokenizer.ts): the `tokenizer` setting, miles' own
 * copy in the dump folder (`D/tokenizer/`, written at start), or the checkpoint that the dashboard's
 * `D/dashboard/meta.json` names as `hf_checkpoint` (docs/editors.md#token-text).
 */
export interface TokenizerNote {
  /** The tokenizer.json read, as the view names files. */
  file: string;
  /** Its decoder's kinds (`ByteLevel`, `Replace, ByteFallback, Fuse, Strip`), or `none`. */
  decoder: string;
  from: 'setting' | 'dump' | 'hf_checkpoint';
  /** The file that named it (the dashboard's meta.json) when `from` is `hf_checkpoint`; else null. */
  namedBy: string | null;
}

/** A run's train–inference mismatch over its steps, and where it started to drift. */
export interface RunMismatch {
  /** Steps whose train_data holds trainer log-probs, in step order. */
  steps: MismatchStep[];
  /** Steps with train_data but no trainer `log_probs` (the actor had not computed them at the dump). */
  stepsWithoutLogProbs: number[];
  /** The `logprob-drift` finding of the run (core/train/drift.ts): its step and message; null when no step left the band. */
  drift: { step: number; message: string } | null;
  /** Where the worst tokens' texts came from; null: no tokenizer (set, in the dump folder, or named by it). */
  tokenizer: TokenizerNote | null;
  /** Why no tokenizer gave texts (the setting cannot be read, a checkpoint not followed); null when none was looked for or one was read. */
  tokenizerProblem: string | null;
}

/** A prompt listed as an example, with the sample that names one of its groups. */
export interface PromptExample {
  /** The prompt's identity (docs/compare.md#the-summary): a hash of the prompt, an `instance_id`, a group key. Log text. */
  id: string;
  /** Its groups over the run. */
  groups: number;
  /** The tokens it is listed for (spent on it in all, after it was solved, or on its no-gradient groups). */
  tokens: number;
  step: number | null;
  file: string;
  source: string;
  line: number;
}

/** A run's rollout prompts across its steps: what was never learned, what was learned and still sampled, and the waste. */
export interface PromptLearning {
  /** Distinct prompts, and their groups over the run. */
  prompts: number;
  groups: number;
  /** Prompts none of whose samples passed in any step (`tokens`: all their response tokens). */
  neverLearned: { count: number; tokens: number; examples: PromptExample[] };
  /** Prompts solved in a step and sampled again in a later one (`groups`, `tokens`: those later groups'). */
  solvedStillSampled: { count: number; groups: number; tokens: number; examples: PromptExample[] };
  /** Response tokens of groups that gave no gradient (dropped for any reason, `zero_std_<r>` included), of all groups' tokens. */
  waste: { tokens: number; totalTokens: number; groups: number; examples: PromptExample[] };
}

/** One training step: every rollout file of that step merged. */
export interface StepRow {
  /** Index of its run in `RunView.runs`. */
  run: number;
  /** The step (`rollout_id`, `step`, or the number in the file name); null when nothing says. */
  step: number | null;
  /** Files of the step (display paths). */
  files: string[];
  /** URI-paths or absolute paths of the files, for an editor to reveal them (same order as `files`). */
  sources: string[];
  samples: number;
  groups: number;
  kept: number;
  dropped: number;
  /** Drop reason → groups dropped for it at this step (only reasons that occurred). */
  drops: Record<string, number>;
  /** Drop reason → its dropped groups as a share of the step's groups (0–1). */
  dropShare: Record<string, number>;
  /** Reward (as written in the reason) → zero-std groups dropped with it at this step. */
  zeroStdByReward: Record<string, number>;
  /** Mean of the finite rewards of all samples; null when none. */
  rewardMean: number | null;
  /** Mean response length (tokens) of the samples that record one; null when none. */
  responseLengthMean: number | null;
  /** Share of samples with status `truncated`; null when no sample has a status. */
  truncatedRatio: number | null;
  /** Response tokens of the samples in dropped groups: the rollout compute a drop threw away. */
  droppedTokens: number;
  /** Response tokens of all samples of the step. */
  totalTokens: number;
  /** verl: `critic/score/mean` as verl computes it (rows with output only); null for other frameworks. */
  scoreMeanKept: number | null;
  /** verl: the mean score over every attempt, empty outputs included (a null score counts 0); null for other frameworks. */
  scoreMeanAllAttempts: number | null;
}

/** One eval dataset at one eval step. */
export interface EvalRow {
  /** Index of its run in `RunView.runs`. */
  run: number;
  step: number | null;
  file: string;
  dataset: string;
  samples: number;
  /** Samples per prompt pass@k is grouped by (the dataset's own n) and where it came from. */
  n: number;
  nSource: 'dataset' | 'defaults' | 'global' | 'inferred' | 'default';
  /** miles `eval/<ds>`, verl the dataset's `val-core/<ds>/…/mean@<n>`; null when not finite. */
  score: number | null;
  /** verl: every `val-core/<ds>/…` metric of the data source; empty for other frameworks. */
  valCore: Record<string, number | null>;
  /** `pass@<k>` → value by the dataset's own n. */
  passAtK: Record<string, number | null>;
  /** What older miles reports grouping by the global n, where that differs. */
  wrong: { groupSize: number; passAtK: Record<string, number | null> } | { groupSize: number; crash: string } | null;
}

/** A sample listed under its group's drop reason. */
export interface SampleRef {
  file: string;
  source: string;
  /** 1-based. */
  line: number;
  step: number | null;
  group: string | null;
  index: number | null;
  status: 'pending' | 'completed' | 'truncated' | 'aborted' | 'failed' | null;
  reward: number | null;
  /** Its failure cause (`failureCause`); null when it did not fail (a finished attempt's `Submitted`) or none is recorded. */
  cause: string | null;
  /** Start of the prompt and the response (filled by `attachExcerpts`; log text, render as text). */
  prompt?: string;
  response?: string;
}

export interface RunView {
  version: typeof RUN_VIEW_VERSION;
  /** Reasons in display order: aborted causes (infrastructure, then policy, then others), then zero-std by reward. */
  reasons: ReasonInfo[];
  steps: StepRow[];
  eval: EvalRow[];
  /** Reason → at most `samplesPerReason` samples of groups dropped for it (first group member of each group). */
  samples: Record<string, SampleRef[]>;
  /** Reason → samples of that reason not listed. */
  samplesOmitted: Record<string, number>;
  /** Findings by code over the run (counts). */
  findings: Record<string, number>;
  /** The first findings (errors first, then by file and line), each with its message; `findingRowsOmitted` counts the rest. */
  findingRows: FindingRow[];
  findingRowsOmitted: number;
  /** The runs its steps and eval rows belong to; each is drawn on its own axes. */
  runs: RunSection[];
  /** The worst step over all runs, and why; null when nothing was dropped. */
  headline: string | null;
  /** A metrics log's values beside what the engine recomputed for the same metric and step. */
  logged: LoggedRow[];
  /** When the host read the data (ISO 8601); set by the host, not the engine. */
  readAt?: string;
  /** The editor's comparison of this run (the candidate) with a baseline ("Compare with Run…"); set by the host. */
  comparison?: RunComparison;
  /** The mismatch step to show first and scroll to (the status bar's drift step); set by the host. */
  focusMismatchStep?: number;
  totals: { files: number; samples: number; groups: number; kept: number; dropped: number; droppedTokens: number; totalTokens: number };
}

/** One finding as a row of the run view. */
export interface FindingRow {
  code: string;
  severity: 'error' | 'warning' | 'information' | 'hint';
  message: string;
  file: string;
  /** The file's URI (editor) or path, for opening its sample view. */
  source: string;
  /** 1-based. */
  line: number;
}

/** A metric of a metrics log (`metrics.jsonl`) at one step, with the value recomputed for it. */
export interface LoggedRow {
  /** Index of the run whose step recomputed it. */
  run: number;
  metric: string;
  step: number;
  logged: number;
  recomputed: number;
}
