// Log text is written by the policy under training, so it is hostile wherever it is shown: control
// characters, escape sequences, line separators, direction overrides and invisible characters
// must never act on an output or disguise what it says. This is the one definition of those
// characters; each kind of output has one escaper built on it:
//   editor text (diagnostic messages, outline names, plain-text hovers): revealInvisible, below (`<U+XXXX>` labels)
//   markdown (hovers): server/src/server/features/escape.ts (on top of revealInvisible)
//   terminal (CLI reports): server/src/cli/escape.ts (`\xNN` / `\uNNNN`)
//   tree labels and tooltips (VS Code client): client/src/text.ts (`\uNNNN`)
//   HTML (run view page, report): shared/runViewPage.ts (`escapeHtml`, and JSON kept inert in a script)

/**
 * C0/C1 controls except tab and newline (each escaper decides about those two), DEL, the soft
 * hyphen, bidi marks, embeddings, overrides and isolates, zero-width characters and the BOM,
 * line/paragraph separators, and the fillers and format characters that render as nothing.
 */
const UNSAFE_CLASS =
  '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2069\\u3164\\ufeff\\ufff9-\\ufffb';

/** Unsafe characters (global: use with `replace`). Tab and newline are not in it. */
// eslint-disable-next-line no-misleading-character-class -- U+1160 (Hangul filler) is listed on its own on purpose
export const UNSAFE_CHARACTERS = new RegExp(`[${UNSAFE_CLASS}]`, 'g');

/** Unsafe characters plus tab and newline, for one-line outputs that show those escaped too. */
// eslint-disable-next-line no-misleading-character-class -- as above
export const UNSAFE_OR_WHITESPACE_CONTROL = new RegExp(`[\\t\\n${UNSAFE_CLASS}]`, 'g');

/** Lone surrogates would become U+FFFD in any UTF-8 round trip: make that explicit. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function codePointLabel(ch: string): string {
  return `<U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** Editor text: unsafe characters become visible `<U+XXXX>` labels; newlines kept only when `keepNewlines`. */
export function revealInvisible(text: string, keepNewlines: boolean): string {
  let out = text.replace(LONE_SURROGATE, '\ufffd');
  out = out.replace(/\r\n?/g, '\n');
  out = out.replace(UNSAFE_CHARACTERS, codePointLabel);
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
