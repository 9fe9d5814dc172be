// A Python dict's entries as the pickle machine keeps them (docs/pt.md): `Map`'s semantics over
// keys shared by the many dicts of a dump that have the same ones (its samples), and what a line
// of such a dict measures (lineLength.ts) remembered per shared shape.
import { dictKey } from './pyText';

/**
 * The keys of dicts, in order. Many dicts share one (a dump's samples have the same keys in the
 * same order): a shared one is never changed, a dict adding a key to it copies it first.
 */
class KeyShape {
  /** Positions of the keys, once searching them in order would cost more. */
  index: Map<unknown, number> | null = null;
  /** Bytes of the keys as a line's `"key": ` parts (lineLength.ts), -1 until counted. */
  keysLength = -1;
  /**
   * For `valuesLength` once shared: each position's last value measured, when a primitive (a
   * number, str, bool or None, whose bytes never change), and its bytes.
   */
  lastValues: unknown[] | null = null;
  lastLengths: Float64Array | null = null;
  /** The depth they were measured at. */
  lastDepth = -1;
  /** The last `positionsOf` names asked of this shape once shared, and their positions. */
  positionsFor: readonly unknown[] | null = null;
  positions: Int32Array | null = null;
  constructor(
    readonly keys: unknown[],
    public shared: boolean,
  ) {}
}

const EMPTY_SHAPE = new KeyShape([], true);
/** No value measured at a position yet (`valuesLength`): equal to no value of a pickle. */
const NOT_MEASURED = Symbol('not measured');
const NO_VALUES: unknown[] = [];

const RECENT_SHAPES = 8;
const REMEMBER_UP_TO = 256;

/** Key shapes made lately, so the next dict with the same keys shares one. One per pickle machine. */
export class RecentShapes {
  private readonly shapes: KeyShape[] = [];

  /**
   * A recent shape whose keys are those of the pairs `items[from…]` (n of them), or null. `values`
   * (n long) gets the pairs' values as the keys are compared: one pass over the pairs.
   */
  find(items: unknown[], from: number, n: number, values: unknown[]): KeyShape | null {
    const shapes = this.shapes;
    for (let s = 0; s < shapes.length; s++) {
      const keys = shapes[s].keys;
      if (keys.length !== n) continue;
      let i = 0;
      for (; i < n; i++) {
        // A str key is mostly the very string the shape holds (a memo read): no class test then.
        const k = items[from + 2 * i];
        if (keys[i] !== k && keys[i] !== dictKey(k)) break;
        values[i] = items[from + 2 * i + 1];
      }
      if (i === n) return shapes[s];
    }
    return null;
  }

  remember(shape: KeyShape): void {
    shape.shared = true;
    // A big dict's keys are not kept past it.
    if (shape.keys.length > REMEMBER_UP_TO) return;
    if (this.shapes.length >= RECENT_SHAPES) this.shapes.pop();
    this.shapes.unshift(shape);
  }
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

  /**
   * Bytes the values take in a line, each by `measure` (at `depth`). The dicts of a shared shape
   * (a dump's samples) mostly repeat their primitive values position by position (None, False, a
   * status): such a value equal to the last one measured there is not measured again.
   */
  valuesLength(measure: (v: unknown, depth: number) => number, depth: number): number {
    const values = this.values;
    const shape = this.shape;
    let n = 0;
    if (!shape.shared) {
      for (let i = 0; i < values.length; i++) n += measure(values[i], depth);
      return n;
    }
    const last = (shape.lastValues ??= new Array<unknown>(values.length));
    const lengths = (shape.lastLengths ??= new Float64Array(values.length));
    if (shape.lastDepth !== depth) {
      // A dump's samples are all at one depth; anything else starts over.
      last.fill(NOT_MEASURED);
      shape.lastDepth = depth;
    }
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      const w = last[i];
      // `===` with 0 and -0 told apart: strs equal by their text; NaN is measured again.
      if (v === w && (v !== 0 || Object.is(v, w))) n += lengths[i];
      else {
        const length = measure(v, depth);
        n += length;
        if (typeof v !== 'object' || v === null) {
          last[i] = v;
          lengths[i] = length;
        }
      }
    }
    return n;
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
   * given the keys of one of the machine's `recent` shapes shares them.
   */
  setPairs(items: unknown[], from: number, recent: RecentShapes): void {
    const n = (items.length - from) >> 1;
    if (this.shape.keys.length === 0 && n > 0) {
      const values = new Array<unknown>(n);
      const shape = recent.find(items, from, n, values);
      if (shape !== null) {
        this.shape = shape;
        this.values = values;
        return;
      }
      for (let i = from; i < items.length; i += 2) this.set(dictKey(items[i]), items[i + 1]);
      if (!this.shape.shared) recent.remember(this.shape);
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
