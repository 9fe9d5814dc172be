// A figure on both sides of a diff: one owner for the diff, its datasets and the reports.
import type { Delta } from '../../../../shared/runDiff';

export function delta(baseline: number | null, candidate: number | null): Delta {
  return { baseline, candidate, delta: baseline !== null && candidate !== null ? candidate - baseline : null };
}
