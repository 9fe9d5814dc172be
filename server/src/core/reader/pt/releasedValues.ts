// What samples already handed on leave in the memo, released (docs/pt.md). Pickle memoises every
// str and list, so a memo that kept them would hold every prompt, response, token id and log-prob
// of the dump. A long text (`PyText`) and a list of numbers built only from number opcodes keep
// where their bytes are in the pickle; their contents are released once the sample holding them
// has been handed on, and decoded again from the pickle only when a memo read brings them (or a
// value holding them) back. Texts read back stay decoded in a cache of bounded size, most recently
// read kept, since a text read back once is usually read again (a group's prompt, a constant
// response).
import { LIMITS } from './limits';
import type { ChunkedInput } from './chunkedInput';
import { latin1Text, PickleError, pickledUtf8 } from './pickleLiterals';
import { NO_ITEMS, pyFloat, PyList, PyText, pushMembers } from './values';

export function decodeText(t: PyText, bytes: Uint8Array): string {
  return t.latin1 ? latin1Text(bytes) : pickledUtf8(bytes);
}

/**
 * The items of a list whose bytes are exactly its making: `EMPTY_LIST`, its memo put, then
 * `MARK` number… `APPENDS` batches and number `APPEND`s, the numbers BININT1 / BININT2 / BININT /
 * BINFLOAT. Those opcodes only push numbers and append them to the list on top, so the list holds
 * exactly these. Null for any other byte.
 */
export function numberListItems(b: Uint8Array): unknown[] | null {
  if (b[0] !== 0x5d) return null;
  let q = b[1] === 0x71 ? 3 : b[1] === 0x72 ? 6 : b[1] === 0x94 ? 2 : 1;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: unknown[] = [];
  let inMark = false;
  while (q < b.length) {
    const o = b[q];
    if (o === 0x28 && !inMark) {
      inMark = true;
      q++;
      continue;
    }
    if (o === 0x65 && inMark) {
      inMark = false;
      q++;
      continue;
    }
    const w = o === 0x4b ? 2 : o === 0x4d ? 3 : o === 0x4a ? 5 : o === 0x47 ? 9 : 0;
    if (w === 0 || q + w > b.length) return null;
    out.push(o === 0x4b ? b[q + 1] : o === 0x4d ? dv.getUint16(q + 1, true) : o === 0x4a ? dv.getInt32(q + 1, true) : pyFloat(dv.getFloat64(q + 1, false)));
    q += w;
    if (!inMark) {
      // Outside a batch a number is appended at once.
      if (b[q] !== 0x61) return null;
      q++;
    }
  }
  return inMark ? null : out;
}

type Released = PyText | PyList;

function range(x: Released): [number, number] {
  return x instanceof PyText ? [x.offset, x.byteLength] : [x.from, x.to - x.from];
}

export class ReleasedValues {
  /** Texts decoded and number lists made since the last hand-on: released at the next. */
  private live: PyText[] = [];
  private liveLists: PyList[] = [];
  /** Bumped at each release: a value checked complete at this epoch needs no new walk. */
  private epoch = 0;
  private readonly complete = new WeakMap<object, number>();
  /** Values visited by walks so far (bounded: a pickle cannot make them quadratic). */
  private visited = 0;
  /** Texts read back, least recently read first, and their size in bytes. */
  private readonly cache = new Map<PyText, true>();
  private cacheBytes = 0;

  /** True once something was released (before that every value is whole). */
  get any(): boolean {
    return this.epoch > 0;
  }

  keep(t: PyText): void {
    this.live.push(t);
  }

  keepList(l: PyList): void {
    this.liveLists.push(l);
  }

  /**
   * After a hand-on: texts are released (but those in the cache); lists of numbers whose bytes
   * are still in the window and are exactly their making (`numberListItems`) too.
   */
  release(input: ChunkedInput): void {
    let released = false;
    for (const t of this.live)
      if (!this.cache.has(t)) {
        t.text = null;
        released = true;
      }
    this.live = [];
    for (const l of this.liveLists) {
      if (l.summarized || l.released || l.from < 0 || l.to <= l.from || l.items.length <= 8 || !input.holds(l.from, l.to - l.from)) continue;
      const items = numberListItems(input.bytes(l.from, l.to - l.from));
      if (items === null || items.length !== l.items.length) continue;
      l.items = NO_ITEMS;
      l.released = true;
      released = true;
    }
    this.liveLists = [];
    if (released) this.epoch++;
  }

  /**
   * The released texts and lists in `v` (a memo read's value) whose bytes have left the input
   * window; those still in it are decoded on the spot. Empty when `v` is whole again.
   */
  missing(v: unknown, input: ChunkedInput): Released[] {
    if (typeof v !== 'object' || v === null) return [];
    const out: Released[] = [];
    const seen = new Set<unknown>();
    const todo: unknown[] = [v];
    while (todo.length > 0) {
      const x = todo.pop();
      if (typeof x !== 'object' || x === null || seen.has(x)) continue;
      if (++this.visited > LIMITS.rewalk)
        throw new PickleError(`the pickle refers back to earlier samples' values more than ${LIMITS.rewalk} times over (a memo read at byte ${input.offset})`);
      seen.add(x);
      if (x instanceof PyText || (x instanceof PyList && x.released)) {
        if (x instanceof PyText && x.text !== null) {
          if (this.cache.delete(x)) this.cache.set(x, true);
          continue;
        }
        const [at, n] = range(x);
        if (input.holds(at, n)) this.restore(x, input.bytes(at, n));
        else out.push(x);
        continue;
      }
      if (this.complete.get(x) === this.epoch) continue;
      pushMembers(x, todo);
    }
    if (out.length === 0 && !(v instanceof PyText)) this.complete.set(v, this.epoch);
    return out;
  }

  /** Where a released value's bytes are in the pickle. */
  range(x: Released): [number, number] {
    return range(x);
  }

  /**
   * Gives a released value its contents again. A text is kept in the cache; the least recently
   * read ones past its size, and a list, are released again at the next hand-on (the sample being
   * built may hold them until then).
   */
  restore(x: Released, bytes: Uint8Array): void {
    if (x instanceof PyList) {
      const items = numberListItems(bytes);
      if (items === null) throw new PickleError(`the bytes of a list at byte ${x.from} changed since they were read (the file changed while it was read)`);
      x.items = items;
      x.released = false;
      this.liveLists.push(x);
      return;
    }
    x.text = decodeText(x, bytes);
    this.cache.set(x, true);
    this.cacheBytes += x.byteLength;
    for (const old of this.cache.keys()) {
      if (this.cacheBytes <= LIMITS.keptTexts) break;
      this.cache.delete(old);
      this.cacheBytes -= old.byteLength;
      this.live.push(old);
    }
  }
}
