// The first findings of a check by line, the rest only counted (the report's `maxProblems`).
import type { Finding } from '../types';

/**
 * The first `limit` findings of one check by line, ties in the order found: trimming each check's
 * list so leaves the first `limit` of all checks together unchanged (a finding among those is
 * among the first `limit` of its own list). Lists made together (`FirstFindings.merged`) are
 * merged in that order, ties by line going to the earlier list: each also refuses a finding that
 * another's kept findings already put past the first `limit` of them all, so it is never built.
 */
export class FirstFindings {
  private items: Finding[] = [];
  leftOut = 0;
  /** Once `limit` findings are kept: a finding on this line or after can no longer be among them. */
  private cutoff = Infinity;
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

  /** Whether `wants` is false for every line from `line` on (so a finding there is only counted). */
  wantsNone(line: number): boolean {
    return !this.open(line);
  }

  /** False (and counted as left out) for a finding that cannot be among the first `limit`. */
  wants(line: number): boolean {
    if (this.open(line)) return true;
    this.leftOut++;
    return false;
  }

  /**
   * Whether a finding on `line` can still be among the first `limit` of the merged lists: a list
   * holding `limit` findings up to its cutoff puts one after that line past them, and one on that
   * line too when it is this list or an earlier one (ties go to the earlier list).
   */
  private open(line: number): boolean {
    if (!(this.limit > 0)) return false;
    for (const peer of this.peers) {
      if (line > peer.cutoff || (line === peer.cutoff && peer.place <= this.place)) return false;
    }
    return true;
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
