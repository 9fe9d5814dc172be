// The UTF-8 byte length of a sample's JSON line (serialize.ts `sampleLine`) without building the
// line: a record's `byteLength` for a sample read straight from the pickle (sampleRecord.ts), equal
// to the length of the line the JSON Lines path reads, so the record is the same either way.
// Follows `toPlain(v, 'line')` and `write` value by value; a value they would refuse (a released
// text or list) throws as they do.
import {
  Blocked,
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
import { floatText, keyText, MAX_DEPTH, textValue } from './serialize';

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

/** Bytes of a number as `write` prints it. */
function numberLength(x: number): number {
  return (Number.isFinite(x) && !Object.is(x, -0) ? String(x) : floatText(x)).length;
}

/** `"<key>": ` and a value of `length` bytes (an ASCII key without escapes). */
function member(key: string, length: number): number {
  return key.length + 4 + length;
}

/** `{"<key>": …}` around one member's value of `length` bytes. */
function oneMember(key: string, length: number): number {
  return 2 + member(key, length);
}

/** Bytes of `write(toPlain(value, 'line'))`. */
export function sampleLineLength(value: unknown): number {
  const ancestors = new Set<unknown>();
  const go = (v: unknown, depth: number): number => {
    if (v === null || v === undefined) return 4;
    if (typeof v === 'boolean') return v ? 4 : 5;
    if (typeof v === 'string') return jsonStringLength(v);
    if (v instanceof PyText) return jsonStringLength(textValue(v));
    if (typeof v === 'number') return numberLength(v);
    if (typeof v === 'bigint') return v.toString().length;
    if (v instanceof PyFloat) return floatText(v.value).length;
    if (v instanceof PyBytes) return oneMember('$bytes', 2 + 2 * v.bytes.length);
    if (v instanceof TensorPlaceholder) return oneMember('$tensor', shaped('dtype', jsonStringLength(v.dtype), 'shape', v.shape));
    if (v instanceof NdArrayPlaceholder) return oneMember('$ndarray', shaped('dtype', jsonStringLength(v.dtype), 'shape', v.shape));
    if (v instanceof ImagePlaceholder) return oneMember('$image', shaped('mode', jsonStringLength(v.mode), 'size', v.size));
    if (v instanceof Blocked) return oneMember('$blocked', jsonStringLength(v.callable));
    if (v instanceof PyGlobal) return oneMember('$global', jsonStringLength(v.qualified));
    if (v instanceof NpDtype) return oneMember('$dtype', jsonStringLength(v.str));
    if (v instanceof StoragePlaceholder) return oneMember('$storage', jsonStringLength(v.dtype));
    if (depth > MAX_DEPTH) return oneMember('$deep', 4);
    if (ancestors.has(v)) return oneMember('$cycle', 4);
    ancestors.add(v);
    try {
      if (v instanceof PyList) {
        if (v.summarized) return oneMember('$numbers', numberLength(v.count));
        if (v.released) throw new Error('a released list was asked for after its sample was handed on');
        return items(v.items, depth);
      }
      if (v instanceof PyTuple) return items(v.items, depth);
      if (v instanceof PySet) return oneMember('$set', items(v.items, depth));
      if (v instanceof PyDict) {
        // Keys that print alike are one member of the line (the last value), as in `toPlain`.
        const members = new Map<string, unknown>();
        for (const [k, x] of v.map) members.set(keyText(k), x);
        let n = 2 + (members.size > 0 ? 2 * (members.size - 1) : 0);
        for (const [k, x] of members) n += jsonStringLength(k) + 2 + go(x, depth + 1);
        return n;
      }
      if (v instanceof PyObject) {
        const extra = v as PyObject & { list?: PyList; dict?: PyDict };
        // {"$class": …, "state": …[, "items": …][, "entries": …]}
        let n = 2 + member('$class', jsonStringLength(v.cls)) + 2 + member('state', go(v.state, depth + 1));
        if (extra.list) n += 2 + member('items', go(extra.list, depth + 1));
        if (extra.dict) n += 2 + member('entries', go(extra.dict, depth + 1));
        return n;
      }
    } finally {
      ancestors.delete(v);
    }
    return 4;
  };
  /** `[a, b, …]` */
  const items = (xs: unknown[], depth: number): number => {
    let n = 2 + (xs.length > 0 ? 2 * (xs.length - 1) : 0);
    for (const x of xs) n += go(x, depth + 1);
    return n;
  };
  /** `{"dtype": "…", "shape": [1, 2]}` (an image: mode and size) */
  const shaped = (first: string, firstLength: number, second: string, dims: number[]): number => {
    let list = 2 + (dims.length > 0 ? 2 * (dims.length - 1) : 0);
    for (const d of dims) list += numberLength(d);
    return 2 + member(first, firstLength) + 2 + member(second, list);
  };
  return go(value, 0);
}
