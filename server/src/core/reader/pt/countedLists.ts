// Whether a value holds a list whose numbers were counted, not kept (`summarize`): a sample built
// in full from its bytes (PickleMachine's `fullSamples`) takes what it reads back from earlier
// samples from the summarising machine, and such a list there has lost its numbers.
import { PyList, pushMembers } from './values';

export function holdsCountedList(value: unknown): boolean {
  const seen = new Set<object>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (v instanceof PyList && v.summarized) return true;
    pushMembers(v, pending);
  }
  return false;
}
