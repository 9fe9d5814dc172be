// Whether a value holds a list whose numbers were counted, not kept (`summarize`): a sample built
// in full from its bytes (PickleMachine's `fullSamples`) takes what it reads back from earlier
// samples from the summarising machine, and such a list there has lost its numbers.
import { PyDict, PyList, PyObject, PySet, PyTuple } from './values';

export function holdsCountedList(value: unknown): boolean {
  const seen = new Set<object>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (v instanceof PyList) {
      if (v.summarized) return true;
      for (const x of v.items) pending.push(x);
    } else if (v instanceof PyTuple || v instanceof PySet) {
      for (const x of v.items) pending.push(x);
    } else if (v instanceof PyDict) {
      for (const [k, x] of v.map) pending.push(k, x);
    } else if (v instanceof PyObject) {
      const extra = v as PyObject & { list?: PyList; dict?: PyDict };
      pending.push(v.state, extra.list, extra.dict);
    }
  }
  return false;
}
