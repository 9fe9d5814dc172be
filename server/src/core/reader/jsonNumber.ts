// JSON number grammar over bytes, plus Python's `NaN`, `Infinity` and `-Infinity` (what
// `json.dumps` writes for non-finite floats). Validation only; `numberValue` builds the value.
import { JsonError } from './jsonError';
import { utf8Text } from './text';

const MINUS = 0x2d;
const PLUS = 0x2b;
const ZERO = 0x30;
const DOT = 0x2e;

function isDigit(c: number): boolean {
  return (c - ZERO) >>> 0 < 10;
}

function literal(b: Uint8Array, i: number, e: number, word: string): number {
  for (let k = 0; k < word.length; k++) {
    if (i + k >= e || b[i + k] !== word.charCodeAt(k)) throw new JsonError('invalid number', i);
  }
  return i + word.length;
}

/** `i` at the number's first byte; returns the index after it or throws `JsonError`. */
export function skipNumberAt(b: Uint8Array, i: number, e: number): number {
  const start = i;
  let c = b[i];
  if (c === MINUS) {
    c = b[++i];
    if (c === 0x49) return literal(b, i, e, 'Infinity');
  } else if (c === 0x4e) {
    return literal(b, i, e, 'NaN');
  } else if (c === 0x49) {
    return literal(b, i, e, 'Infinity');
  }
  if (i >= e) throw new JsonError('invalid number: no digits', start);
  if (c === ZERO) {
    c = b[++i];
    // A leading zero must stand alone (`01` is not JSON).
    if (i < e && isDigit(c)) throw new JsonError('invalid number: leading zero', start);
  } else if ((c - 0x31) >>> 0 < 9) {
    do c = b[++i];
    while (i < e && isDigit(c));
  } else {
    throw new JsonError('invalid number: no digits', start);
  }
  if (c === DOT && i < e) {
    c = b[++i];
    if (i >= e || !isDigit(c)) throw new JsonError('invalid number: no digits after the decimal point', start);
    do c = b[++i];
    while (i < e && isDigit(c));
  }
  if ((c | 0x20) === 0x65 && i < e) {
    c = b[++i];
    if (c === PLUS || c === MINUS) c = b[++i];
    if (i >= e || !isDigit(c)) throw new JsonError('invalid number: no digits in the exponent', start);
    do c = b[++i];
    while (i < e && isDigit(c));
  }
  return i;
}

/** Value of a validated number literal, and whether Python would read it as an int. */
export function numberValue(text: string): { value: number; isInt: boolean } {
  if (text === 'NaN') return { value: NaN, isInt: false };
  if (text === 'Infinity') return { value: Infinity, isInt: false };
  if (text === '-Infinity') return { value: -Infinity, isInt: false };
  // Same decimal-to-double conversion as JSON.parse (correctly rounded).
  return { value: Number(text), isInt: !/[.eE]/.test(text) };
}

/** What `readNumber` found besides the value. */
export interface NumberFacts {
  /** Python reads the literal as an int (no `.`, `e`, `E`; not NaN/Infinity). */
  isInt: boolean;
  /** An int's text when `String(value)` does not give it back (more than 15 digits; `-0`), else null. */
  literal: string | null;
}

/** `readNumberAt`'s result: the facts and the value (one object the caller keeps: nothing allocated per number). */
export interface NumberRead extends NumberFacts {
  value: number;
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * The value of the validated number `b[s, end)`, as `numberValue` gives it, with its int-ness and
 * literal in `facts`. Integers up to 15 digits and plain decimals (`-0.337484`, `1.0`) of up to 15
 * digits in all are computed from the bytes: digits below 10^15 and a power of ten up to 10^15 are
 * exact doubles, so the one rounding of the division is the correctly rounded result `Number(text)`
 * gives. Anything else goes through the text.
 */
export function readNumber(b: Uint8Array, s: number, end: number, facts: NumberFacts): number {
  const negative = b[s] === MINUS;
  const first = negative ? s + 1 : s;
  let k = first;
  let m = 0;
  for (; k < end; k++) {
    const d = b[k] - ZERO;
    if (d < 0 || d > 9) break;
    m = m * 10 + d;
  }
  const intDigits = k - first;
  if (k === end && intDigits <= 15) {
    facts.isInt = true;
    facts.literal = negative && m === 0 ? '-0' : null;
    return negative ? -m : m;
  }
  if (k < end && b[k] === DOT) {
    let f = k + 1;
    for (; f < end; f++) {
      const d = b[f] - ZERO;
      if (d < 0 || d > 9) break;
      m = m * 10 + d;
    }
    const fraction = f - k - 1;
    if (f === end && intDigits + fraction <= 15) {
      facts.isInt = false;
      facts.literal = null;
      const v = m / POW10[fraction];
      return negative ? -v : v;
    }
  }
  const text = utf8Text(b, s, end);
  const number = numberValue(text);
  facts.isInt = number.isInt;
  facts.literal = number.isInt ? text : null;
  return number.value;
}

/**
 * `i` at a JSON value that should be a number: the index after it, its value, int-ness and literal
 * in `facts`, exactly as `skipNumberAt` + `readNumber` give them. Plain integers and decimals of up to
 * 15 digits (`12`, `-3`, `1.0`) are read in one pass here; anything else (exponents, more digits,
 * NaN, a malformed number) goes through those two.
 */
export function readNumberAt(b: Uint8Array, i: number, e: number, facts: NumberRead): number {
  let k = i;
  const negative = b[k] === 0x2d;
  if (negative) k++;
  const first = k;
  let m = 0;
  while (k < e) {
    const d = b[k] - 48;
    if (d < 0 || d > 9) break;
    m = m * 10 + d;
    k++;
  }
  const intDigits = k - first;
  // JSON: one digit at least, no leading zero.
  if (intDigits > 0 && intDigits <= 15 && (b[first] !== 48 || intDigits === 1)) {
    let c = k < e ? b[k] : 0;
    if (c !== 0x2e && c !== 0x65 && c !== 0x45) {
      facts.isInt = true;
      facts.literal = negative && m === 0 ? '-0' : null;
      facts.value = negative ? -m : m;
      return k;
    }
    if (c === 0x2e) {
      let f = k + 1;
      while (f < e) {
        const d = b[f] - 48;
        if (d < 0 || d > 9) break;
        m = m * 10 + d;
        f++;
      }
      const fraction = f - k - 1;
      c = f < e ? b[f] : 0;
      if (fraction > 0 && intDigits + fraction <= 15 && c !== 0x65 && c !== 0x45) {
        facts.isInt = false;
        facts.literal = null;
        const v = m / POW10[fraction];
        facts.value = negative ? -v : v;
        return f;
      }
    }
  }
  const end = skipNumberAt(b, i, e);
  facts.value = readNumber(b, i, end, facts);
  return end;
}
