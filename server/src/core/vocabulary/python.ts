// Python semantics the frameworks' numbers and names depend on: `round(x, n)` (half-to-even on the
// exact binary value) and `repr(float)` (shortest round-trip digits, Python's layout).

import { pyFloatRepr } from '../../../../shared/pythonRepr';

export { pyFloatRepr };

/** Python's `repr()` of a number that is an int in Python (JSON integer literal). */
export function pyIntRepr(x: number): string {
  return BigInt(x).toString();
}

/**
 * Python's `round(x, ndigits)` for a float: the exact binary value rounded to `ndigits` decimals,
 * ties to even. Exact ties need the exact value, so they are decided with BigInt arithmetic.
 */
function pyRound(x: number, ndigits: number): number {
  if (!Number.isFinite(x)) return x;
  const [num, den] = exactFraction(x);
  const scale = 10n ** BigInt(Math.max(0, ndigits));
  const scaled = num * scale;
  const q = scaled / den;
  const r = scaled % den;
  const twice = 2n * (r < 0n ? -r : r);
  let n = q;
  if (twice > den || (twice === den && (q & 1n) !== 0n)) n += scaled < 0n ? -1n : 1n;
  // Back to the nearest double through the decimal text, as Python does.
  const result = Number(`${n}e-${Math.max(0, ndigits)}`);
  return result === 0 && (x < 0 || Object.is(x, -0)) ? -0 : result;
}

/** The exact value of a finite double as numerator / denominator (denominator a power of two). */
function exactFraction(x: number): [bigint, bigint] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? -1n : 1n;
  const expBits = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  const mant = expBits === 0 ? frac : frac | (1n << 52n);
  const exp = (expBits === 0 ? 1 : expBits) - 1075;
  if (exp >= 0) return [sign * (mant << BigInt(exp)), 1n];
  return [sign * mant, 1n << BigInt(-exp)];
}

/**
 * `repr(round(v, 1))` where `v` keeps its JSON type: an int stays an int (`round(1, 1) == 1`),
 * a float prints as a float. Used for `zero_std_<r>`.
 */
export function pyRoundRepr(value: number, isInt: boolean, ndigits: number): string {
  if (isInt && Number.isFinite(value)) return pyIntRepr(value);
  return pyFloatRepr(pyRound(value, ndigits));
}
