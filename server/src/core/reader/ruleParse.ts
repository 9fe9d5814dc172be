// Builds the wanted parts of one JSON line (see `Rule`) and validates the rest by skipping it.
// Entry point: `parseByRule`. Recursion follows the rule tree only (a handful of levels); unwanted
// containers go to the iterative `skipValue`, so hostile nesting depth cannot reach the JS stack.
import { hashBytes } from './hash';
import { JsonError } from './jsonError';
import { numberValue, skipNumberAt } from './jsonNumber';
import { wasmRoutinesOf } from './lineBuffers';
import { hasByte, ShortTexts, utf8Text } from './text';
import { type Child, INT_LITERALS, type KeyCacheEntry, MAX_LIST_ITEMS, type Rule, type RuleParseResult, type RuleParsedObject, Skipped } from './jsonRule';
import { skipString, skipValue } from './jsonSkip';
import { LongString, TailMeasure, textTail } from './textTail';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const WS = new Uint8Array(256);
WS[0x20] = WS[0x09] = WS[0x0a] = WS[0x0d] = 1;

function skipWs(b: Uint8Array, i: number, e: number): number {
  while (i < e && WS[b[i]] === 1) i++;
  return i;
}

function found(b: Uint8Array, i: number, e: number): string {
  if (i >= e) return 'end of line';
  const c = b[i];
  return c >= 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}

/** Text of a validated string literal `b[s, e)` (quotes included); `texts`: the caller's table of short strings seen before, if any. */
export function stringText(b: Uint8Array, s: number, e: number, texts: ShortTexts | null = null): string {
  if (hasByte(b, BACKSLASH, s + 1, e - 1)) return unescaped(b, s + 1, e - 1);
  return texts === null ? utf8Text(b, s + 1, e - 1) : texts.text(b, s + 1, e - 1);
}

const ESCAPED: Record<number, string> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };

/**
 * The text of a validated string body `b[s, e)` with escapes: the plain runs decoded as UTF-8, each
 * escape as JSON.parse reads it (`\uXXXX` is one UTF-16 code unit, a lone surrogate included).
 */
function unescaped(b: Uint8Array, s: number, e: number): string {
  let out = '';
  let run = s;
  for (let k = s; k < e; k++) {
    if (b[k] !== BACKSLASH) continue;
    if (k > run) out += utf8Text(b, run, k);
    const x = b[k + 1];
    if (x === 0x75) {
      out += String.fromCharCode(parseInt(String.fromCharCode(b[k + 2], b[k + 3], b[k + 4], b[k + 5]), 16));
      k += 5;
    } else {
      out += ESCAPED[x];
      k += 1;
    }
    run = k + 1;
  }
  if (e > run) out += utf8Text(b, run, e);
  return out;
}

/** `-`, a digit, or the `N`/`I` of Python's NaN/Infinity. */
function isNumberStart(c: number): boolean {
  return c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x4e || c === 0x49;
}

function kindAt(c: number): Skipped['kind'] {
  if (c === 0x7b) return 'object';
  if (c === 0x5b) return 'array';
  if (c === QUOTE) return 'string';
  if (c === 0x74 || c === 0x66 || c === 0x6e) return 'literal';
  return 'number';
}

/** Bytes left in a line for a 0/1 mask to be handed to WebAssembly (its blocks are 48 and 16 bytes). */
const MASK_RUN = 64;

/** The members of a `.pt` sample's counted run of numbers (reader/pt/serialize.ts). */
const COUNTED_RULE: Rule = { scalars: true, maxString: 0, children: null };

/**
 * The value of the validated number `b[s, end)`. An integer literal is recorded on `parent`: up to
 * 15 digits its value is computed from the bytes (exact, and its text is `String(value)`); longer
 * ones and everything else go through the text (correctly rounded, as JSON.parse).
 */
function numberAt(b: Uint8Array, s: number, end: number, parent: RuleParsedObject | null, key: string): number {
  const negative = b[s] === 0x2d;
  const first = negative ? s + 1 : s;
  let k = first;
  let value = 0;
  for (; k < end; k++) {
    const d = b[k] - 0x30;
    if (d < 0 || d > 9) break; // `.`, `e`, `E`, or the N/I of NaN/Infinity
    value = value * 10 + d;
  }
  if (k === end && end - first <= 15) {
    if (parent !== null) (parent[INT_LITERALS] ??= []).push(key, negative && value === 0 ? '-0' : null);
    return negative ? -value : value;
  }
  // Floats rarely repeat: decoded directly, not through the short-string table.
  const text = utf8Text(b, s, end);
  const number = numberValue(text);
  if (number.isInt && parent !== null) (parent[INT_LITERALS] ??= []).push(key, text);
  return number.value;
}

/** Keys remembered per member position and rule (see `Rule.keyCache`); longer keys are not kept. */
const MAX_CACHED_KEYS = 64;
const MAX_CACHED_KEY_BYTES = 64;
const NO_BYTES = new Uint8Array(0);

function sameBytes(a: Uint8Array, b: Uint8Array, s: number, e: number): boolean {
  if (a.length !== e - s) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[s + k]) return false;
  return true;
}

/** The key string at `b[i, keyEnd)` (quotes included) and its child rule, from the rule's cache when the bytes match. */
function keyAt(b: Uint8Array, i: number, keyEnd: number, rule: Rule, position: number, texts: ShortTexts): KeyCacheEntry {
  const cache = (rule.keyCache ??= []);
  const hit = position < cache.length ? cache[position] : undefined;
  if (hit !== undefined && sameBytes(hit.bytes, b, i + 1, keyEnd - 1)) return hit;
  const text = stringText(b, i, keyEnd, texts);
  const child = rule.children?.get(text);
  if (position >= MAX_CACHED_KEYS || keyEnd - i - 2 > MAX_CACHED_KEY_BYTES || position > cache.length) return { bytes: NO_BYTES, text, child };
  const entry: KeyCacheEntry = { bytes: new Uint8Array(b.subarray(i + 1, keyEnd - 1)), text, child };
  cache[position] = entry;
  return entry;
}

/** A repeated key replaces the earlier value: its integer-literal mark (if any) goes with it. */
function forgetInt(obj: RuleParsedObject, key: string): void {
  const ints = obj[INT_LITERALS];
  if (ints === undefined) return;
  for (let k = ints.length - 2; k >= 0; k -= 2) if (ints[k] === key) ints.splice(k, 2);
}

/**
 * Scalars built per object beyond the rule's named members. Records have tens of fields; a
 * hostile line with millions of members would otherwise cost seconds and gigabytes to build (they
 * are still validated, just not kept).
 */
export const MAX_BUILT_SCALARS = 1000;

/**
 * Builds the wanted parts of JSON values (see `Rule`). One per scan (or per one-off parse): it holds
 * where the builder stands between its calls (`end`), the short strings it has seen, its hash
 * scratch and its tail measure, so scans in one process never share them.
 */
export class RuleParser {
  /** Where the builder stands: after the value it built last (instead of returning (value, index) pairs). */
  private pos = 0;
  private readonly texts = new ShortTexts();
  private readonly hashWords = new Uint32Array(2);
  /** Measures the tails of long strings (made on first use). */
  private tails: TailMeasure | null = null;

  /** The index after the value the last `member` (or `parse`) built. */
  get end(): number {
    return this.pos;
  }

  /**
   * One member value at `i` (no leading whitespace) built as `parse` builds it under `child`, for
   * callers that walk an object themselves (formats/milesSample/line.ts); `end` is the index after it.
   * Throws `JsonError` on bad input.
   */
  member(b: Uint8Array, i: number, e: number, child: Child | undefined, maxString: number): unknown {
    return this.buildMember(b, i, e, child, true, maxString, null, '');
  }

  /**
   * Validates the JSON text `b[s, e)` and builds what `rule` asks for. Never throws for bad input:
   * a syntax error comes back as a reason and the byte index where it was found.
   */
  parse(b: Uint8Array, s: number, e: number, rule: Rule): RuleParseResult {
    try {
      const i = skipWs(b, s, e);
      const value = this.buildMember(b, i, e, b[i] === 0x7b ? rule : undefined, true, rule.maxString, null, '');
      const end = skipWs(b, this.pos, e);
      if (end < e) throw new JsonError(`unexpected data after the JSON value: ${found(b, end, e)}`, end);
      return { ok: true, value };
    } catch (err) {
      if (err instanceof JsonError) return { ok: false, reason: err.reason, position: err.position };
      // RangeError etc. must not escape a line: report it as the line's problem.
      return { ok: false, reason: err instanceof Error ? err.message : String(err), position: s };
    }
  }

  /**
   * One member value at `i` (no leading whitespace). `wanted`: build scalars; `rule`: the member's own
   * rule, if any. Sets `pos` after the value. Integer literals are recorded on `parent`.
   */
  private buildMember(
    b: Uint8Array,
    i: number,
    e: number,
    rule: Child | undefined,
    wanted: boolean,
    maxString: number,
    parent: RuleParsedObject | null,
    key: string,
  ): unknown {
    if (i >= e) throw new JsonError('unexpected end of line', i);
    const c = b[i];
    if (rule === 'hash') {
      this.pos = skipValue(b, i, e);
      return new Skipped(kindAt(c), this.pos - i, hashBytes(b, i, this.pos, this.hashWords));
    }
    if (rule === 'tail') {
      if (c === QUOTE) {
        this.pos = skipString(b, i, e);
        return this.pos - i - 2 <= maxString
          ? stringText(b, i, this.pos, this.texts)
          : new LongString(this.pos - i, textTail(b, i + 1, this.pos - 1, null, (this.tails ??= new TailMeasure())));
      }
      rule = undefined;
      wanted = true;
    }
    if (rule === 'sum' || rule === 'list') {
      if (c === 0x5b) return rule === 'sum' ? this.sumArray(b, i, e) : this.listArray(b, i, e, maxString);
      if (c === 0x7b && rule === 'sum') return this.countedSum(b, i, e);
      rule = undefined;
      wanted = true;
    }
    if (c === 0x7b && rule !== undefined) return this.buildObject(b, i, e, rule);
    if (rule !== undefined) {
      wanted = true;
      maxString = rule.maxString;
    }
    if (c === QUOTE) {
      this.pos = skipString(b, i, e);
      return wanted && this.pos - i - 2 <= maxString ? stringText(b, i, this.pos, this.texts) : new Skipped('string', this.pos - i, null);
    }
    if (c === 0x7b || c === 0x5b || !wanted) {
      this.pos = skipValue(b, i, e);
      return new Skipped(kindAt(c), this.pos - i, null);
    }
    if (c === 0x74 || c === 0x66 || c === 0x6e) {
      this.pos = skipValue(b, i, e);
      return c === 0x74 ? true : c === 0x66 ? false : null;
    }
    if (!isNumberStart(c)) {
      // Not a value at all (binary junk, a stray word): name the byte, not a number error.
      throw new JsonError(c >= 0x20 && c < 0x7f ? `unexpected character ${found(b, i, e)}` : `unexpected ${found(b, i, e)}`, i);
    }
    this.pos = skipNumberAt(b, i, e);
    return numberAt(b, i, this.pos, parent, key);
  }

  /**
   * `i` at `[`: the sum of an array of numbers (0/1 masks take the fast path), or `Skipped` when an
   * item is not a number. Sets `pos` after `]`.
   */
  private sumArray(b: Uint8Array, i: number, e: number): number | Skipped {
    const start = i;
    let sum = 0;
    let tryMask = true;
    i = skipWs(b, i + 1, e);
    if (b[i] === 0x5d && i < e) {
      this.pos = i + 1;
      return 0;
    }
    for (;;) {
      const c = b[i];
      if ((c === 0x30 || c === 0x31) && (b[i + 1] === 0x2c || b[i + 1] === 0x5d || WS[b[i + 1]] === 1) && i + 1 < e) {
        sum += c - 0x30;
        i++;
        // The rest of a 0/1 mask as Python writes it (`, 1, 1, 0`), 48 bytes a step where the
        // bytes are WebAssembly memory: it stops at the `,` before anything else.
        // Written otherwise (`1,1`), it makes no progress: then the JS loop alone reads the array.
        if (tryMask && b[i] === 0x2c && e - i > MASK_RUN) {
          const wasm = wasmRoutinesOf(b);
          if (wasm !== null) {
            const base = b.byteOffset;
            const to = wasm.maskRun(base + i, base + e) - base;
            sum += wasm.ones();
            tryMask = to > i;
            i = to;
          } else {
            tryMask = false;
          }
        }
      } else if (i < e && isNumberStart(c)) {
        const end = skipNumberAt(b, i, e);
        sum += numberAt(b, i, end, null, '');
        i = end;
      } else {
        this.pos = skipValue(b, start, e);
        return new Skipped('array', this.pos - start, null);
      }
      i = skipWs(b, i, e);
      if (b[i] === 0x2c && i < e) {
        i = skipWs(b, i + 1, e);
        continue;
      }
      if (b[i] === 0x5d && i < e) {
        this.pos = i + 1;
        return sum;
      }
      throw new JsonError(`expected ',' or ']' in array, found ${found(b, i, e)}`, i);
    }
  }

  /**
   * `i` at `{`: the sum a `.pt` dump's counted run of numbers carries as its line's value
   * (`{"$numbers": count, "$sum": sum}`, docs/pt.md), or `Skipped` for any other object. Sets `pos`
   * after `}`.
   */
  private countedSum(b: Uint8Array, i: number, e: number): number | Skipped {
    const o = this.buildObject(b, i, e, COUNTED_RULE);
    const keys = Object.keys(o);
    const count = o['$numbers'];
    const sum = o['$sum'];
    if (keys.length === 2 && keys[0] === '$numbers' && Number.isSafeInteger(count) && Number.isSafeInteger(sum)) return sum as number;
    return new Skipped('object', this.pos - i, null);
  }

  /** `i` at `[`: up to MAX_LIST_ITEMS scalars (strings up to `maxString` bytes), else `Skipped`. */
  private listArray(b: Uint8Array, i: number, e: number, maxString: number): unknown[] | Skipped {
    const start = i;
    const out: unknown[] = [];
    i = skipWs(b, i + 1, e);
    if (b[i] === 0x5d && i < e) {
      this.pos = i + 1;
      return out;
    }
    for (;;) {
      const c = b[i];
      if (i >= e || c === 0x7b || c === 0x5b || out.length >= MAX_LIST_ITEMS) {
        this.pos = skipValue(b, start, e);
        return new Skipped('array', this.pos - start, null);
      }
      const value = this.buildMember(b, i, e, undefined, true, maxString, null, '');
      if (value instanceof Skipped) {
        this.pos = skipValue(b, start, e);
        return new Skipped('array', this.pos - start, null);
      }
      out.push(value);
      i = skipWs(b, this.pos, e);
      if (b[i] === 0x2c && i < e) {
        i = skipWs(b, i + 1, e);
        continue;
      }
      if (b[i] === 0x5d && i < e) {
        this.pos = i + 1;
        return out;
      }
      throw new JsonError(`expected ',' or ']' in array, found ${found(b, i, e)}`, i);
    }
  }

  /** `i` at `{`. Builds the members the rule wants; sets `this.pos` after `}`. */
  private buildObject(b: Uint8Array, i: number, e: number, rule: Rule): RuleParsedObject {
    const obj: RuleParsedObject = {};
    let scalars = 0;
    i = skipWs(b, i + 1, e);
    if (b[i] === 0x7d && i < e) {
      this.pos = i + 1;
      return obj;
    }
    for (let position = 0; ; position++) {
      if (b[i] !== QUOTE || i >= e) throw new JsonError(`expected a string key, found ${found(b, i, e)}`, i);
      const keyEnd = skipString(b, i, e);
      const { text: key, child } = keyAt(b, i, keyEnd, rule, position, this.texts);
      i = skipWs(b, keyEnd, e);
      if (b[i] !== 0x3a || i >= e) throw new JsonError(`expected ':' after key, found ${found(b, i, e)}`, i);
      i = skipWs(b, i + 1, e);
      if (child === undefined && (!rule.scalars || scalars++ >= MAX_BUILT_SCALARS)) {
        i = skipValue(b, i, e);
      } else {
        // Only a repeated key can have a mark to forget (values are never undefined).
        if (obj[key] !== undefined) forgetInt(obj, key);
        const value = this.buildMember(b, i, e, child, rule.scalars, rule.maxString, obj, key);
        i = this.pos;
        // A `__proto__` key would set the prototype of a plain object: never store it.
        if (key !== '__proto__') obj[key] = value;
      }
      i = skipWs(b, i, e);
      const c = b[i];
      if (c === 0x2c && i < e) {
        i = skipWs(b, i + 1, e);
        continue;
      }
      if (c === 0x7d && i < e) {
        this.pos = i + 1;
        return obj;
      }
      throw new JsonError(`expected ',' or '}' in object, found ${found(b, i, e)}`, i);
    }
  }
}

/** `RuleParser.parse` once, by a parser of its own: for a one-off parse (a scan keeps its `RuleParser`). */
export function parseByRule(b: Uint8Array, s: number, e: number, rule: Rule): RuleParseResult {
  return new RuleParser().parse(b, s, e, rule);
}
