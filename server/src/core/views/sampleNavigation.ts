// Stepping through a file from the sample view: to the next or previous failed sample (the
// facade's `isFailedSample`: aborted, status `failed`, or a failure cause), or to the next or
// previous dropped group (its first line in the file). Files in line order; no wrapping: past the
// last one there is none.
import type { CauseSettings } from '../vocabulary/causes';
import { eachSample, groupOf, isFailedSample, sampleAt, verdictOf } from '../inspect';
import type { FileDetail } from '../vocabulary/types';

export type NavigationTarget = 'failedSample' | 'droppedGroup';

/** The 1-based line of the nearest failed sample after (1) or before (-1) `line1`; null: none. */
function nearestFailedSample(detail: FileDetail, line1: number, direction: 1 | -1, settings: CauseSettings): number | null {
  let best: number | null = null;
  for (const s of eachSample(detail)) {
    if (!isFailedSample(s, settings)) continue;
    if (direction === 1 ? s.line > line1 && (best === null || s.line < best) : s.line < line1 && (best === null || s.line > best)) best = s.line;
  }
  return best;
}

/** The first line of each dropped group of a file (a group's lowest member line). */
function droppedGroupStarts(detail: FileDetail): number[] {
  const starts: number[] = [];
  if (detail.store && detail.verdicts) {
    const store = detail.store;
    const first = new Map<number, number>();
    for (let i = 0; i < store.length; i++) {
      const gid = store.groupId(i);
      if (gid < 0 || verdictOf(detail, gid) === null) continue;
      const line = store.lineAt(i);
      const had = first.get(gid);
      if (had === undefined || line < had) first.set(gid, line);
    }
    starts.push(...first.values());
  } else {
    for (const g of detail.groups) {
      if (g.kept || g.lines.length === 0) continue;
      let min = g.lines[0];
      for (const l of g.lines) if (l < min) min = l;
      starts.push(min);
    }
  }
  return starts;
}

/**
 * The first line of the nearest dropped group after (1) or before (-1) the group of the sample on
 * `line1` (by first lines; a line outside any group counts as its own), so "previous" from inside
 * a dropped group goes to the one before it, not to its own start. Null: none.
 */
function nearestDroppedGroup(detail: FileDetail, line1: number, direction: 1 | -1): number | null {
  const sample = sampleAt(detail, line1);
  const group = sample ? groupOf(detail, sample) : undefined;
  let from = line1;
  if (group && group.lines.length > 0) for (const l of group.lines) if (l < from) from = l;
  let best: number | null = null;
  for (const start of droppedGroupStarts(detail)) {
    if (direction === 1 ? start > from && (best === null || start < best) : start < from && (best === null || start > best)) best = start;
  }
  return best;
}

/** The target's 1-based line in `direction` from `line1`; null: none that way. */
export function navigate(detail: FileDetail, line1: number, target: NavigationTarget, direction: 1 | -1, settings: CauseSettings): number | null {
  return target === 'failedSample' ? nearestFailedSample(detail, line1, direction, settings) : nearestDroppedGroup(detail, line1, direction);
}
