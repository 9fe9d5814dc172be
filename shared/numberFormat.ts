// The one number format for people (tree labels, status, the sample and run views): 4 significant
// digits. Messages, hovers, tooltips that name a value and the CLI keep the exact value, as Python
// prints it (pythonRepr.ts): that is what users compare with their logs.

/** Significant digits a person sees. */
const SIGNIFICANT_DIGITS = 4;

/**
 * `x` rounded to 4 significant digits, for a label: `0.6111`, `-0.3333`, `12.35`, `1235`, `0.0001235`.
 * Integers below 1e15 are shown whole (`0`, `12`, `123456`: counts, token ids, rewards of 1 and 0);
 * magnitudes below 1e-4 or from 1e6 on as `1.235e-9` / `1.235e+7`; `nan`, `inf`, `-inf` as Python
 * names them; −0 as `0`.
 */
export function formatForPeople(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return '0';
  if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(x);
  const rounded = Number(x.toPrecision(SIGNIFICANT_DIGITS));
  const abs = Math.abs(rounded);
  if (abs >= 1e-4 && abs < 1e6) return String(rounded);
  const [mantissa, exponent] = rounded.toExponential(SIGNIFICANT_DIGITS - 1).split('e');
  return `${mantissa.replace(/\.?0+$/, '')}e${exponent}`;
}

/** `formatForPeople`, with `missing` for a value that is not there. */
export function formatOrMissing(x: number | null | undefined, missing = '–'): string {
  return x === null || x === undefined ? missing : formatForPeople(x);
}
