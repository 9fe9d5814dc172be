// Memo slots of samples handed on, released (docs/pt.md, "Streaming and memory"). Pickle memoises
// every dict, list and str, so a memo that kept them would hold every sample of the dump (about
// ten slots a sample: a million samples overran the memo's bound). Once a sample has been handed
// on and a few more have followed (a group's later samples read their prompt back soon), the
// slots it stored are dropped and only where its bytes are is kept (12 B a sample). A memo read
// of such a slot reads the sample's bytes again (`PickleMachine.rebuild`) and takes the value
// stored there; samples read again stay in a cache of bounded size, most recently read kept.
import { LIMITS } from './limits';
import { PickleError } from './pickleLiterals';

const CHUNK = 1 << 14;

/** A memo read that needs the sample holding slot `slot` read again (index: its place here). */
export class ReleasedSample {
  constructor(
    readonly index: number,
    readonly slot: number,
  ) {}
}

export class ReleasedSamples {
  /**
   * Per released sample, in slot order: its first memo slot, where its bytes start (from its
   * chunk's first sample's start, or whole once a chunk spans 4 GiB), how many.
   */
  private readonly firstSlots: Uint32Array[] = [];
  private readonly starts: (Uint32Array | Float64Array)[] = [];
  private readonly bases: number[] = [];
  private readonly lengths: Uint32Array[] = [];
  count = 0;
  /** Slots released in all. */
  slots = 0;
  /** Samples read again: index → the values of their slots, least recently read first. */
  private readonly cache = new Map<number, unknown[]>();
  private cacheBytes = 0;
  private rereadBytes = 0;

  add(firstSlot: number, start: number, length: number, slots: number): void {
    const c = this.count >> 14;
    const i = this.count & (CHUNK - 1);
    if (i === 0) {
      this.firstSlots.push(new Uint32Array(CHUNK));
      this.starts.push(new Uint32Array(CHUNK));
      this.bases.push(start);
      this.lengths.push(new Uint32Array(CHUNK));
    }
    this.firstSlots[c][i] = firstSlot;
    if (this.starts[c] instanceof Uint32Array && start - this.bases[c] >= 2 ** 32) {
      const whole = new Float64Array(CHUNK);
      for (let j = 0; j < i; j++) whole[j] = this.starts[c][j] + this.bases[c];
      this.starts[c] = whole;
      this.bases[c] = 0;
    }
    this.starts[c][i] = start - this.bases[c];
    this.lengths[c][i] = length;
    this.count++;
    this.slots += slots;
  }

  firstSlot(k: number): number {
    return this.firstSlots[k >> 14][k & (CHUNK - 1)];
  }

  /** Where sample `k`'s bytes are in the pickle. */
  range(k: number): [number, number] {
    return [this.bases[k >> 14] + this.starts[k >> 14][k & (CHUNK - 1)], this.lengths[k >> 14][k & (CHUNK - 1)]];
  }

  /** The released sample that stored `slot` (the last one whose first slot is at most `slot`), or -1. */
  find(slot: number): number {
    let lo = 0;
    let hi = this.count - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.firstSlot(mid) <= slot) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /**
   * Where sample `k`'s bytes are, to read it again `depth` samples deep for a memo read at pickle
   * offset `at`: bounded in depth and in bytes read again over the file.
   */
  claim(k: number, depth: number, at: number): [number, number] {
    if (depth > LIMITS.rereadDepth)
      throw new PickleError(`the pickle refers back to released samples' values through more than ${LIMITS.rereadDepth} samples (a memo read at byte ${at})`);
    const r = this.range(k);
    this.rereadBytes += r[1];
    if (this.rereadBytes > LIMITS.rereadBytes)
      throw new PickleError(`the pickle refers back to released samples' values more than ${LIMITS.rereadBytes} bytes over (a memo read at byte ${at})`);
    return r;
  }

  /**
   * Sample `k` read again must read as it did the first time: no error, one value made, slots
   * stored in order from its first slot on and no further than the next sample's.
   */
  check(k: number, at: number, error: string | undefined, whole: boolean, values: unknown[], memoSize: number): void {
    const next = k + 1 < this.count ? this.firstSlot(k + 1) : memoSize;
    if (error !== undefined || !whole || values.length === 0 || values.length > next - this.firstSlot(k))
      throw new PickleError(`a sample's bytes at ${at} read differently the second time${error ? ` (${error})` : ''} (the file changed while it was read)`);
  }

  /** The values sample `k` stored, when it was read again recently; else undefined. */
  cached(k: number): unknown[] | undefined {
    const v = this.cache.get(k);
    if (v !== undefined) {
      this.cache.delete(k);
      this.cache.set(k, v);
    }
    return v;
  }

  keep(k: number, values: unknown[]): void {
    this.cache.set(k, values);
    this.cacheBytes += this.range(k)[1];
    for (const [old] of this.cache) {
      if (this.cache.size <= 1 || (this.cache.size <= LIMITS.rereadSamples && this.cacheBytes <= LIMITS.keptTexts)) break;
      this.cache.delete(old);
      this.cacheBytes -= this.range(old)[1];
    }
  }
}
