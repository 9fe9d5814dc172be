// What the container opcodes do to the values they build (docs/pt.md): APPEND(S) onto a list (the
// samples list queues its elements for hand-on; with `summarize`, lists of numbers are counted, not
// kept), SETITEM(S) into a dict, tuples and sets, each with its nesting depth checked. A list or
// dict subclass made by a call keeps its items beside its state.
import { PickleError } from './pickleLiterals';
import { HANDED } from './pickleStack';
import type { SampleHandOn } from './sampleHandOn';
import { addSums, depthOf, intSum, NO_ITEMS, PyDict, PyFloat, PyList, PyObject, PySet, PyTuple } from './values';

/** Lists of more numbers than this are counted, not kept, when summarising. */
export const SUMMARIZE_AFTER = 8;

export function isNumber(v: unknown): boolean {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof PyFloat;
}

export function append(m: SampleHandOn, target: unknown, items: unknown[]): void {
  if (target !== null && target === m.samplesList) {
    // The APPEND(S) is the opcode just read: a sample handed on alone here ends before it.
    let pending = 0;
    for (const x of items) if (x !== HANDED) pending++;
    for (const x of items) if (x !== HANDED) m.queueSample(x, pending === 1 ? m.offset - 1 : -1);
    m.samplesList.count += items.length;
    return;
  }
  m.unchanged(target);
  if (target instanceof PyObject) {
    // A list subclass: its items, kept beside the state.
    const list = ((target as PyObject & { list?: PyList }).list ??= new PyList());
    append(m, list, items);
    return;
  }
  if (!(target instanceof PyList)) throw new PickleError(`APPEND to a value that is not a list at byte ${m.offset}`);
  if (target.from >= 0) target.to = m.offset;
  let d = target.depth;
  for (const x of items) d = Math.max(d, depthOf(x) + 1);
  target.depth = m.deeper(d);
  target.count += items.length;
  if (m.summarize && (target.summarized || target.items.length + items.length > SUMMARIZE_AFTER)) {
    let numbers = true;
    for (const x of items) if (!isNumber(x)) numbers = false;
    if (target.summarized && numbers) {
      target.sum = addSums(target.sum, intSum(items));
      return;
    }
    if (!target.summarized && numbers && target.items.every(isNumber)) {
      // The items kept so far are summed before they are dropped.
      target.summarized = true;
      target.sum = addSums(intSum(target.items), intSum(items));
      target.items = NO_ITEMS;
      return;
    }
  }
  // Anything but numbers onto a summarised list: its sum is not known any more.
  if (target.summarized) target.sum = NaN;
  if (target.items === NO_ITEMS) target.items = items.slice();
  else for (const x of items) target.items.push(x);
}

/** `items` from index `from` on, keys and values in turn, into the dict `target`. */
export function setItems(m: SampleHandOn, target: unknown, items: unknown[], from = 0): void {
  m.unchanged(target);
  if (target instanceof PyObject) {
    const dict = ((target as PyObject & { dict?: PyDict }).dict ??= new PyDict());
    setItems(m, dict, items, from);
    return;
  }
  if (!(target instanceof PyDict)) throw new PickleError(`SETITEM on a value that is not a dict at byte ${m.offset}`);
  if ((items.length - from) % 2 !== 0) throw new PickleError(`SETITEMS with an odd number of values at byte ${m.offset}`);
  let d = target.depth;
  target.map.setPairs(items, from, m.recentShapes);
  for (let i = from + 1; i < items.length; i += 2) d = Math.max(d, depthOf(items[i]) + 1);
  target.depth = m.deeper(d);
}

export function tuple(m: SampleHandOn, items: unknown[]): PyTuple {
  let d = 0;
  for (const x of items) d = Math.max(d, depthOf(x));
  return new PyTuple(items, m.deeper(d + 1));
}

/** ADDITEMS: the marked values into the set on top. */
export function addItems(m: SampleHandOn): void {
  const items = m.popMark();
  const s = m.top();
  m.unchanged(s);
  if (!(s instanceof PySet)) throw new PickleError(`ADDITEMS to a value that is not a set at byte ${m.offset}`);
  for (const x of items) s.items.push(x);
  s.depth = m.deeper(Math.max(s.depth, ...items.map((x) => depthOf(x) + 1)));
}

/**
 * EMPTY_LIST: the root dict's `samples` list is recognised here (right after the root's
 * 'samples' key); a list made inside a sample remembers where it starts, so its numbers may be
 * released after the sample is handed on.
 */
export function emptyList(m: SampleHandOn, at: number): PyList {
  const list = new PyList();
  if (m.samplesList === null && m.stack.length > 0 && m.stack.length <= 16 && m.stack[0] instanceof PyDict && m.top() === 'samples') {
    m.samplesList = list;
  } else if (m.releasing && !m.summarize && m.samplesList !== null) {
    list.from = at;
    m.released.keepList(list);
  }
  return list;
}

/** TUPLE1-3, TUPLE, LIST, DICT, EMPTY_SET, ADDITEMS, FROZENSET at `p` (their bytes are the opcode alone). */
export function containerOpcode(m: SampleHandOn, op: number, p: number): void {
  m.input.pos = p + 1;
  switch (op) {
    case 0x85: // TUPLE1
    case 0x86: // TUPLE2
    case 0x87: {
      // TUPLE3
      const n = op - 0x84;
      const items: unknown[] = [];
      for (let i = 0; i < n; i++) items.unshift(m.pop());
      m.push(tuple(m, items));
      return;
    }
    case 0x74: // TUPLE
      m.push(tuple(m, m.popMark()));
      return;
    case 0x6c: {
      // LIST
      const list = new PyList();
      append(m, list, m.popMark());
      m.push(list);
      return;
    }
    case 0x64: {
      // DICT
      const d = new PyDict();
      setItems(m, d, m.popMark());
      m.push(d);
      return;
    }
    case 0x8f: // EMPTY_SET
      m.push(new PySet(false));
      return;
    case 0x90: // ADDITEMS
      addItems(m);
      return;
    default: {
      // FROZENSET
      const s = new PySet(true);
      s.items.push(...m.popMark());
      m.push(s);
    }
  }
}
