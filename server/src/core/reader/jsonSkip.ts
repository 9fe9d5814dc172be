// Validating and skipping JSON values over the bytes of one line. The scanner (ruleParse.ts)
// validates the whole line (RFC 8259 plus Python's `NaN`, `Infinity`, `-Infinity`), but builds JS
// values only along the key paths a `Rule` (jsonRule.ts) names; everything else is skipped here:
// the long `tokens` / `loss_mask` / `rollout_log_probs` arrays and long strings cost a tight byte
// loop each, with no allocation. Skipping is iterative (an explicit stack of container kinds), so
// 100 000 nesting levels cannot overflow the JS stack; materialising recurses only along the rule
// tree, whose depth the program (not the log) decides.
import { JsonError } from './jsonError';
import { skipNumberAt } from './jsonNumber';
import { runSkipperOf, wasmRoutinesOf } from './lineBuffers';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const OPEN_ARR = 0x5b;
const CLOSE_ARR = 0x5d;

/** 1 for JSON whitespace. */
const WS = new Uint8Array(256);
WS[0x20] = WS[0x09] = WS[0x0a] = WS[0x0d] = 1;
/** 1 for bytes that end a plain ASCII run inside a string: controls, `"`, `\` and non-ASCII (checked as UTF-8). */
const STR_STOP = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) STR_STOP[c] = 1;
for (let c = 0x80; c < 0x100; c++) STR_STOP[c] = 1;
STR_STOP[QUOTE] = STR_STOP[BACKSLASH] = 1;
const HEX = new Uint8Array(256);
for (const ch of '0123456789abcdefABCDEF') HEX[ch.charCodeAt(0)] = 1;
const SIMPLE_ESCAPES = new Uint8Array(256);
for (const ch of '"\\/bfnrt') SIMPLE_ESCAPES[ch.charCodeAt(0)] = 1;

function describe(b: Uint8Array, i: number, e: number): string {
  if (i >= e) return 'unexpected end of line';
  const c = b[i];
  if (c >= 0x20 && c < 0x7f) return `unexpected character '${String.fromCharCode(c)}'`;
  return `unexpected byte 0x${c.toString(16).padStart(2, '0')}`;
}

function fail(reason: string, position: number): never {
  throw new JsonError(reason, position);
}

function skipWs(b: Uint8Array, i: number, e: number): number {
  while (i < e && WS[b[i]] === 1) i++;
  return i;
}

/**
 * Length of the well-formed UTF-8 sequence at `k` (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF). JSON text is UTF-8 (RFC 8259) and Python's reader rejects anything
 * else, so a malformed sequence makes the line invalid instead of becoming U+FFFD silently.
 */
function utf8Sequence(b: Uint8Array, k: number, e: number): number {
  const c = b[k];
  let n: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) n = 2;
  else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c === 0xe0) lo = 0xa0;
    else if (c === 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c === 0xf0) lo = 0x90;
    else if (c === 0xf4) hi = 0x8f;
  } else {
    fail(`invalid UTF-8: byte 0x${c.toString(16)} in string`, k);
  }
  const second = b[k + 1];
  if (k + 1 >= e || second < lo || second > hi) fail(`invalid UTF-8: malformed sequence at byte 0x${c.toString(16)} in string`, k);
  for (let j = 2; j < n; j++) {
    const x = b[k + j];
    if (k + j >= e || (x & 0xc0) !== 0x80) fail(`invalid UTF-8: malformed sequence at byte 0x${c.toString(16)} in string`, k);
  }
  return n;
}

/** `i` at the opening quote; returns the index after the closing quote. */
export function skipString(b: Uint8Array, i: number, e: number): number {
  let k = i + 1;
  for (;;) {
    // A short run here; a long one (response text) in WebAssembly, 16 bytes a step, where the
    // bytes live in its memory. Both stop at the first byte of STR_STOP.
    const short = Math.min(e, k + LONG_TEXT);
    while (k < short && STR_STOP[b[k]] === 0) k++;
    if (k === short && k < e) k = skipLongText(b, k, e);
    if (k >= e) fail('unterminated string', i);
    const c = b[k];
    if (c === QUOTE) return k + 1;
    if (c >= 0x80) {
      k += utf8Sequence(b, k, e);
      continue;
    }
    if (c === BACKSLASH) {
      const x = b[k + 1];
      if (k + 1 < e && SIMPLE_ESCAPES[x] === 1) k += 2;
      else if (x === 0x75 && k + 5 < e && HEX[b[k + 2]] & HEX[b[k + 3]] & HEX[b[k + 4]] & HEX[b[k + 5]]) k += 6;
      else fail('invalid escape in string', k);
    } else {
      fail(`control character 0x${c.toString(16).padStart(2, '0')} in string`, k);
    }
  }
}

/** Plain bytes a string run has before it is handed to WebAssembly. */
const LONG_TEXT = 32;

/** `k` inside a string body: the first STR_STOP byte at or after it (or `e`). */
function skipLongText(b: Uint8Array, k: number, e: number): number {
  const wasm = wasmRoutinesOf(b);
  if (wasm !== null) {
    const base = b.byteOffset;
    k = wasm.skipText(base + k, base + e) - base;
  }
  while (k < e && STR_STOP[b[k]] === 0) k++;
  return k;
}

function skipLiteral(b: Uint8Array, i: number, e: number, word: string): number {
  for (let k = 0; k < word.length; k++) {
    if (i + k >= e || b[i + k] !== word.charCodeAt(k)) fail(describe(b, i + k, e), i + k);
  }
  return i + word.length;
}

/** Container kinds on the skip stack. */
const IN_ARRAY = 1;
const IN_OBJECT = 2;

/** After `,` or `{` in an object: a key, `:`, and whitespace before the value. */
function skipKeyColon(b: Uint8Array, i: number, e: number): number {
  i = skipWs(b, i, e);
  if (b[i] !== QUOTE || i >= e) fail(i >= e ? 'unexpected end of line' : `expected a string key, found ${describe(b, i, e).replace('unexpected ', '')}`, i);
  i = skipWs(b, skipString(b, i, e), e);
  if (b[i] !== COLON || i >= e) fail(`expected ':' after key, found ${describe(b, i, e).replace('unexpected ', '')}`, i);
  return i + 1;
}

/**
 * Validates one value starting at `i` (whitespace allowed before it) and returns the index after
 * it. Where the bytes live in WebAssembly memory (`lineBuffer`), `numberRun.wat`'s `skipValue`
 * skips an array or object in one call (a member the reader does not need, from the first line on,
 * before any JS here is optimised); it answers only where its result is `skipValueJs`'s, and
 * leaves errors and anything unusual to `skipValueJs`, which reports them.
 */
export function skipValue(b: Uint8Array, i: number, e: number): number {
  const c = b[i];
  if (i < e) {
    // A scalar costs less in JS than the call into WebAssembly; and these small functions (what
    // `skipValueJs` calls for the same bytes) spare V8 optimising all of `skipValueJs` for them.
    if (c === QUOTE) return skipString(b, i, e);
    if (NUMBER_START[c] === 1) return skipNumberAt(b, i, e);
    if (c === 0x6e) return skipLiteral(b, i, e, 'null');
    if (c === 0x66) return skipLiteral(b, i, e, 'false');
    if (c === 0x74) return skipLiteral(b, i, e, 'true');
    if (c === OPEN_ARR || c === OPEN_OBJ) {
      const wasm = wasmRoutinesOf(b);
      if (wasm !== null) {
        const base = b.byteOffset;
        const end = wasm.skipValue(base + i, base + e);
        if (end >= 0) return end - base;
      }
    }
  }
  return skipValueJs(b, i, e);
}

/**
 * `skipValue` in JS alone: the whole grammar, errors reported. Iterative: the container stack
 * lives in this call's own array, not on the JS stack; the innermost container's kind is kept in
 * `top`, so a flat value (the usual one) needs no array at all.
 */
export function skipValueJs(b: Uint8Array, i: number, e: number): number {
  let depth = 0;
  let top = 0;
  let outer: number[] | null = null;
  for (;;) {
    // ---- a value ----
    i = skipWs(b, i, e);
    if (i >= e) fail('unexpected end of line', i);
    let c = b[i];
    if (c === OPEN_OBJ || c === OPEN_ARR) {
      const j = skipWs(b, i + 1, e);
      const close = c === OPEN_OBJ ? CLOSE_OBJ : CLOSE_ARR;
      if (b[j] === close && j < e) {
        i = j + 1;
      } else {
        if (depth > 0) (outer ??= []).push(top);
        top = c === OPEN_OBJ ? IN_OBJECT : IN_ARRAY;
        depth++;
        i = c === OPEN_OBJ ? skipKeyColon(b, j, e) : j;
        continue;
      }
    } else if (c === QUOTE) {
      i = skipString(b, i, e);
    } else if (NUMBER_START[c] === 1) {
      i = skipNumberAt(b, i, e);
      // Hot path: the rest of a flat numeric array (token ids, masks, log-probs).
      if (top === IN_ARRAY) i = skipNumberRun(b, i, e);
    } else if (c === 0x74) i = skipLiteral(b, i, e, 'true');
    else if (c === 0x66) i = skipLiteral(b, i, e, 'false');
    else if (c === 0x6e) i = skipLiteral(b, i, e, 'null');
    else fail(describe(b, i, e), i);

    // ---- after a value: close containers, or a comma and the next value ----
    for (;;) {
      if (depth === 0) return i;
      i = skipWs(b, i, e);
      c = b[i];
      if (i >= e) fail('unexpected end of line', i);
      if (c === COMMA) {
        i = top === IN_OBJECT ? skipKeyColon(b, i + 1, e) : i + 1;
        break;
      }
      if ((c === CLOSE_ARR && top === IN_ARRAY) || (c === CLOSE_OBJ && top === IN_OBJECT)) {
        depth--;
        top = depth > 0 ? outer!.pop()! : 0;
        i++;
        continue;
      }
      fail(top === IN_ARRAY ? "expected ',' or ']' in array" : "expected ',' or '}' in object", i);
    }
  }
}

const NUMBER_START = new Uint8Array(256);
for (const ch of '-0123456789NI') NUMBER_START[ch.charCodeAt(0)] = 1;

/**
 * Inside an array, after a number: consumes `, <number>` pairs while they last, so a 100k-element
 * array runs in one tight loop instead of returning to the general state machine per element.
 * Where the line's bytes are WebAssembly memory (`lineBuffer`), `numberRun.wat` takes the common
 * pairs 32 bytes a step and the others (exponents) as `pairEnd` reads them, and stops after a
 * number or at the `,` of a pair it is not sure of, which `pairEnd` takes or leaves to the general
 * path (the end of the array, an error): the same stopping point as the JS loop alone, which runs
 * everywhere else.
 */
function skipNumberRun(b: Uint8Array, i: number, e: number): number {
  const dv = viewOf(b);
  const wasm = runSkipperOf(b);
  let j: number;
  if (wasm === null) {
    while ((j = pairEnd(b, dv, i, e)) >= 0) i = j;
    return i;
  }
  const base = b.byteOffset;
  for (;;) {
    i = wasm(base + i, base + e) - base;
    if ((j = pairEnd(b, dv, i, e)) < 0) return i;
    i = j;
  }
}

/**
 * The end of the `, <number>` pair at `i`, or -1 when there is none of the usual shape (NaN,
 * Infinity, whitespace other than one space, a malformed number: the general path reports it).
 * `(c ^ 0x30) < 10` is the digit test: it is false for every other byte and for `undefined` past
 * the buffer, so the digit loops need no bounds check; overrunning `e` (possible only when the line
 * is cut inside a number) is caught at the end. Runs of two or more digits (token ids, the 16-19
 * fraction digits of a full-precision log-prob) go to `digitsEnd`, eight bytes a step.
 */
function pairEnd(b: Uint8Array, dv: DataView, i: number, e: number): number {
  let c = b[i];
  if (c !== COMMA) return -1;
  let j = i + 1;
  c = b[j];
  if (c === 0x20) c = b[++j];
  if (c === 0x2d) c = b[++j];
  if (c === 0x30) {
    c = b[++j];
    if ((c ^ 0x30) < 10) return -1;
  } else if ((c ^ 0x30) < 10) {
    c = b[++j];
    if ((c ^ 0x30) < 10) {
      j = digitsEnd(dv, j + 1, e);
      c = b[j];
    }
  } else {
    return -1;
  }
  if (c === 0x2e) {
    c = b[++j];
    if ((c ^ 0x30) >= 10) return -1;
    j = digitsEnd(dv, j + 1, e);
    c = b[j];
  }
  if ((c | 0x20) === 0x65) {
    c = b[++j];
    if (c === 0x2b || c === 0x2d) c = b[++j];
    if ((c ^ 0x30) >= 10) return -1;
    do c = b[++j];
    while ((c ^ 0x30) < 10);
  }
  return j > e ? -1 : j;
}

/**
 * Index of the first non-digit at or after `j` (at most `e`), reading two little-endian words per
 * step. A word's mask is nonzero in each byte that is not 0x30-0x39: the high nibble must be 3 and
 * the byte + 6 must stay below 0x40. The add can carry into the next byte only from a byte of 0xfa
 * or more, which is itself flagged and comes first, so the lowest flagged byte is exactly the first
 * non-digit (found by count-trailing-zeros).
 */
function digitsEnd(dv: DataView, j: number, e: number): number {
  while (j + 8 <= e) {
    const w0 = dv.getInt32(j, true);
    const w1 = dv.getInt32(j + 4, true);
    const m0 = ((w0 & 0xf0f0f0f0) ^ 0x30303030) | (((w0 + 0x06060606) & 0xf0f0f0f0) ^ 0x30303030);
    const m1 = ((w1 & 0xf0f0f0f0) ^ 0x30303030) | (((w1 + 0x06060606) & 0xf0f0f0f0) ^ 0x30303030);
    if ((m0 | m1) !== 0) return m0 !== 0 ? j + ((31 - Math.clz32(m0 & -m0)) >> 3) : j + 4 + ((31 - Math.clz32(m1 & -m1)) >> 3);
    j += 8;
  }
  while (j < e && (dv.getUint8(j) ^ 0x30) < 10) j++;
  return j;
}

/**
 * One DataView per byte array: a chunk holds thousands of arrays, so the view is made once. Kept by
 * the array it views (its buffer, offset and length never change), so nothing is shared but the
 * bytes themselves.
 */
const views = new WeakMap<Uint8Array, DataView>();
function viewOf(b: Uint8Array): DataView {
  let view = views.get(b);
  if (view === undefined) {
    view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    views.set(b, view);
  }
  return view;
}
