// Inert pickle values → JSON (docs/pt.md): the JSON Lines view of a `.pt` (one sample per line, as
// the analysis and the editor read it) and the canonical form the tests compare with torch.load's
// export (test/fixtures/pt/generate.py writes the same form). Placeholders are objects with one
// `$` key: {"$tensor": {dtype, shape}}, {"$ndarray": …}, {"$image": {mode, size}}, {"$bytes": hex},
// {"$class": name, "state": …}, {"$blocked": callable}, {"$numbers": count, "$sum": sum} (a
// summarised run; `$sum` only while it is known, `countedSum`).
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

/**
 * `line`: special floats stay numbers (written NaN / Infinity, as Python's json does), big
 * integers stay bigint, integral floats stay PyFloat (written `1.0`). `canonical`: JSON-safe, with
 * {"$float": "nan"|"inf"|"-inf"} and {"$int": "digits"} beyond 2^53.
 */
export type PlainMode = 'line' | 'canonical';

export const MAX_DEPTH = 1100;

function hex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

/** Python's `str(key)` for the dict keys json.dumps accepts. */
export function pythonKeyText(k: unknown): string {
  if (typeof k === 'string') return k;
  if (k instanceof PyText) return textValue(k);
  if (k === null) return 'None';
  if (k === true) return 'True';
  if (k === false) return 'False';
  if (typeof k === 'number' || typeof k === 'bigint') return String(k);
  if (k instanceof PyFloat) return floatText(k.value);
  if (k instanceof PyTuple) return `(${k.items.map(pythonKeyText).join(', ')}${k.items.length === 1 ? ',' : ''})`;
  return '?';
}

export function floatText(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  if (Number.isInteger(v)) {
    if (Object.is(v, -0)) return '-0.0';
    return Math.abs(v) < 1e16 ? `${v}.0` : v.toExponential();
  }
  return String(v);
}

/** A long str's text: only asked for while the value is whole (pickleMachine.ts hands it on so). */
export function textValue(t: PyText): string {
  if (t.text === null) throw new Error('a released text was asked for after its sample was handed on');
  return t.text;
}

/** A tensor kept as it is (`toPlain`'s `keepTensors`), for its values to be written in its place. */
type Plain = null | boolean | number | bigint | string | PyFloat | TensorPlaceholder | Plain[] | { [k: string]: Plain };

function obj(entries: [string, Plain][]): { [k: string]: Plain } {
  const o = Object.create(null) as { [k: string]: Plain };
  for (const [k, v] of entries) o[k] = v;
  return o;
}

/**
 * Inert value → plain JSON-like value. Cycles become {"$cycle": true}; past MAX_DEPTH {"$deep": true}.
 * `parent`: the value is a member of `parent` and is made as it is inside `parent`'s value (one
 * level deeper, a reference back to `parent` a cycle).
 */
export function toPlain(value: unknown, mode: PlainMode, parent?: object, keepTensors = false): Plain {
  const ancestors = new Set<unknown>();
  if (parent !== undefined) ancestors.add(parent);
  const go = (v: unknown, depth: number): Plain => {
    if (v === null || v === undefined) return null;
    if (typeof v === 'boolean' || typeof v === 'string') return v;
    if (v instanceof PyText) return textValue(v);
    if (typeof v === 'number') {
      if (mode === 'canonical' && !Number.isFinite(v)) return obj([['$float', Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf']]);
      return v;
    }
    if (typeof v === 'bigint') return mode === 'canonical' ? obj([['$int', v.toString()]]) : v;
    if (v instanceof PyFloat) return mode === 'canonical' ? v.value : v;
    if (v instanceof PyBytes) return obj([['$bytes', hex(v.bytes)]]);
    if (v instanceof TensorPlaceholder && keepTensors && v.view !== null) return v;
    if (v instanceof TensorPlaceholder)
      return obj([
        [
          '$tensor',
          obj([
            ['dtype', v.dtype],
            ['shape', v.shape],
          ]),
        ],
      ]);
    if (v instanceof NdArrayPlaceholder)
      return obj([
        [
          '$ndarray',
          obj([
            ['dtype', v.dtype],
            ['shape', v.shape],
          ]),
        ],
      ]);
    if (v instanceof ImagePlaceholder)
      return obj([
        [
          '$image',
          obj([
            ['mode', v.mode],
            ['size', v.size],
          ]),
        ],
      ]);
    if (v instanceof Blocked) return obj([['$blocked', v.callable]]);
    if (v instanceof PyGlobal) return obj([['$global', v.qualified]]);
    if (v instanceof NpDtype) return obj([['$dtype', v.str]]);
    if (v instanceof StoragePlaceholder) return obj([['$storage', v.dtype]]);
    if (depth > MAX_DEPTH) return obj([['$deep', true]]);
    if (ancestors.has(v)) return obj([['$cycle', true]]);
    ancestors.add(v);
    try {
      if (v instanceof PyList) {
        if (v.summarized) {
          const sum = countedSum(v);
          return sum === null
            ? obj([['$numbers', v.count]])
            : obj([
                ['$numbers', v.count],
                ['$sum', sum],
              ]);
        }
        if (v.released) throw new Error('a released list was asked for after its sample was handed on');
        return v.items.map((x) => go(x, depth + 1));
      }
      if (v instanceof PyTuple) return v.items.map((x) => go(x, depth + 1));
      if (v instanceof PySet) return obj([['$set', v.items.map((x) => go(x, depth + 1))]]);
      if (v instanceof PyDict) {
        const o = Object.create(null) as { [k: string]: Plain };
        for (const [k, x] of v.map) o[pythonKeyText(k)] = go(x, depth + 1);
        return o;
      }
      if (v instanceof PyObject) {
        const entries: [string, Plain][] = [
          ['$class', v.cls],
          ['state', go(v.state, depth + 1)],
        ];
        const extra = v as PyObject & { list?: PyList; dict?: PyDict };
        if (extra.list) entries.push(['items', go(extra.list, depth + 1)]);
        if (extra.dict) entries.push(['entries', go(extra.dict, depth + 1)]);
        return obj(entries);
      }
    } finally {
      ancestors.delete(v);
    }
    return null;
  };
  return go(value, parent === undefined ? 0 : 1);
}

/** A plain value as JSON text (NaN / Infinity and big integers written as Python's json writes them). */
export function stringify(v: Plain): string {
  return write(v, Infinity) as string;
}

const TOO_LONG = Symbol('too long');

/**
 * A plain value as the pieces of its JSON text: text, and the tensors kept in it (`keepTensors`)
 * in their places, for their values to be written there (exportLines.ts).
 */
export function textWithTensors(v: Plain): (string | TensorPlaceholder)[] {
  const out: (string | TensorPlaceholder)[] = [];
  const text = write(v, Infinity, (t, parts) => {
    out.push(parts.join(''), t);
    parts.length = 0;
  }) as string;
  out.push(text);
  return out;
}

/**
 * `stringify`, or null as soon as the text passes `limit` characters (nothing longer is built).
 * `hole`: where a kept tensor is, given the text written since the last one (it may empty it).
 */
function write(v: Plain, limit: number, hole?: (t: TensorPlaceholder, parts: string[]) => void): string | null {
  const parts: string[] = [];
  let size = 0;
  const push = (x: string): void => {
    size += x.length;
    if (size > limit) throw TOO_LONG;
    parts.push(x);
  };
  const go = (x: Plain): void => {
    if (x === null) push('null');
    else if (typeof x === 'boolean') push(x ? 'true' : 'false');
    else if (typeof x === 'number') push(Number.isFinite(x) && !Object.is(x, -0) ? String(x) : floatText(x));
    else if (typeof x === 'bigint') push(x.toString());
    else if (typeof x === 'string') push(JSON.stringify(x));
    else if (x instanceof PyFloat) push(floatText(x.value));
    else if (x instanceof TensorPlaceholder) {
      if (hole === undefined) throw new Error('a kept tensor in a value written without its values');
      hole(x, parts);
    } else if (Array.isArray(x)) {
      push('[');
      x.forEach((y, i) => {
        if (i) push(', ');
        go(y);
      });
      push(']');
    } else {
      push('{');
      let first = true;
      for (const k of Object.keys(x)) {
        if (!first) push(', ');
        first = false;
        push(JSON.stringify(k));
        push(': ');
        go(x[k]);
      }
      push('}');
    }
  };
  try {
    go(v);
  } catch (err) {
    if (err === TOO_LONG) return null;
    throw err;
  }
  return parts.join('');
}

/** One sample as a JSON Lines line (without the newline). */
export function sampleLine(value: unknown): string {
  return stringify(toPlain(value, 'line'));
}

/** `sampleLine`, or null when the line would be longer than `maxChars` characters. */
export function boundedSampleLine(value: unknown, maxChars: number): string | null {
  return write(toPlain(value, 'line'), maxChars);
}
