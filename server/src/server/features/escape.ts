// Log text is written by the policy under training, so everything taken from a log is hostile
// when it reaches a hover: it must render as the characters it is, never as markdown, HTML, an
// image, a link or a `command:` URI. Two tools: `inline` backslash-escapes every ASCII punctuation
// character (CommonMark lets any of them be escaped, and an escaped character can start no
// construct: no emphasis, link, autolink, HTML, entity, heading or table cell), and `codeBlock`
// fences text with a backtick run longer than any inside it. Both also make invisible or
// direction-changing characters visible, so text cannot disguise itself.

const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

// C0/C1 controls (except tab), DEL, bidi embeddings/overrides/isolates, zero-width and BOM,
// line/paragraph separators. Shown as `<U+XXXX>` so a reader sees they are there.
const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class -- U+1160 (Hangul filler) is listed on its own on purpose
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\u3164\ufeff\ufff9-\ufffb]/g;

/** Lone surrogates would become U+FFFD in any UTF-8 round trip: make that explicit. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function codePointLabel(ch: string): string {
  return `<U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** Makes invisible characters visible; newlines are kept only when `keepNewlines`. */
export function revealInvisible(text: string, keepNewlines: boolean): string {
  let out = text.replace(LONE_SURROGATE, '\ufffd');
  out = out.replace(/\r\n?/g, '\n');
  out = out.replace(INVISIBLE, codePointLabel);
  return keepNewlines ? out : out.replace(/\n/g, '↵');
}

/** Cuts text to `max` UTF-16 units without splitting a surrogate pair, marking the cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}

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
 * HTML). The delimiter is a backtick run longer than any inside, padded with a space so text
 * that starts or ends with a backtick cannot merge with it; one line only.
 */
export function codeSpan(text: string, max = 300): string {
  const visible = revealInvisible(truncate(text, max), false);
  let longest = 0;
  for (const run of visible.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${visible} ${fence}`;
}
