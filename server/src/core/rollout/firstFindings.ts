// The first findings of a check by line, the rest only counted (the report's `maxProblems`).
import type { Finding } from '../types';

/**
 * The first `limit` findings of one check by line, ties in the order found: trimming each check's
 * list so leaves the first `limit` of all checks together unchanged (a finding among those is
 * among the first `limit` of its own list).
 */
export class FirstFindings {
  private items: Finding[] = [];
  leftOut = 0;
  /** Once `limit` findings are kept: a finding on this line or after can no longer be among them. */
  private cutoff = Infinity;

  constructor(private readonly limit: number) {}

  /** Whether `wants` is false for every line from `line` on (so a finding there is only counted). */
  wantsNone(line: number): boolean {
    return !(this.limit > 0 && line < this.cutoff);
  }

  /** False (and counted as left out) for a finding that cannot be among the first `limit`. */
  wants(line: number): boolean {
    if (this.limit > 0 && line < this.cutoff) return true;
    this.leftOut++;
    return false;
  }

  push(f: Finding): void {
    this.items.push(f);
    // Sorting as soon as `limit` are held sets the cutoff early (a scan's groups come in line order).
    if (this.items.length === this.limit || this.items.length >= 2 * this.limit + 64) this.trim();
  }

  private trim(): void {
    if (this.items.length < this.limit || this.limit === 0) return;
    this.items.sort((a, b) => a.line - b.line);
    this.leftOut += this.items.length - this.limit;
    this.items.length = this.limit;
    this.cutoff = this.items[this.limit - 1].line;
  }

  list(): Finding[] {
    this.trim();
    return this.items;
  }
}
