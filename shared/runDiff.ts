// What `rollout-lens diff` writes and `rolloutLens/compareRuns` answers: the JSON shape of a diff
// of two runs (docs/compare.md#diff). The wire's type lives here, beside the views that render it;
// the engine (core/compare/diff.ts and its parts) builds it and imports it from here, so shared/
// depends on nothing in the engine.

export const DIFF_VERSION = 1;

/** A step's kind: a rollout step (training) or an eval step. */
export type StepKind = 'rollout' | 'eval';

/** A file-system path and a 1-based line. */
export interface Place {
  file: string;
  line: number;
}

/** A figure on both sides; `delta` is candidate − baseline, null when either side has none. */
export interface Delta {
  baseline: number | null;
  candidate: number | null;
  delta: number | null;
}

/** A delta with the paired bootstrap's 95% interval of it (null: no prompt in both runs). */
export interface IntervalDelta extends Delta {
  interval: [number, number] | null;
}

export interface StepDiff {
  kind: StepKind;
  baseline: number | null;
  candidate: number | null;
  groups: Delta;
  samples: Delta;
  /** Dropped groups / groups. */
  dropRate: Delta;
  /** Groups dropped for zero reward std / groups. */
  zeroStdShare: Delta;
  rewardMean: Delta;
  truncatedRatio: Delta;
  noneRewardRatio: Delta;
  /** Per drop reason, dropped groups / groups. */
  causes: Record<string, Delta>;
}

/** A drop reason in both runs; `P`: how its evidence is given (a `Place`; the run view's `PlaceLink`). */
export interface CauseDiff<P = Place> {
  reason: string;
  /** `new`: only the candidate drops for it; `vanished`: only the baseline; `both`. */
  status: 'new' | 'vanished' | 'both';
  /** Dropped groups over the paired steps. */
  groups: Delta;
  /** Dropped groups / groups over the paired steps, in percentage points. */
  ratePoints: Delta;
  /** The sample that names the reason in each step where it rose (candidate) or that lost it (baseline). */
  evidence: { baseline: P[]; candidate: P[] };
}

/** An eval dataset in both runs; `P`: how its evidence is given (a `Place`; the run view's `PlaceLink`). */
export interface DatasetDiff<P = Place> {
  name: string;
  baselineStep: number | null;
  candidateStep: number | null;
  n: Delta;
  samples: Delta;
  noneReward: Delta;
  truncated: Delta;
  /** Fewer samples, or more samples without a reward, in the candidate. */
  shrank: boolean;
  /** Prompts evaluated in both runs (the bootstrap's items). */
  pairedPrompts: number;
  score: IntervalDelta;
  passAtK: Record<string, IntervalDelta>;
  /** The dataset's first sample on each side. */
  evidence: { baseline: P | null; candidate: P | null };
}

export interface PromptFlip {
  kind: StepKind;
  /** The eval dataset; null for a rollout prompt. */
  dataset: string | null;
  id: string;
  baselineStep: number | null;
  candidateStep: number | null;
  /** `kept`, a drop reason, `solved` or `unsolved`. */
  from: string;
  to: string;
  baseline: Place;
  candidate: Place;
}

export interface PromptsDiff {
  /** Prompt-steps found on both sides. */
  paired: number;
  /** Flips counted, by `<from> → <to>`. */
  flips: Record<string, number>;
  /** The first flips, in step order. */
  listed: PromptFlip[];
  /** Flips not listed. */
  omitted: number;
}

export type GateRule =
  | 'new-drop-cause'
  | 'drop-rate-increase'
  | 'score-regression'
  | 'pass-at-k-regression'
  | 'eval-denominator-shrank'
  | 'new-metric-mismatch'
  | 'mismatch-increase';

export interface GateFailure {
  rule: GateRule;
  message: string;
  evidence: Place[];
}

export interface GateResult {
  passed: boolean;
  failures: GateFailure[];
}

export interface SideInfo {
  source: string;
  framework: string | null;
  steps: number;
  samples: number;
}

export interface RunDiff {
  version: typeof DIFF_VERSION;
  baseline: SideInfo;
  candidate: SideInfo;
  /** Steps of each side that found no partner. */
  unpaired: { baseline: number; candidate: number };
  steps: StepDiff[];
  causes: CauseDiff[];
  datasets: DatasetDiff[];
  prompts: PromptsDiff;
  gate: GateResult;
}
