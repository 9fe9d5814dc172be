// Strings interned to small ids for the sample store's key columns (group keys, prompt keys,
// datasets and causes): a run's hundreds of thousands of keys as typed-array entries, not strings.
import { hex64 } from '../reader/hash';

const K_STRING = 0;
const K_INT = 1;
const K_HEX = 2;
const TWO_32 = 4294967296;
const DIRECT_MAX = 1 << 24;

/** The hex digit's value, or -1 (lowercase only: the engine's hashes print lowercase). */
function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** FNV-1a over a string's UTF-16 code units (spread further by `fmix` where it picks a slot). */
function stringHash(s: string): number {
  let h = 0x811c9dc5 | 0;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return h;
}

/**
 * Mixed into every slot, different in each process: keys are written by whoever wrote the log, and
 * with slots known in advance a log could pile its keys into one run of slots, making each lookup
 * walk them all. Slots never decide an id (ids count keys in the order first seen), so the seed
 * changes no result.
 */
const SLOT_SEED = (Math.random() * 0x100000000) | 0;

/** murmur3's 32-bit finaliser: spreads the bits of a key over the slot index. */
function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Strings by id in first-seen order; `id(s)` gives the same id for equal strings. Keys that are
 * integers in their canonical spelling (group indexes) or 16 lowercase hex digits (the reader's
 * prompt hashes) are held as numbers in typed arrays: a run's hundreds of thousands of group and
 * prompt keys would otherwise be as many strings and map entries (BENCHMARKS.md, "Scale with the
 * number of samples"). `value(id)` spells such a key again exactly as it was given.
 */
export class StringTable {
  private count = 0;
  private kind = new Uint8Array(16);
  /** K_INT: the integer; K_HEX: the first 8 digits' value; K_STRING: the string's hash. */
  private hi = new Float64Array(16);
  /** K_HEX: the last 8 digits' value; K_STRING: the string's index in `strings`. */
  private lo = new Uint32Array(16);
  /** Open addressing over the keys not in `direct`: id + 1 by slot, 0 for an empty slot. */
  private slots = new Int32Array(64);
  private hashed = 0;
  /**
   * Non-negative integer keys below its length (group indexes count up from 0): id + 1 by value,
   * 0 for none; they are not in `slots`. Covers every such key held, so the route does not change.
   */
  private direct = new Int32Array(0);
  /**
   * The other strings, in the order added. Found through `slots` by their hash, not a Map: a
   * million distinct keys (an error text per sample) cost a Map three times the time and twice the
   * memory (BENCHMARKS.md, "Design measurements").
   */
  private readonly strings: string[] = [];
  /** The last numeric key spelled and its text: consecutive rows mostly repeat their keys. */
  #lastId = -1;
  #lastText = '';

  get size(): number {
    return this.count;
  }

  /** The id of `s`, added when new; -1 for null. */
  id(s: string | null): number {
    if (s === null) return -1;
    const n = s.length;
    if (n === 16) {
      let hi = 0;
      let lo = 0;
      let k = 0;
      for (; k < 16; k++) {
        const d = hexDigit(s.charCodeAt(k));
        if (d < 0) break;
        if (k < 8) hi = hi * 16 + d;
        else lo = lo * 16 + d;
      }
      if (k === 16) return this.numericId(K_HEX, hi, lo);
    }
    if (n > 0 && n <= 15) {
      // Canonical decimal integers only ("0", "-12", not "012", "-0" or "+1"): spelt back the same.
      const c0 = s.charCodeAt(0);
      const neg = c0 === 45;
      let k = neg ? 1 : 0;
      const first = k < n ? s.charCodeAt(k) : 0;
      if (first >= 49 && first <= 57 ? true : first === 48 && n === 1) {
        let v = 0;
        for (; k < n; k++) {
          const c = s.charCodeAt(k);
          if (c < 48 || c > 57) break;
          v = v * 10 + (c - 48);
        }
        if (k === n) return this.numericId(K_INT, neg ? -v : v, 0);
      }
    }
    return this.stringId(s);
  }

  /** `id(String(v))` for an integer `v`, without making the string when it is held as a number. */
  intId(v: number): number {
    if (Number.isInteger(v) && (v >= 0 ? v < 1e15 : v > -1e14)) return this.numericId(K_INT, v === 0 ? 0 : v, 0);
    return this.id(String(v));
  }

  /** `id(hex64(hi, lo))` (16 lowercase hex digits of two unsigned 32-bit words), without the string. */
  hexId(hi: number, lo: number): number {
    return this.numericId(K_HEX, hi, lo);
  }

  /** The string of `id`; null for -1. */
  value(id: number): string | null {
    if (id < 0) return null;
    if (id === this.#lastId) return this.#lastText;
    const k = this.kind[id];
    if (k === K_STRING) return this.strings[this.lo[id]];
    const text = k === K_INT ? String(this.hi[id]) : hex64(this.hi[id], this.lo[id]);
    this.#lastId = id;
    this.#lastText = text;
    return text;
  }

  /** A copy holding the first `size` strings (ids keep their meaning). */
  clone(size = this.count): StringTable {
    const t = new StringTable();
    for (let i = 0; i < size; i++) t.id(this.value(i));
    return t;
  }

  private numericId(kind: number, hi: number, lo: number): number {
    if (kind === K_INT && hi >= 0 && hi < DIRECT_MAX) {
      if (hi >= this.direct.length && hi < 4 * this.count + 65536) this.growDirect(hi);
      if (hi < this.direct.length) {
        const e = this.direct[hi];
        if (e !== 0) return e - 1;
        const id = this.add(kind, hi, lo);
        this.direct[hi] = id + 1;
        return id;
      }
    }
    const mask = this.slots.length - 1;
    let slot = this.slotOf(kind, hi, lo) & mask;
    for (;;) {
      const e = this.slots[slot];
      if (e === 0) break;
      const id = e - 1;
      if (this.kind[id] === kind && this.hi[id] === hi && this.lo[id] === lo) return id;
      slot = (slot + 1) & mask;
    }
    const id = this.add(kind, hi, lo);
    this.slots[slot] = id + 1;
    if (++this.hashed * 2 > this.slots.length) this.rehash();
    return id;
  }

  private stringId(s: string): number {
    const hash = stringHash(s);
    const mask = this.slots.length - 1;
    let slot = this.slotOf(K_STRING, hash, 0) & mask;
    for (;;) {
      const e = this.slots[slot];
      if (e === 0) break;
      const id = e - 1;
      if (this.kind[id] === K_STRING && this.hi[id] === hash && this.strings[this.lo[id]] === s) return id;
      slot = (slot + 1) & mask;
    }
    const id = this.add(K_STRING, hash, this.strings.length);
    this.strings.push(s);
    this.slots[slot] = id + 1;
    if (++this.hashed * 2 > this.slots.length) this.rehash();
    return id;
  }

  /** Makes `direct` cover `v`, with the ids of the integers already held that it now covers. */
  private growDirect(v: number): void {
    let size = Math.max(1024, this.direct.length);
    while (size <= v) size *= 2;
    const direct = new Int32Array(size);
    for (let id = 0; id < this.count; id++) {
      const h = this.hi[id];
      if (this.kind[id] === K_INT && h >= 0 && h < size) direct[h] = id + 1;
    }
    this.direct = direct;
  }

  private slotOf(kind: number, hi: number, lo: number): number {
    if (kind === K_STRING) return fmix(hi ^ 0x5bd1e995 ^ SLOT_SEED);
    if (kind === K_HEX) return fmix(Math.imul(hi | 0, 0x9e3779b1) ^ lo ^ SLOT_SEED);
    return fmix((hi | 0) ^ Math.imul(Math.floor(hi / TWO_32) | 0, 0x9e3779b1) ^ SLOT_SEED);
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      const kind = this.kind[id];
      if (kind === K_INT && this.hi[id] >= 0 && this.hi[id] < this.direct.length) continue;
      let slot = this.slotOf(kind, this.hi[id], this.lo[id]) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
  }

  private add(kind: number, hi: number, lo: number): number {
    const id = this.count;
    if (id === this.kind.length) {
      const size = id * 2;
      const k = new Uint8Array(size);
      k.set(this.kind);
      const h = new Float64Array(size);
      h.set(this.hi);
      const l = new Uint32Array(size);
      l.set(this.lo);
      this.kind = k;
      this.hi = h;
      this.lo = l;
    }
    this.kind[id] = kind;
    this.hi[id] = hi;
    this.lo[id] = lo;
    this.count = id + 1;
    return id;
  }
}

/**
 * One key column's last key and its id: consecutive rows mostly repeat their group key, prompt
 * key, dataset and cause, so the table is asked only when the key changes (or is null).
 */
export class LastKeyId {
  #key: string | null = null;
  #id = -1;

  /** `table.id(key)`. */
  of(table: StringTable, key: string | null): number {
    if (key !== this.#key || this.#id < 0) {
      this.#key = key;
      this.#id = table.id(key);
    }
    return this.#id;
  }
}
