// A Python str as the pickle machine keeps it (docs/pt.md): short ones as JS strings, long ones
// as a `PyText` that knows where its bytes are; and the text by which a dict compares str keys.

/**
 * A long Python str (at least `LONG_TEXT` UTF-8 bytes; shorter ones are JS strings), and where its
 * bytes are in the pickle. Its `text` is dropped once the sample holding it has been handed on,
 * so the memo keeps where a prompt or response is, not the text; a later memo read decodes it
 * again from those bytes (docs/pt.md).
 */
export class PyText {
  constructor(
    /** Offset of the text's bytes in the pickle. */
    readonly offset: number,
    readonly byteLength: number,
    /** `latin1` for Python 2 strings (BINSTRING), else UTF-8. */
    readonly latin1: boolean,
    public text: string | null,
  ) {}
}

export const LONG_TEXT = 64;

/** A dict key as the map keeps it: a Python str is compared by its text, as Python does. */
export function dictKey(k: unknown): unknown {
  return k instanceof PyText && k.text !== null ? k.text : k;
}

/** A Python str's text (a JS string, or a PyText's text), else undefined. */
export function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v instanceof PyText && v.text !== null) return v.text;
  return undefined;
}
