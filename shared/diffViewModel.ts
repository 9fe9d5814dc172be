// What the diff page's chart script (webview/src/diffView.ts) reads of `rollout-lens diff`'s JSON
// (server/src/core/compare/diff.ts `RunDiff`, which owns it): the page carries the diff itself, and
// this is the part the charts draw. Strings in it (reasons, dataset names, paths) come from logs.

export interface DiffDelta {
  baseline: number | null;
  candidate: number | null;
  delta: number | null;
}

export interface DiffChartData {
  baseline: { source: string };
  candidate: { source: string };
  steps: {
    kind: 'rollout' | 'eval';
    baseline: number | null;
    candidate: number | null;
    dropRate: DiffDelta;
    zeroStdShare: DiffDelta;
    rewardMean: DiffDelta;
    /** Per drop reason, its dropped groups / groups on each side. */
    causes: Record<string, DiffDelta>;
  }[];
  datasets: {
    name: string;
    baselineStep: number | null;
    candidateStep: number | null;
    score: DiffDelta;
    passAtK: Record<string, DiffDelta>;
  }[];
}
