// The `--format json` contract (re-exported from test/shared) and what "safe for a terminal" means
// for the CLI's text output. Shared by the reliability tests.
export { CONTRACT, parseContract, type ContractReport } from '../shared/jsonContract';

/**
 * Characters that act on a terminal or hide text: C0 controls except `\n`, DEL, C1 controls,
 * line/paragraph separators, bidi embeddings, overrides and isolates, BOM.
 */
export const TERMINAL_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ufeff]/;

/** The first unsafe character and where it is, for an assertion message; null when clean. */
export function firstUnsafe(text: string): string | null {
  const m = TERMINAL_UNSAFE.exec(text);
  if (!m) return null;
  const at = m.index;
  return `U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`;
}
