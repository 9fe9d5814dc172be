// Findings grouped by code for people (the `rollout-lens report` file): each code once, its
// severity, how many findings it has, the first few of them with their place and message, and how
// many are left out. The most severe codes come first, then the most frequent.
import { SEVERITY_RANK } from '../findingCap';
import type { Finding, Severity } from '../vocabulary/types';

/** Findings listed per code unless the caller says otherwise. */
const DEFAULT_FINDINGS_PER_CODE = 20;

export interface ListedFinding {
  file: string;
  /** 1-based. */
  line: number;
  message: string;
}

export interface FindingGroup {
  code: string;
  severity: Severity;
  /** Findings of this code (listed and left out). */
  count: number;
  /** The first `perCode`, in the order the analysis reported them. */
  listed: ListedFinding[];
  /** `count - listed.length`. */
  omitted: number;
}

/**
 * Groups findings by code. A code's severity is its most severe finding's (the catalog gives one
 * per code; settings may not). A `too-many-problems` summary is a finding like any other: its
 * message says how many more the per-file cap left out.
 */
export function groupFindings(findings: readonly Finding[], perCode: number = DEFAULT_FINDINGS_PER_CODE): FindingGroup[] {
  const limit = Math.max(0, Math.floor(perCode));
  const groups = new Map<string, FindingGroup>();
  for (const f of findings) {
    let g = groups.get(f.code);
    if (!g) groups.set(f.code, (g = { code: f.code, severity: f.severity, count: 0, listed: [], omitted: 0 }));
    if (SEVERITY_RANK[f.severity] < SEVERITY_RANK[g.severity]) g.severity = f.severity;
    g.count++;
    if (g.listed.length < limit) g.listed.push({ file: f.file, line: f.line, message: f.message });
    else g.omitted++;
  }
  return [...groups.values()].sort(
    (a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.count - a.count || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}
