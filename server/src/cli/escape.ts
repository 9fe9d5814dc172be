// The terminal escaper (shared/unsafeText.ts lists the others). Terminal output carries text from
// the logs, which the policy under training wrote: control characters, escape sequences (ESC, CSI,
// OSC), line separators and bidirectional overrides must show as inert text, never act on the
// terminal.
import { UNSAFE_CHARACTERS } from '../../../shared/unsafeText';

function escapeChar(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Escapes everything unsafe, tabs included; newlines stay (the report's own line structure). */
export function escapeTerminalText(text: string): string {
  return text.replace(UNSAFE_CHARACTERS, escapeChar).replace(/\t/g, escapeChar);
}

/** For one-line fields (messages, paths, table cells): newlines are escaped too. */
export function escapeInline(text: string): string {
  return escapeTerminalText(text).replace(/\n/g, '\\n');
}
