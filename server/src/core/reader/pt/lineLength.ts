// The UTF-8 byte length of a sample's JSON line (serialize.ts `sampleLine`) without building the
// line: a record's `byteLength` for a sample read straight from the pickle (scan/ptSampleRecord.ts), equal
// to the length of the line the JSON Lines path reads, so the record is the same either way.
// Follows `toPlain(v, 'line')` and `write` value by value; a value they would refuse (a released
// text or list) throws as they do.
import {
  Blocked,
  countedSum,
  ImagePlaceholder,
  NdArrayPlaceholder,
  NpDtype,
  PyBytes,
  PyDict,
  PyFloat,
  PyGlobal,
  PyList,
  PyObject,
  PySet,
  PyText,
  PyTuple,
  StoragePlaceholder,
  TensorPlaceholder,
} from './values';
import { floatText, pythonKeyText, MAX_DEPTH, textValue } from './serialize';

/** Characters JSON.stringify writes as themselves only when none of these is in the text. */
const NEEDS_CARE = /["\\\u0000-\u001f\u007f-\uffff]/;

/** Bytes of `JSON.stringify(s)` in UTF-8 (a lone surrogate is written as a `\uXXXX` escape). */
export function jsonStringLength(s: string): number {
  if (!NEEDS_CARE.test(s)) return s.length + 2;
  let n = 2;
  const len = s.length;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x20) n += c === 0x22 || c === 0x5c ? 2 : 1;
      else n += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
    } else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < len ? s.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 6;
    } else if (c >= 0xdc00 && c <= 0xdfff) n += 6;
    else n += 3;
  }
  return n;
}

/** Bytes of a number as `write` prints it (integers counted, not printed). */
function numberLength(x: number): number {
  if (Number.isInteger(x) && x < 1e15 && x > -1e15 && !Object.is(x, -0)) {
    let n = x < 0 ? 2 : 1;
    const a = x < 0 ? -x : x;
    // Powers of ten up to 1e15 are exact doubles: no division a digit.
    for (let p = 10; a >= p; p *= 10) n++;
    return n;
  }
  return (Number.isFinite(x) && !Object.is(x, -0) ? String(x) : floatText(x)).length;
}

/** Containers being measured, outermost first: a cycle back to one is `{"$cycle": true}`. */
class Ancestors {
  private readonly near: unknown[] = [];
  /** Past this many levels a set, so a deep value is not searched level by level. */
  private far: Set<unknown> | null = null;

  has(v: unknown): boolean {
    const near = this.near;
    for (let i = 0; i < near.length; i++) if (near[i] === v) return true;
    return this.far !== null && this.far.has(v);
  }

  add(v: unknown): void {
    if (this.near.length < 16) this.near.push(v);
    else (this.far ??= new Set()).add(v);
  }

  /** Nothing being measured (every add deleted again). */
  get empty(): boolean {
    return this.near.length === 0 && (this.far === null || this.far.size === 0);
  }

  delete(v: unknown): void {
    if (this.far !== null && this.far.delete(v)) return;
    this.near.pop();
  }
}

/** `"<key>": ` and a value of `length` bytes (an ASCII key without escapes). */
function member(key: string, length: number): number {
  return key.length + 4 + length;
}

/** `{"<key>": …}` around one member's value of `length` bytes. */
function oneMember(key: string, length: number): number {
  return 2 + member(key, length);
}

/** Bytes of an integral float as `floatText` prints it (`1.0`, `-0.0`, `1e+16`). */
function floatLength(v: number): number {
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return Object.is(v, -0) ? 4 : numberLength(v) + 2;
  return floatText(v).length;
}

/** Bytes of `"key": ` for each key, or -1 when a key is not a str. */
function stringKeysLength(keys: readonly unknown[]): number {
  let n = 0;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (typeof k !== 'string') return -1;
    n += jsonStringLength(k) + 2;
  }
  return n;
}

/** `{"dtype": "…", "shape": [1, 2]}` (an image: mode and size) */
function shaped(first: string, firstLength: number, second: string, dims: number[]): number {
  let list = 2 + (dims.length > 0 ? 2 * (dims.length - 1) : 0);
  for (const d of dims) list += numberLength(d);
  return 2 + member(first, firstLength) + 2 + member(second, list);
}

/**
 * Measures samples' lines, one at a time (it never waits). One per reader: the containers around
 * the value being measured are its own.
 */
export class LineLengths {
  private ancestors = new Ancestors();
  private readonly measure = (v: unknown, depth: number): number => this.lengthOf(v, depth);

  /** Bytes of `write(toPlain(value, 'line'))`. */
  of(value: unknown): number {
    // One a sample would be ~150 bytes of garbage each (its first push reserves room for 17).
    if (!this.ancestors.empty) this.ancestors = new Ancestors();
    return this.lengthOf(value, 0);
  }

  private lengthOf(v: unknown, depth: number): number {
    if (v === null || v === undefined) return 4;
    // Primitives by their type before any class is tested: most values of a sample are numbers and strs.
    switch (typeof v) {
      case 'number':
        return numberLength(v);
      case 'string':
        return jsonStringLength(v);
      case 'boolean':
        return v ? 4 : 5;
      case 'bigint':
        return v.toString().length;
    }
    // The classes are disjoint: the most frequent in a sample first, the placeholders last.
    if (v instanceof PyList) {
      // A summarised list holds no value (no cycle to look for): its length is its count's and sum's.
      if (v.summarized && depth <= MAX_DEPTH) {
        const sum = countedSum(v);
        return oneMember('$numbers', numberLength(v.count)) + (sum === null ? 0 : 2 + member('$sum', numberLength(sum)));
      }
      return this.containerLength(v, depth);
    }
    if (v instanceof PyDict) return this.containerLength(v, depth);
    if (v instanceof PyFloat) return floatLength(v.value);
    if (v instanceof PyText) return jsonStringLength(textValue(v));
    if (v instanceof PyTuple || v instanceof PySet || v instanceof PyObject) return this.containerLength(v, depth);
    if (v instanceof PyBytes) return oneMember('$bytes', 2 + 2 * v.bytes.length);
    if (v instanceof TensorPlaceholder) return oneMember('$tensor', shaped('dtype', jsonStringLength(v.dtype), 'shape', v.shape));
    if (v instanceof NdArrayPlaceholder) return oneMember('$ndarray', shaped('dtype', jsonStringLength(v.dtype), 'shape', v.shape));
    if (v instanceof ImagePlaceholder) return oneMember('$image', shaped('mode', jsonStringLength(v.mode), 'size', v.size));
    if (v instanceof Blocked) return oneMember('$blocked', jsonStringLength(v.callable));
    if (v instanceof PyGlobal) return oneMember('$global', jsonStringLength(v.qualified));
    if (v instanceof NpDtype) return oneMember('$dtype', jsonStringLength(v.str));
    if (v instanceof StoragePlaceholder) return oneMember('$storage', jsonStringLength(v.dtype));
    return depth > MAX_DEPTH ? oneMember('$deep', 4) : 4;
  }

  private containerLength(v: PyList | PyDict | PyTuple | PySet | PyObject, depth: number): number {
    if (depth > MAX_DEPTH) return oneMember('$deep', 4);
    if (this.ancestors.has(v)) return oneMember('$cycle', 4);
    this.ancestors.add(v);
    try {
      if (v instanceof PyDict) return this.dictLength(v, depth);
      if (v instanceof PyList) {
        // A summarised list never gets here: `lengthOf` measures it by its count.
        if (v.released) throw new Error('a released list was asked for after its sample was handed on');
        return this.itemsLength(v.items, depth);
      }
      if (v instanceof PyTuple) return this.itemsLength(v.items, depth);
      if (v instanceof PySet) return oneMember('$set', this.itemsLength(v.items, depth));
      if (v instanceof PyObject) {
        const extra = v as PyObject & { list?: PyList; dict?: PyDict };
        // {"$class": …, "state": …[, "items": …][, "entries": …]}
        let n = 2 + member('$class', jsonStringLength(v.cls)) + 2 + member('state', this.lengthOf(v.state, depth + 1));
        if (extra.list) n += 2 + member('items', this.lengthOf(extra.list, depth + 1));
        if (extra.dict) n += 2 + member('entries', this.lengthOf(extra.dict, depth + 1));
        return n;
      }
    } finally {
      this.ancestors.delete(v);
    }
    return 4;
  }

  private dictLength(v: PyDict, depth: number): number {
    let n = 0;
    let members = 0;
    let strings = true;
    const keysLength = v.map.keysLength(stringKeysLength);
    if (keysLength < 0) strings = false;
    else {
      n = keysLength + v.map.valuesLength(this.measure, depth + 1);
      members = v.map.size;
    }
    if (!strings) {
      // Keys that print alike are one member of the line (the last value), as in `toPlain`; str
      // keys are distinct already (the dict compares them by text).
      const byText = new Map<string, unknown>();
      v.map.forEach((x, k) => byText.set(pythonKeyText(k), x));
      n = 0;
      members = byText.size;
      byText.forEach((x, k) => {
        n += jsonStringLength(k) + 2 + this.lengthOf(x, depth + 1);
      });
    }
    return n + 2 + (members > 0 ? 2 * (members - 1) : 0);
  }

  /** `[a, b, …]` */
  private itemsLength(xs: unknown[], depth: number): number {
    let n = 2 + (xs.length > 0 ? 2 * (xs.length - 1) : 0);
    for (let i = 0; i < xs.length; i++) n += this.lengthOf(xs[i], depth + 1);
    return n;
  }
}

/** Bytes of `write(toPlain(value, 'line'))`, measured once (a reader keeps its `LineLengths`). */
export function sampleLineLength(value: unknown): number {
  return new LineLengths().of(value);
}
