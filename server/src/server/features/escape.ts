// The markdown escaper (shared/unsafeText.ts lists the others). Log text is written by the policy
// under training, so everything taken from a log is hostile when it reaches a hover: it must
// render as the characters it is, never as markdown, HTML, an image, a link or a `command:` URI.
// Two tools: `inline` backslash-escapes every ASCII punctuation
// character (CommonMark lets any of them be escaped, and an escaped character can start no
// construct: no emphasis, link, autolink, HTML, entity, heading or table cell), and `codeBlock`
// fences text with a backtick run longer than any inside it. Both also make invisible or
// direction-changing characters visible, so text cannot disguise itself.
import { revealInvisible, truncate } from '../../../../shared/unsafeText';

const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/**
 * Escapes text for use inside a markdown paragraph or table cell: one line, every ASCII
 * punctuation character backslash-escaped. Spaces are kept, but a run of spaces cannot start an
 * indented code block because the text is always placed after a label.
 */
export function inline(text: string, max = 300): string {
  const visible = revealInvisible(truncate(text, max), false);
  // Escape first, then the `<U+XXXX>` labels come out escaped too (they are text, not HTML).
  return visible.replace(ASCII_PUNCTUATION, (ch) => `\\${ch}`);
}

/**
 * Wraps text in a fenced code block. Inside a fence nothing is interpreted, so the only way out
 * is a closing fence: the fence is one backtick longer than the longest run of backticks in the
 * text, so no line of the text can close it.
 */
export function codeBlock(text: string, max = 2000): string {
  const visible = revealInvisible(truncate(text, max), true);
  let longest = 0;
  for (const run of visible.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${visible}\n${fence}`;
}

/** A value from a log shown inline as code-like text: escaped, never a real code span. */
export function value(v: unknown, max = 300): string {
  if (v === null || v === undefined) return '\\(none\\)';
  if (typeof v === 'string') return inline(JSON.stringify(v), max);
  if (typeof v === 'number') return inline(numberText(v), max);
  return inline(JSON.stringify(v) ?? String(v), max);
}

/** Numbers as Python prints them where JSON cannot: NaN, inf. */
export function numberText(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  return String(v);
}

/**
 * A code span around log text: nothing inside is interpreted (no emphasis, link, autolink or
 * HTML). The delimiter is a backtick run longer than any inside, so no run of the text can close
 * it; one line only. CommonMark strips one space from each end of a span, so a space is added on
 * both sides when the text starts or ends with a backtick (which would merge with the delimiter)
 * or a space (which would be eaten). Empty text becomes a span of one space (two backticks alone
 * are no span).
 */
export function codeSpan(text: string, max = 300): string {
  const visible = revealInvisible(truncate(text, max), false);
  let longest = 0;
  for (const run of visible.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  if (visible === '') return '` `';
  // Text of spaces only is not stripped, so it needs no pad.
  const pad = !/^ *$/.test(visible) && /^[` ]|[` ]$/.test(visible) ? ' ' : '';
  return `${fence}${pad}${visible}${pad}${fence}`;
}
