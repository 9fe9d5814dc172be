// Grouping of a rollout file's samples (docs/semantics.md#aborted-group-filter for group order, #group-shape).
import { sampleList, type SampleList } from '../store/sampleList';
import type { SampleRecord } from '../vocabulary/types';

export interface SampleGroup {
  key: string;
  /**
   * Members in group order: ascending `index` when every member has one, else line order. Read by
   * position: the analysis hands a group's rows of the store, so a group of a million members (one
   * key for a whole file) is a list of row numbers, not of objects.
   */
  members: SampleList;
}

export interface Grouping {
  /** Groups in file order (by the line of their first-written member). */
  groups: SampleGroup[];
  /** Samples whose format gave no group key: they cannot be grouped, so no filter runs on them. */
  ungrouped: SampleRecord[];
}

/**
 * Groups samples by `groupKey`. Fully-async runs write groups as they finish, so members of one
 * group may be interleaved with others and out of index order; the result does not depend on
 * line order except as the tie-break docs/semantics.md#aborted-group-filter names (ascending `index`, else line order).
 *
 * Samples without a key are kept apart instead of being made one-sample groups: miles grouped
 * them in memory even if the log lost the key, and a one-sample group would be reported as a
 * zero-std drop that never happened.
 */
export function groupSamples(samples: readonly SampleRecord[]): Grouping {
  const byKey = new Map<string, SampleRecord[]>();
  const ungrouped: SampleRecord[] = [];
  for (const s of samples) {
    if (s.groupKey === null) {
      ungrouped.push(s);
      continue;
    }
    let members = byKey.get(s.groupKey);
    if (!members) byKey.set(s.groupKey, (members = []));
    members.push(s);
  }
  const groups: SampleGroup[] = [];
  for (const [key, members] of byKey) groups.push({ key, members: sampleList(inGroupOrder(members)) });
  groups.sort((a, b) => firstLine(a) - firstLine(b));
  return { groups, ungrouped };
}

/**
 * Group order (docs/semantics.md#aborted-group-filter): ascending `index`, else line order. A mixed group (some members without an index)
 * has no total index order, so it falls back to line order as a whole.
 */
export function inGroupOrder(members: readonly SampleRecord[]): SampleRecord[] {
  const byLine = [...members].sort((a, b) => a.line - b.line);
  if (!byLine.every((s) => s.index !== null)) return byLine;
  return byLine.sort((a, b) => (a.index as number) - (b.index as number) || a.line - b.line);
}

function firstLine(g: SampleGroup): number {
  let min = Infinity;
  for (let k = 0; k < g.members.length; k++) min = Math.min(min, g.members.line(k));
  return min;
}
