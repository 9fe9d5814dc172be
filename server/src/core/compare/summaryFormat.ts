// A run summary's version, and how its steps are keyed and ordered: what the builder
// (summary.ts), the merge (summarySteps.ts) and the reader (summaryJson.ts) all follow.
import type { StepKind } from '../run/model';
import type { StepSummary } from './summary';

/**
 * 2: a rollout prompt row ends with its group's response tokens. 3: a rollout step may carry its
 * train_data's log-prob mismatch (`mismatch`).
 */
export const SUMMARY_VERSION = 3;

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
