// Terminal output carries text from the logs, which the policy under training wrote: control
// characters, escape sequences (ESC, CSI, OSC), line separators and bidirectional overrides must
// show as inert text, never act on the terminal.

/** C0 except newline, DEL, C1, U+2028/2029, bidi embeddings/overrides/isolates, BOM/ZW no-break. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ufeff]/g;

function escapeChar(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Escapes everything unsafe; newlines stay (the report's own line structure). */
export function escapeTerminalText(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** For one-line fields (messages, paths): newlines are escaped too. */
export function escapeInline(text: string): string {
  return escapeTerminalText(text).replace(/\n/g, '\\n');
}
