// The pickle machine's stack, marks and memo (docs/pt.md), each bounded (limits.ts), over the
// input window (chunkedInput.ts). What the opcode groups share: where reading stands, and the
// errors that stop it.
import { type ChunkedInput } from './chunkedInput';
import { LIMITS } from './limits';
import { PickleError } from './pickleLiterals';
import { ReleasedSamples } from './releasedSamples';

/** An opcode group's answer: go on with the next opcode. */
export const CONTINUE = -2;

/** `step` stopped so that `run` can do asynchronous work (hand samples on, read texts again). */
export const SERVICE = -1;

/** What stays on the stack where a sample that was handed on was. */
export const HANDED = Symbol('handed on');

export class PickleStack {
  readonly input: ChunkedInput;
  readonly stack: unknown[] = [];
  readonly marks: number[] = [];
  /**
   * The memo: slots `memoFrom`… in an array (Python's pickler numbers them in order), any other
   * slot (a pickle may name any number) in a map. Once samples' slots are released
   * (releasedSamples.ts), the array keeps the first `LIMITS.keptSlots` and the slots from
   * `windowFrom` on are in `window` (from `windowHead`); slots below that were either released or
   * are kept in `memoKept`.
   */
  protected readonly memoSlots: unknown[] = [];
  private memoFar: Map<number, unknown> | null = null;
  /** Slots stored, as Python's `len(memo)` (MEMOIZE's next slot). */
  memoSize = 0;
  /** First slot of `memoSlots` (a sample read again stores from its first slot on). */
  protected memoFrom = 0;
  protected window: unknown[] | null = null;
  protected windowHead = 0;
  protected windowFrom = 0;
  protected memoKept: Map<number, unknown> | null = null;
  readonly releasedSamples = new ReleasedSamples();
  /** False once a slot was stored out of order or twice: then no slot is released. */
  memoInOrder = true;

  constructor(input: ChunkedInput) {
    this.input = input;
  }

  /** Pickle offset of the opcode being read. */
  get offset(): number {
    return this.input.offset;
  }

  late(): PickleError {
    return new PickleError(
      `the pickle changes or reuses a sample at byte ${this.offset} after the next one began, which Python's pickler never writes (the sample was already read)`,
    );
  }

  push(v: unknown): void {
    if (this.stack.length >= LIMITS.stack) throw new PickleError(`more than ${LIMITS.stack} values on the pickle stack`);
    this.stack.push(v);
  }

  pop(): unknown {
    if (this.stack.length === 0 || (this.marks.length > 0 && this.stack.length <= this.marks[this.marks.length - 1])) {
      throw new PickleError(`stack underflow at byte ${this.offset}`);
    }
    const v = this.stack.pop();
    if (v === HANDED) throw this.late();
    return v;
  }

  top(): unknown {
    if (this.stack.length === 0) throw new PickleError(`stack underflow at byte ${this.offset}`);
    const v = this.stack[this.stack.length - 1];
    if (v === HANDED) throw this.late();
    return v;
  }

  pushMark(): void {
    if (this.marks.length >= LIMITS.marks) throw new PickleError(`more than ${LIMITS.marks} open MARKs`);
    this.marks.push(this.stack.length);
  }

  /** Slot `i`'s value; a released sample's slot is NEED when that sample is not at hand. */
  memoGet(i: number): unknown {
    const j = i - this.memoFrom;
    if (j >= 0 && j < this.memoSlots.length) return this.memoSlots[j];
    if (j < 0) return this.memoBelow(i);
    const w = this.window;
    if (w !== null) {
      if (i >= this.windowFrom) {
        const k = i - this.windowFrom + this.windowHead;
        if (k < w.length) return w[k];
      } else {
        const kept = this.memoKept?.get(i);
        if (kept !== undefined || this.memoKept?.has(i)) return kept;
        return this.releasedSlot(i);
      }
    }
    if (this.memoFar === null || !this.memoFar.has(i)) throw new PickleError(`memo read of slot ${i} at byte ${this.offset}, which was never stored`);
    return this.memoFar.get(i);
  }

  /** A slot below `memoFrom` (a sample read again reads them from the machine reading the dump). */
  protected memoBelow(i: number): unknown {
    throw new PickleError(`memo read of slot ${i} at byte ${this.offset}, which was never stored`);
  }

  /** A slot of a released sample (sampleHandOn.ts). */
  protected releasedSlot(i: number): unknown {
    throw new PickleError(`memo read of slot ${i} at byte ${this.offset}, which was released`);
  }

  memoPut(i: number): void {
    const v = this.top();
    const w = this.window;
    if (w !== null) {
      // Slots were released: a slot stored again could change what a released sample read again
      // reads. Python's pickler numbers its memo in order, each slot once.
      const next = this.windowFrom + w.length - this.windowHead;
      if (i < next || this.memoFar?.has(i))
        throw new PickleError(`memo slot ${i} stored again at byte ${this.offset}, after earlier samples' slots were released`);
      if (this.memoSize - this.releasedSamples.slots >= LIMITS.memo) throw new PickleError(`more than ${LIMITS.memo} memo entries`);
      this.memoSize++;
      if (i !== next) {
        // Out of order: kept aside, and no more slots are released.
        this.memoInOrder = false;
        (this.memoFar ??= new Map()).set(i, v);
        return;
      }
      w.push(v);
      const far = this.memoFar;
      if (far !== null) {
        while (far.has(this.windowFrom + w.length - this.windowHead)) {
          const n = this.windowFrom + w.length - this.windowHead;
          w.push(far.get(n));
          far.delete(n);
        }
      }
      return;
    }
    const slots = this.memoSlots;
    const j = i - this.memoFrom;
    if (j >= 0 && j < slots.length) {
      this.memoInOrder = false;
      slots[j] = v;
      return;
    }
    const far = this.memoFar;
    if (!(far !== null && far.has(i))) {
      if (this.memoSize - this.memoFrom >= LIMITS.memo) throw new PickleError(`more than ${LIMITS.memo} memo entries`);
      this.memoSize++;
    }
    if (j !== slots.length) {
      this.memoInOrder = false;
      if (j < 0) throw new PickleError(`memo slot ${i} stored at byte ${this.offset}, below the slots of the sample read again`);
      (this.memoFar ??= new Map()).set(i, v);
      return;
    }
    far?.delete(i);
    slots.push(v);
    // Slots stored out of order join the array once it reaches them.
    if (far !== null) {
      while (far.has(slots.length + this.memoFrom)) {
        const n = slots.length + this.memoFrom;
        slots.push(far.get(n));
        far.delete(n);
      }
    }
  }

  /**
   * Releases slots [first, end) (a sample handed on; releasedSamples.ts), whose bytes are
   * [start, start + length) of the pickle. False when the memo cannot: slots stored out of order,
   * or among the first `LIMITS.keptSlots`.
   */
  releaseSlots(first: number, end: number, start: number, length: number): boolean {
    if (!this.memoInOrder || this.memoFar !== null || this.memoFrom !== 0 || first < LIMITS.keptSlots || end > this.memoSize || end <= first) return false;
    if (this.window === null) {
      this.windowFrom = LIMITS.keptSlots;
      this.window = this.memoSlots.splice(LIMITS.keptSlots);
      this.windowHead = 0;
    }
    if (first < this.windowFrom) return false;
    const w = this.window;
    // Slots before the sample's (not a released sample's) are kept.
    for (let i = this.windowFrom; i < first; i++) (this.memoKept ??= new Map()).set(i, w[this.windowHead + i - this.windowFrom]);
    for (let i = this.windowHead; i < this.windowHead + end - this.windowFrom; i++) w[i] = undefined;
    this.windowHead += end - this.windowFrom;
    this.windowFrom = end;
    if (this.windowHead > 4096 && this.windowHead * 2 > w.length) {
      w.splice(0, this.windowHead);
      this.windowHead = 0;
    }
    this.releasedSamples.add(first, start, length, end - first);
    return true;
  }

  deeper(d: number): number {
    if (d > LIMITS.depth) throw new PickleError(`values nested more than ${LIMITS.depth} levels deep at byte ${this.offset}`);
    return d;
  }
}
