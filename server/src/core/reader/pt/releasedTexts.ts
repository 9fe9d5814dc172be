// Long texts of samples already handed on (docs/pt.md). Pickle memoises every str, so a memo that
// kept them would hold every prompt and response of the dump. A `PyText` keeps where its bytes
// are; its text is released once the sample holding it has been handed on, and decoded again
// from the pickle only when a memo read brings it (or a value holding it) back. Texts read back
// stay decoded in a cache of bounded size, most recently read kept, since a text read back once
// is usually read again (a group's prompt, a constant response).
import { LIMITS } from './limits';
import type { ChunkedInput } from './chunkedInput';
import { latin1Text, PickleError } from './pickleLiterals';
import { PyDict, PyList, PyObject, PySet, PyText, PyTuple } from './values';

const utf8 = new TextDecoder('utf-8');

export function decodeText(t: PyText, bytes: Uint8Array): string {
  return t.latin1 ? latin1Text(bytes) : utf8.decode(bytes);
}

export class ReleasedTexts {
  /** Texts decoded since the last hand-on: released at the next. */
  private live: PyText[] = [];
  /** Bumped at each release: a value checked complete at this epoch needs no new walk. */
  private epoch = 0;
  private readonly complete = new WeakMap<object, number>();
  /** Values visited by walks so far (bounded: a pickle cannot make them quadratic). */
  private visited = 0;
  /** Texts read back, least recently read first, and their size in bytes. */
  private readonly cache = new Map<PyText, true>();
  private cacheBytes = 0;

  /** True once some text was released (before that every text is there). */
  get any(): boolean {
    return this.epoch > 0;
  }

  keep(t: PyText): void {
    this.live.push(t);
  }

  release(): void {
    if (this.live.length === 0) return;
    for (const t of this.live) if (!this.cache.has(t)) t.text = null;
    this.live = [];
    this.epoch++;
  }

  /**
   * The released texts in `v` (a memo read's value) whose bytes have left the input window; those
   * still in it are decoded on the spot. Empty when `v` is whole again.
   */
  missing(v: unknown, input: ChunkedInput): PyText[] {
    if (typeof v !== 'object' || v === null) return [];
    const out: PyText[] = [];
    const seen = new Set<unknown>();
    const todo: unknown[] = [v];
    while (todo.length > 0) {
      const x = todo.pop();
      if (typeof x !== 'object' || x === null || seen.has(x)) continue;
      if (++this.visited > LIMITS.rewalk)
        throw new PickleError(`the pickle refers back to earlier samples' values more than ${LIMITS.rewalk} times over (a memo read at byte ${input.offset})`);
      seen.add(x);
      if (x instanceof PyText) {
        if (x.text !== null) {
          if (this.cache.delete(x)) this.cache.set(x, true);
          continue;
        }
        if (input.holds(x.offset, x.byteLength)) this.restore(x, input.bytes(x.offset, x.byteLength));
        else out.push(x);
        continue;
      }
      if (this.complete.get(x) === this.epoch) continue;
      if (x instanceof PyList || x instanceof PyTuple || x instanceof PySet) for (const y of x.items) todo.push(y);
      else if (x instanceof PyDict) for (const [k, y] of x.map) todo.push(k, y);
      else if (x instanceof PyObject) {
        const extra = x as PyObject & { list?: PyList; dict?: PyDict };
        todo.push(x.state, extra.list, extra.dict);
      }
    }
    if (out.length === 0 && !(v instanceof PyText)) this.complete.set(v, this.epoch);
    return out;
  }

  /**
   * Gives a released text its text again, kept in the cache; the least recently read ones past its
   * size are released at the next hand-on (the sample being built may hold them until then).
   */
  restore(t: PyText, bytes: Uint8Array): void {
    t.text = decodeText(t, bytes);
    this.cache.set(t, true);
    this.cacheBytes += t.byteLength;
    for (const old of this.cache.keys()) {
      if (this.cacheBytes <= LIMITS.keptTexts) break;
      this.cache.delete(old);
      this.cacheBytes -= old.byteLength;
      this.live.push(old);
    }
  }
}
