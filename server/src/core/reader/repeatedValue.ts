// A member's value kept with its bytes as written. Lines of a log mostly repeat the last line's
// value of some members (miles' `weight_versions` `["3"]`, `prefix_cache_info` `{}`), and the same
// bytes of an array or object are the same value (it ends where its brackets say), so the value
// built before is handed on instead of building another.

/** The longest value text kept (a few versions or counts). */
const MAX_BYTES = 256;

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;

export class RepeatedValue {
  private bytes: Uint8Array | null = null;
  /** The value last kept. */
  value: unknown = undefined;

  /** Where the value at `b[i]` ends when its bytes are those of the kept value (`value`); -1 otherwise. */
  endIfSame(b: Uint8Array, i: number, e: number): number {
    const known = this.bytes;
    if (known === null) return -1;
    const n = known.length;
    if (i + n > e) return -1;
    for (let k = 0; k < n; k++) if (known[k] !== b[i + k]) return -1;
    return i + n;
  }

  /** Keeps `value`, read from `b[i, end)`, when it is a short array or object. */
  keep(b: Uint8Array, i: number, end: number, value: unknown): void {
    if (end - i > MAX_BYTES || (b[i] !== OPEN_ARRAY && b[i] !== OPEN_OBJECT)) return;
    this.bytes = b.slice(i, end);
    this.value = value;
  }
}
