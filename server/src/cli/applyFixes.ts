// PLACEHOLDER: `rollout-lens check --fix` (issue 4; the eval engineer replaces this).
import type { Finding } from '../core/types';

export interface AppliedFix {
  file: string | null;
  description: string;
}

/** Applies the findings' fixes to the eval config files they name; returns what was done. */
export async function applyFixes(findings: readonly Finding[]): Promise<AppliedFix[]> {
  void findings;
  return [];
}
