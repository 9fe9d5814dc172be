// JSON number grammar over bytes, plus Python's `NaN`, `Infinity` and `-Infinity` (what
// `json.dumps` writes for non-finite floats). Validation only; `numberValue` builds the value.
import { JsonError } from './jsonError';

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
