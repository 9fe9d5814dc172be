// A figure on both sides of a diff: one owner for the diff, its datasets and the reports.

/** A figure on both sides; `delta` is candidate − baseline, null when either side has none. */
export interface Delta {
  baseline: number | null;
  candidate: number | null;
  delta: number | null;
}

export function delta(baseline: number | null, candidate: number | null): Delta {
  return { baseline, candidate, delta: baseline !== null && candidate !== null ? candidate - baseline : null };
}
