// The related lines a finding lists: the group's other members, the first few in group order.
import type { SampleList } from '../store/sampleList';
import type { SampleRecord } from '../vocabulary/types';

/**
 * Related lines a finding lists at most (the first, in group order): a group of a million samples
 * (one group key for a whole file) made each of its findings list every other member, hundreds of
 * megabytes of report for lines nobody reads one by one; its message gives the counts.
 */
export const MAX_RELATED_LINES = 256;

/** The members of `members` but the one at position `except`, the first `MAX_RELATED_LINES` of them. */
export function relatedMembers(members: SampleList, except: number): SampleRecord[] {
  const out: SampleRecord[] = [];
  for (let k = 0; k < members.length && out.length < MAX_RELATED_LINES; k++) if (k !== except) out.push(members.record(k));
  return out;
}
