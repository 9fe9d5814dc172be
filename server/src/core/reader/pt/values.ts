// The inert values the pickle machine builds (docs/pt.md). Nothing here can run code: a callable
// named by a pickle is at most a name (`PyGlobal`), and a call of one is a record of what would
// have been called.

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

export class PyTuple {
  constructor(
    readonly items: unknown[],
    readonly depth: number,
  ) {}
}

/**
 * The keys of dicts, in order. Many dicts share one (a dump's samples have the same keys in the
 * same order): a shared one is never changed, a dict adding a key to it copies it first.
 */
class KeyShape {
  /** Positions of the keys, once searching them in order would cost more. */
  index: Map<unknown, number> | null = null;
  /** Bytes of the keys as a line's `"key": ` parts (lineLength.ts), -1 until counted. */
  keysLength = -1;
  /** The last `positionsOf` names asked of this shape once shared, and their positions. */
  positionsFor: readonly unknown[] | null = null;
  positions: Int32Array | null = null;
  constructor(
    readonly keys: unknown[],
    public shared: boolean,
  ) {}
}

const EMPTY_SHAPE = new KeyShape([], true);
const NO_VALUES: unknown[] = [];

/** Key shapes made lately, so the next dict with the same keys shares one. */
const recentShapes: KeyShape[] = [];
const RECENT_SHAPES = 8;
const REMEMBER_UP_TO = 256;

function recentShape(items: unknown[], from: number, n: number): KeyShape | null {
  for (let s = 0; s < recentShapes.length; s++) {
    const keys = recentShapes[s].keys;
    if (keys.length !== n) continue;
    let i = 0;
    while (i < n && keys[i] === dictKey(items[from + 2 * i])) i++;
    if (i === n) return recentShapes[s];
  }
  return null;
}

function remember(shape: KeyShape): void {
  shape.shared = true;
  // A big dict's keys are not kept past it.
  if (shape.keys.length > REMEMBER_UP_TO) return;
  if (recentShapes.length >= RECENT_SHAPES) recentShapes.pop();
  recentShapes.unshift(shape);
}

/**
 * A dict's entries, in insertion order, with `Map`'s semantics (keys equal by SameValueZero, a key
 * set again keeps its place). A dump holds millions of small dicts with the same keys: each keeps
 * its values in an array and shares its keys' `KeyShape` with the dicts before it, instead of a
 * hash table of its own; a big dict's keys get a `Map` of positions so it is not searched key by
 * key.
 */
export class DictMap {
  private shape: KeyShape = EMPTY_SHAPE;
  private values: unknown[] = NO_VALUES;

  get size(): number {
    return this.shape.keys.length;
  }

  /** The keys, in order: not to be changed. */
  get keyList(): readonly unknown[] {
    return this.shape.keys;
  }

  /** The values, position for position with `keyList`: not to be changed. */
  get valueList(): readonly unknown[] {
    return this.values;
  }

  /** Bytes the keys take in a line, when `count` gives them; shared dicts count them once. */
  keysLength(count: (keys: readonly unknown[]) => number): number {
    const shape = this.shape;
    if (!shape.shared) return count(shape.keys);
    if (shape.keysLength < 0) shape.keysLength = count(shape.keys);
    return shape.keysLength;
  }

  private find(key: unknown): number {
    const shape = this.shape;
    const keys = shape.keys;
    if (shape.index === null) {
      if (keys.length <= SEARCH_UP_TO || (!shape.shared && keys.length <= INDEX_AFTER)) {
        if (key !== key) {
          // NaN: Map finds it (SameValueZero), `===` never does.
          for (let i = 0; i < keys.length; i++) if (keys[i] !== keys[i]) return i;
          return -1;
        }
        for (let i = 0; i < keys.length; i++) if (keys[i] === key) return i;
        return -1;
      }
      shape.index = new Map();
      for (let i = 0; i < keys.length; i++) shape.index.set(keys[i], i);
    }
    return shape.index.get(key) ?? -1;
  }

  get(key: unknown): unknown {
    const i = this.find(key);
    return i < 0 ? undefined : this.values[i];
  }

  /**
   * The positions of `names` among the keys (-1: not a key), for `valueAt`: searched once for the
   * dicts that share a shape (whose keys no longer change), when asked with the same `names` array.
   */
  positionsOf(names: readonly unknown[]): Int32Array {
    const shape = this.shape;
    if (shape.positionsFor === names && shape.positions !== null) return shape.positions;
    const positions = new Int32Array(names.length);
    for (let k = 0; k < names.length; k++) positions[k] = this.find(names[k]);
    if (shape.shared) {
      shape.positionsFor = names;
      shape.positions = positions;
    }
    return positions;
  }

  /** The value at a position `positionsOf` gave; undefined for -1. */
  valueAt(position: number): unknown {
    return position < 0 ? undefined : this.values[position];
  }

  has(key: unknown): boolean {
    return this.find(key) >= 0;
  }

  set(key: unknown, value: unknown): this {
    const i = this.find(key);
    if (i >= 0) {
      if (this.values === NO_VALUES) this.values = [];
      this.values[i] = value;
      return this;
    }
    this.add(key, value);
    return this;
  }

  /** A key not in the dict. */
  private add(key: unknown, value: unknown): void {
    // As a Map keeps it: -0 as 0.
    if (key === 0) key = 0;
    let shape = this.shape;
    if (shape.shared) {
      shape = this.shape = new KeyShape(shape.keys.slice(), false);
      if (this.values === NO_VALUES) this.values = [];
    }
    if (shape.index !== null) shape.index.set(key, shape.keys.length);
    shape.keys.push(key);
    this.values.push(value);
  }

  /**
   * SETITEMS: `items` from `from` on, keys (already `dictKey`) and values in turn. An empty dict
   * given the keys of a recent one shares them.
   */
  setPairs(items: unknown[], from: number): void {
    const n = (items.length - from) >> 1;
    if (this.shape.keys.length === 0 && n > 0) {
      const shape = recentShape(items, from, n);
      if (shape !== null) {
        const values = new Array<unknown>(n);
        for (let i = 0; i < n; i++) values[i] = items[from + 2 * i + 1];
        this.shape = shape;
        this.values = values;
        return;
      }
      for (let i = from; i < items.length; i += 2) this.set(dictKey(items[i]), items[i + 1]);
      if (!this.shape.shared) remember(this.shape);
      return;
    }
    for (let i = from; i < items.length; i += 2) this.set(dictKey(items[i]), items[i + 1]);
  }

  delete(key: unknown): boolean {
    const i = this.find(key);
    if (i < 0) return false;
    const keys = this.shape.keys.slice();
    keys.splice(i, 1);
    this.shape = new KeyShape(keys, false);
    this.values = this.values.slice();
    this.values.splice(i, 1);
    return true;
  }

  keys(): IterableIterator<unknown> {
    return this.shape.keys.values();
  }

  forEach(f: (value: unknown, key: unknown) => void): void {
    const keys = this.shape.keys;
    const values = this.values;
    for (let i = 0; i < keys.length; i++) f(values[i], keys[i]);
  }

  *entries(): IterableIterator<[unknown, unknown]> {
    const keys = this.shape.keys;
    const values = this.values;
    for (let i = 0; i < keys.length; i++) yield [keys[i], values[i]];
  }

  [Symbol.iterator](): IterableIterator<[unknown, unknown]> {
    return this.entries();
  }
}

/** Keys a shared shape is searched in order for; past it, it gets a `Map` of positions. */
const SEARCH_UP_TO = 8;
/** Keys a dict being built is searched in order for. */
export const INDEX_AFTER = 48;

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

/**
 * A long Python str (at least `LONG_TEXT` UTF-8 bytes; shorter ones are JS strings), and where its
 * bytes are in the pickle. Its `text` is dropped once the sample holding it has been handed on,
 * so the memo keeps where a prompt or response is, not the text; a later memo read decodes it
 * again from those bytes (docs/pt.md).
 */
export class PyText {
  constructor(
    /** Offset of the text's bytes in the pickle. */
    readonly offset: number,
    readonly byteLength: number,
    /** `latin1` for Python 2 strings (BINSTRING), else UTF-8. */
    readonly latin1: boolean,
    public text: string | null,
  ) {}
}

export const LONG_TEXT = 64;

/** A dict key as the map keeps it: a Python str is compared by its text, as Python does. */
export function dictKey(k: unknown): unknown {
  return k instanceof PyText && k.text !== null ? k.text : k;
}

/** A Python str's text (a JS string, or a PyText's text), else undefined. */
export function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v instanceof PyText && v.text !== null) return v.text;
  return undefined;
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
  constructor(
    readonly module: string,
    readonly name: string,
  ) {}
  get qualified(): string {
    return `${this.module}.${this.name}`;
  }
}

/** An instance made by NEWOBJ (then BUILD): the class name and the state it was given. */
export class PyObject {
  state: unknown = null;
  depth = 1;
  constructor(readonly cls: string) {}
}

export class TensorPlaceholder {
  constructor(
    readonly dtype: string,
    readonly shape: number[],
  ) {}
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

/** A torch storage named by BINPERSID (`('storage', torch.FloatStorage, key, location, numel)`). */
export class StoragePlaceholder {
  constructor(readonly dtype: string) {}
}

/** What a call of a callable outside the allow-list would have returned: nothing was run. */
export class Blocked {
  constructor(readonly callable: string) {}
}

export function depthOf(v: unknown): number {
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
