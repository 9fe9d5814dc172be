// The run view's comparison with a second run ("Compare with Run…", docs/editors.md): the engine's
// diff of the two runs (`rolloutLens/compareRuns`, the same as `rollout-lens diff --format json`;
// docs/compare.md) as the page draws it, built by shared/compareView.ts. Every string that comes
// from a log (reasons, prompt ids, dataset names, paths, messages) is hostile: render it as text
// only. The page names no file: a link carries the number of a place, and the host opens its own
// copy of that place.

import type { CauseDiff, DatasetDiff, Delta, IntervalDelta } from './runDiff';

/** A figure on both sides, as the diff gives it (shared/runDiff.ts `Delta`). */
export type ComparedDelta = Delta;

/** A delta with the paired bootstrap's 95% interval (shared/runDiff.ts `IntervalDelta`). */
export type ComparedIntervalDelta = IntervalDelta;

/** A link to a sample: the index of its place in `RunComparison.places`, and how it is shown. */
export interface PlaceLink {
  place: number;
  /** `<path relative to its run>:<line>`. */
  label: string;
  /** The run the file is in (by its path); null when it is under neither. */
  side: 'baseline' | 'candidate' | null;
}

export interface ComparedRun {
  /** How the host names the run (a workspace-relative path). */
  name: string;
  framework: string | null;
  steps: number;
  samples: number;
}

export interface ComparedStep {
  kind: 'rollout' | 'eval';
  baseline: number | null;
  candidate: number | null;
  groups: ComparedDelta;
  dropRate: ComparedDelta;
  zeroStdShare: ComparedDelta;
  rewardMean: ComparedDelta;
  truncatedRatio: ComparedDelta;
  /** Per drop reason, dropped groups / groups. */
  causes: Record<string, ComparedDelta>;
}

/** A drop reason as the diff compares it, its evidence as links. */
export type ComparedCause = CauseDiff<PlaceLink>;

/** An eval dataset as the diff compares it (without n and truncation, which the page does not draw), its evidence as links. */
export type ComparedDataset = Omit<DatasetDiff<PlaceLink>, 'n' | 'truncated'>;

export interface FlippedPrompt {
  kind: 'rollout' | 'eval';
  dataset: string | null;
  id: string;
  baselineStep: number | null;
  candidateStep: number | null;
  /** `kept`, a drop reason, `solved` or `unsolved`. */
  from: string;
  to: string;
  baseline: PlaceLink;
  candidate: PlaceLink;
}

export interface RunComparison {
  /** The run chosen to compare with. */
  baseline: ComparedRun;
  /** The run the view shows. */
  candidate: ComparedRun;
  unpaired: { baseline: number; candidate: number };
  gate: { passed: boolean; failures: { rule: string; message: string; evidence: PlaceLink[] }[] };
  causes: ComparedCause[];
  datasets: ComparedDataset[];
  steps: ComparedStep[];
  prompts: { paired: number; flips: Record<string, number>; listed: FlippedPrompt[]; omitted: number };
  /** Every place a link names: a file path as the diff gives it and its 1-based line (the host opens them). */
  places: { file: string; line: number }[];
}
