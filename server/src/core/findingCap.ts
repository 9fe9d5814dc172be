// The one cap on findings per file (the user's `maxProblems`): the most severe are kept (errors,
// then warnings, then information; within a severity the first by line), and one
// `too-many-problems` summary says how many more there were and of which codes. `check`, the
// report and the editor's diagnostics all show what this keeps. What reads a file keeps at most
// `maxProblems` of each severity (formats/collector.ts, rollout/firstFindings.ts): a bound on
// memory that never changes what the cap keeps, since each finding kept here is among the first
// `maxProblems` of its own severity.
import { severityOf } from './vocabulary/catalog';
import type { Finding, Severity } from './vocabulary/types';

/** Most severe first: what the cap keeps, and the order the editor lists findings in. */
export const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/** How many of `findings` are of each severity. */
export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const n: Record<Severity, number> = { error: 0, warning: 0, information: 0, hint: 0 };
  for (const f of findings) n[f.severity]++;
  return n;
}

/** Most severe first, then by line, then by code. */
export function bySeverity(a: Finding, b: Finding): number {
  return SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || a.line - b.line || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

function plural(n: number): string {
  return `${n} more problem${n === 1 ? '' : 's'}`;
}

/**
 * At most `max` of `findings` (one file's), the most severe first, returned in line order (ties
 * as given), then one `too-many-problems` summary when any was left out: `counted` findings only
 * counted while the file was read, those cut here by code, and those an earlier summary among
 * `findings` stood for (a cap over findings already capped adds them up: one summary, never two).
 * A dump that could not be read to its end (`pt-unreadable`) is kept whatever its severity and
 * line: without it the report would read as the whole file's.
 */
export function capFindings(findings: readonly Finding[], max: number, file: string, counted = 0): Finding[] {
  const limit = Math.max(0, max);
  const byCode = new Map<string, number>();
  let onlyCounted = counted;
  const own: Finding[] = [];
  for (const f of findings) {
    if (f.code !== 'too-many-problems') {
      own.push(f);
      continue;
    }
    let known = 0;
    for (const [code, n] of Object.entries(f.hiddenByCode ?? {})) {
      byCode.set(code, (byCode.get(code) ?? 0) + n);
      known += n;
    }
    onlyCounted += (f.hiddenCount ?? 0) - known;
  }
  const inLines = own.slice().sort((a, b) => a.line - b.line);
  if (inLines.length <= limit && byCode.size === 0 && onlyCounted === 0) return inLines;
  const stops = inLines.filter((f) => f.code === 'pt-unreadable').slice(0, limit);
  const keep = new Set<Finding>(stops);
  for (const f of inLines.filter((f) => f.code !== 'pt-unreadable').sort(bySeverity)) {
    if (keep.size >= limit) break;
    keep.add(f);
  }
  const kept: Finding[] = [];
  for (const f of inLines) {
    if (keep.has(f)) kept.push(f);
    else byCode.set(f.code, (byCode.get(f.code) ?? 0) + 1);
  }
  let cut = 0;
  for (const n of byCode.values()) cut += n;
  const more = cut + onlyCounted;
  if (more === 0) return kept;
  const codes = [...byCode].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  // Those cut here by code; those only counted while reading have no code to name.
  const named = codes.map(([code, n]) => `${code}: ${n}`).join(', ');
  const countedText = onlyCounted > 0 ? `, and ${onlyCounted} more counted while reading` : '';
  kept.push({
    code: 'too-many-problems',
    severity: severityOf('too-many-problems'),
    file,
    line: kept.length ? kept[kept.length - 1].line : 1,
    message: `${plural(more)} not shown (maxProblems = ${limit})${named ? `; most severe shown first; not shown: ${named}${countedText}` : ''}`,
    group: null,
    dataset: null,
    fix: null,
    hiddenCount: more,
    hiddenByCode: Object.fromEntries(codes),
  });
  return kept;
}
