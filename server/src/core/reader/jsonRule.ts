// What a JSON line scan builds and hands back: the `Rule` saying which members to build, the
// `Skipped` placeholder for a value validated but not built, and the integer-literal marks of a
// built object. The skipper (jsonSkip.ts) and the builder (ruleParse.ts) share these.

/**
 * How to read a named member: a nested rule, its hash instead of its value ('hash'), the sum of a
 * numeric array ('sum': miles' `loss_mask`, whose sum is the effective response length), a short
 * array of scalars ('list': miles' `weight_versions`), or a string whose end is kept when it is
 * too long to build ('tail': miles' `response`, a `LongString`, textTail.ts). A member that is not
 * an array under 'sum' or 'list', or not a string under 'tail', is built as a scalar; an array
 * that does not qualify comes back `Skipped`.
 */
export type Child = Rule | 'hash' | 'sum' | 'list' | 'tail';

/** Most items a 'list' member builds; a longer array stays `Skipped`. */
export const MAX_LIST_ITEMS = 256;

/** What to build for an object value; anything not named is skipped. */
export interface Rule {
  /** Build scalar members (numbers, booleans, null, strings up to `maxString` bytes). */
  scalars: boolean;
  maxString: number;
  /** Members to descend into (a nested rule) or to hash instead of building ('hash'). */
  children: Map<string, Child> | null;
  /**
   * The keys last seen at each member position of objects read by this rule, with their decoded
   * text and child rule: lines of a log repeat the same keys in the same order, so a key is
   * usually recognised by comparing its bytes, without decoding or looking it up again.
   */
  keyCache?: KeyCacheEntry[];
}

export interface KeyCacheEntry {
  /** The key's bytes as written (between the quotes). */
  bytes: Uint8Array;
  text: string;
  child: Child | undefined;
}

/** A value that was validated but not built. */
export class Skipped {
  constructor(
    readonly kind: 'array' | 'object' | 'string' | 'number' | 'literal',
    /** Bytes of the value's JSON text. */
    readonly byteLength: number,
    /** 64-bit hash (16 hex digits) of the value's JSON text, when the rule asked for it. */
    readonly hash: string | null,
  ) {}
}

/**
 * Integer literals of a built object (`1`, not `1.0`), as pairs: key, then the literal's text when
 * the value cannot give it back (beyond 2^53; `-0`), else null (the text is `String(value)`).
 */
export const INT_LITERALS: unique symbol = Symbol('intLiterals');
export type RuleParsedObject = Record<string, unknown> & { [INT_LITERALS]?: (string | null)[] };

/** The literal text of `obj[key]` when it was written as a JSON integer; null otherwise. */
export function intLiteral(obj: unknown, key: string): string | null {
  if (obj === null || typeof obj !== 'object') return null;
  const ints = (obj as RuleParsedObject)[INT_LITERALS];
  if (ints === undefined) return null;
  for (let k = 0; k < ints.length; k += 2) {
    if (ints[k] === key) return ints[k + 1] ?? String((obj as RuleParsedObject)[key]);
  }
  return null;
}

export type RuleParseResult = { ok: true; value: unknown } | { ok: false; reason: string; position: number };
