// Python's `repr(float)`: the one piece of Python semantics both the engine and the editor need
// (the engine writes metric values as Python prints them; the client shows them the same way).

/** Python's `repr()` of a float: `1.0`, `0.1`, `1e-05`, `1e+16`, `nan`, `inf`, `-inf`. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // Shortest round-trip digits, as both languages pick them; only the layout differs.
  const [mantissa, expText] = x.toExponential().split('e');
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const exp = Number(expText);
  let body: string;
  if (exp < -4 || exp >= 16) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const e = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : `${Math.abs(exp)}`;
    body = `${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${e}`;
  } else if (exp < 0) {
    body = `0.${'0'.repeat(-exp - 1)}${digits}`;
  } else if (digits.length <= exp + 1) {
    body = `${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
  } else {
    body = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  }
  return negative ? `-${body}` : body;
}
