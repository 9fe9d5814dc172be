// The first findings of a check by line, of each severity, the rest only counted: what reading a
// file keeps for the one cap (core/findingCap.ts keeps the most severe `maxProblems`, each among
// the first `maxProblems` of its severity).
import { severityOf, type FindingCode } from '../vocabulary/catalog';
import { countBySeverity } from '../findingCap';
import type { Finding, Severity } from '../vocabulary/types';

/** The first `limit` of each severity of `findings`, in their order. */
export function firstOfEachSeverity(findings: readonly Finding[], limit: number): Finding[] {
  if (findings.length <= limit) return findings.slice();
  const seen = countBySeverity([]);
  return findings.filter((f) => ++seen[f.severity] <= limit);
}

function noCutoffs(): Record<Severity, number> {
  return { error: Infinity, warning: Infinity, information: Infinity, hint: Infinity };
}

/**
 * The first `limit` findings of each severity of one check by line, ties in the order found:
 * trimming each check's list so leaves the first `limit` of each severity of all checks together
 * unchanged (a finding among those is among the first `limit` of its severity in its own list).
 * Lists made together (`FirstFindings.merged`) are merged in that order, ties by line going to the
 * earlier list: each also refuses a finding that another's kept findings already put past the
 * first `limit` of its severity of them all, so it is never built.
 */
export class FirstFindings {
  private items: Finding[] = [];
  leftOut = 0;
  /** Findings held of each severity (trimmed back to `limit`). */
  private held = countBySeverity([]);
  /** Once `limit` findings of a severity are kept: one of it on this line or after can no longer be among them. */
  private readonly cutoff = noCutoffs();
  /** The lists merged with this one, in merge order (this one among them), and its place there. */
  private peers: readonly FirstFindings[] = [this];
  private place = 0;

  constructor(private readonly limit: number) {}

  /** `count` lists of the first `limit` findings, to be merged in this order (each knowing the others). */
  static merged(limit: number, count: number): FirstFindings[] {
    const lists = Array.from({ length: count }, () => new FirstFindings(limit));
    lists.forEach((list, place) => {
      list.peers = lists;
      list.place = place;
    });
    return lists;
  }

  /** Whether `wants` is false for every line from `line` on for a `code` finding (so one there is only counted). */
  wantsNone(line: number, code: FindingCode): boolean {
    return !this.open(line, severityOf(code));
  }

  /** False (and counted as left out) for a `code` finding that cannot be among the first `limit` of its severity. */
  wants(line: number, code: FindingCode): boolean {
    if (this.open(line, severityOf(code))) return true;
    this.leftOut++;
    return false;
  }

  /**
   * Whether a finding of `severity` on `line` can still be among the first `limit` of its severity
   * in the merged lists: a list holding `limit` of them up to its cutoff puts one after that line
   * past them, and one on that line too when it is this list or an earlier one (ties go to the
   * earlier list).
   */
  private open(line: number, severity: Severity): boolean {
    if (!(this.limit > 0)) return false;
    for (const peer of this.peers) {
      const cutoff = peer.cutoff[severity];
      if (line > cutoff || (line === cutoff && peer.place <= this.place)) return false;
    }
    return true;
  }

  push(f: Finding): void {
    this.items.push(f);
    const held = ++this.held[f.severity];
    // Sorting as soon as `limit` are held sets the cutoff early (a scan's groups come in line order).
    if (held === this.limit || held >= 2 * this.limit + 64) this.trim();
  }

  private trim(): void {
    if (this.limit === 0) return;
    this.items.sort((a, b) => a.line - b.line);
    const kept = firstOfEachSeverity(this.items, this.limit);
    this.leftOut += this.items.length - kept.length;
    this.items = kept;
    this.held = countBySeverity(kept);
    // A severity holding `limit` findings: one of it after the last of them is past them.
    const last: Partial<Record<Severity, number>> = {};
    for (const f of kept) if (this.held[f.severity] === this.limit) last[f.severity] = f.line;
    for (const [severity, line] of Object.entries(last) as [Severity, number][]) this.cutoff[severity] = line;
  }

  list(): Finding[] {
    this.trim();
    return this.items;
  }
}
