// The inert values the pickle machine builds (docs/pt.md). Nothing here can run code: a callable
// named by a pickle is at most a name (`PyGlobal`), and a call of one is a record of what would
// have been called.

import { DictMap } from './dictMap';

export { dictKey, LONG_TEXT, PyText, textOf } from './pyText';
export { StoragePlaceholder, TensorPlaceholder } from './tensorView';

/**
 * The items of every list with none (made empty, or its numbers counted): a dump makes millions
 * of lists. Frozen: an item is never pushed here; `append` gives a list items of its own first.
 */
export const NO_ITEMS: unknown[] = Object.freeze([]) as unknown as unknown[];

/** A Python list. With `summarize`, a run of numbers is counted, not kept (tokens, log-probs). */
export class PyList {
  items: unknown[] = NO_ITEMS;
  /** Items appended in all (equals items.length unless summarised). */
  count = 0;
  /** True once numbers were counted instead of kept. */
  summarized = false;
  /**
   * Once summarised: the sum of its numbers while every one is a Python int (miles' `loss_mask`,
   * whose sum is the effective response length); NaN once one is not, or was not summed.
   */
  sum = 0;
  depth = 1;
  /**
   * Where it was made in the pickle (its EMPTY_LIST) and the end of its last append, when it was
   * made inside a sample; -1 otherwise.
   */
  from = -1;
  to = -1;
  /** True while its items (numbers) are released: they are read again from `from`…`to`. */
  released = false;
  /** Handed on, or part of a released sample read again: never changed again (sampleHandOn.ts). */
  handed = false;
}

/**
 * Python's `sum` of a summarised list (`countedSum`), or null when it was not kept: an item was
 * not an int, or the sum is past 2^53 (where a double no longer holds Python's int).
 */
export function countedSum(list: PyList): number | null {
  return Number.isSafeInteger(list.sum) ? list.sum : null;
}

/**
 * `a + b` for two sums of ints, NaN when either is not known or the sum is past 2^53 (two safe
 * integers add exactly up to there, and a rounded sum past it is never a safe integer).
 */
export function addSums(a: number, b: number): number {
  const s = a + b;
  return Number.isSafeInteger(s) ? s : NaN;
}

/** The sum of `items` while every one is an int that a double holds; NaN otherwise. */
export function intSum(items: readonly unknown[]): number {
  let s = 0;
  for (let i = 0; i < items.length; i++) {
    const x = items[i];
    if (typeof x !== 'number' || !Number.isSafeInteger(x)) return NaN;
    s = addSums(s, x);
  }
  return s;
}

export class PyTuple {
  constructor(
    readonly items: unknown[],
    readonly depth: number,
  ) {}
}

/** A Python dict: keys of any (inert) type, in insertion order. */
export class PyDict extends DictMap {
  /** Its entries: the dict itself (one object a dict, not two). */
  get map(): DictMap {
    return this;
  }
  depth = 1;
  /** Made by a call (OrderedDict, a dict subclass): a BUILD may still follow its items. */
  byCall = false;
  /** For an element of the samples list: where its EMPTY_DICT is in the pickle, and the memo's size then; else -1. */
  from = -1;
  slot = -1;
  /** Handed on, or part of a released sample read again: never changed again (sampleHandOn.ts). */
  handed = false;
}

export class PySet {
  readonly items: unknown[] = [];
  constructor(readonly frozen: boolean) {}
  depth = 1;
}

/**
 * A Python float whose value is integral (1.0, -0.0): a plain JS number would lose that it is a
 * float, and miles' rewards 1.0 and 1 mean different things to the analysis (docs/semantics.md).
 * Other floats are plain numbers.
 */
export class PyFloat {
  constructor(readonly value: number) {}
}

export function pyFloat(v: number): number | PyFloat {
  return Number.isInteger(v) ? new PyFloat(v) : v;
}

export class PyBytes {
  constructor(readonly bytes: Uint8Array) {}
}

/** `module.name` as a GLOBAL / STACK_GLOBAL named it; never resolved to anything. */
export class PyGlobal {
  /** `module.name`, made once: the allow-list looks it up at every call (a tensor's rebuild is one). */
  readonly qualified: string;
  constructor(
    readonly module: string,
    readonly name: string,
  ) {
    this.qualified = `${module}.${name}`;
  }
}

/** An instance made by NEWOBJ (then BUILD): the class name and the state it was given. */
export class PyObject {
  state: unknown = null;
  depth = 1;
  constructor(readonly cls: string) {}
}

export class NdArrayPlaceholder {
  dtype = '';
  shape: number[] = [];
}

/** numpy.dtype(...) as pickled: the type string, and the byte order BUILD gives. */
export class NpDtype {
  order = '|';
  constructor(readonly code: string) {}
  get str(): string {
    return this.order + this.code;
  }
}

export class ImagePlaceholder {
  mode = '';
  size: number[] = [];
}

/** What a call of a callable outside the allow-list would have returned: nothing was run. */
export class Blocked {
  constructor(readonly callable: string) {}
}

export function depthOf(v: unknown): number {
  // Most values are numbers, strs and None: no class to test them against.
  if (typeof v !== 'object' || v === null) return 0;
  if (v instanceof PyList || v instanceof PyDict || v instanceof PyTuple || v instanceof PySet || v instanceof PyObject) return v.depth;
  return 0;
}

/**
 * Pushes onto `todo` the values `x` holds: a list's, tuple's or set's items, a dict's keys and
 * values, an instance's state and its list and dict parts. The walks over a value graph share it.
 */
export function pushMembers(x: object, todo: unknown[]): void {
  if (x instanceof PyList || x instanceof PyTuple || x instanceof PySet) for (const y of x.items) todo.push(y);
  else if (x instanceof PyDict) for (const [k, y] of x.map) todo.push(k, y);
  else if (x instanceof PyObject) {
    const extra = x as PyObject & { list?: PyList; dict?: PyDict };
    todo.push(x.state, extra.list, extra.dict);
  }
}
