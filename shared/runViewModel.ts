// The run view model: plain data the run view panel (VS Code), `rollout-lens report` and
// the chart script in webview/ share. Built by server/src/core/views/runView.ts. Every string that
// comes from a log (reasons, causes, paths, excerpts) is hostile: render it as text only.

export const RUN_VIEW_VERSION = 1;
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
  /** Groups dropped for it over the whole run. */
  groups: number;
}

/** One training step: every rollout file of that step merged. */
export interface StepRow {
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
}

/** One eval dataset at one eval step. */
export interface EvalRow {
  step: number | null;
  file: string;
  dataset: string;
  samples: number;
  /** Samples per prompt pass@k is grouped by (the dataset's own n) and where it came from. */
  n: number;
  nSource: 'dataset' | 'defaults' | 'global' | 'inferred' | 'default';
  /** `eval/<ds>`; null when not finite. */
  score: number | null;
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
  totals: { files: number; samples: number; groups: number; kept: number; dropped: number; droppedTokens: number; totalTokens: number };
}
