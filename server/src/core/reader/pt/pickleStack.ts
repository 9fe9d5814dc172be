// The pickle machine's stack, marks and memo (docs/pt.md), each bounded (limits.ts), over the
// input window (chunkedInput.ts). What the opcode groups share: where reading stands, and the
// errors that stop it.
import { type ChunkedInput } from './chunkedInput';
import { LIMITS } from './limits';
import { PickleError } from './pickleLiterals';

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
   * The memo: slots 0…n-1 in an array (Python's pickler numbers them in order), any other slot
   * (a pickle may name any number) in a map.
   */
  private readonly memoSlots: unknown[] = [];
  private memoFar: Map<number, unknown> | null = null;
  /** Slots stored, as Python's `len(memo)` (MEMOIZE's next slot). */
  memoSize = 0;

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

  memoGet(i: number): unknown {
    if (i < this.memoSlots.length) return this.memoSlots[i];
    if (this.memoFar === null || !this.memoFar.has(i)) throw new PickleError(`memo read of slot ${i} at byte ${this.offset}, which was never stored`);
    return this.memoFar.get(i);
  }

  memoPut(i: number): void {
    const v = this.top();
    const slots = this.memoSlots;
    if (i < slots.length) {
      slots[i] = v;
      return;
    }
    const far = this.memoFar;
    if (!(far !== null && far.has(i))) {
      if (this.memoSize >= LIMITS.memo) throw new PickleError(`more than ${LIMITS.memo} memo entries`);
      this.memoSize++;
    }
    if (i > slots.length) {
      (this.memoFar ??= new Map()).set(i, v);
      return;
    }
    far?.delete(i);
    slots.push(v);
    // Slots stored out of order join the array once it reaches them.
    if (far !== null) {
      while (far.has(slots.length)) {
        const n = slots.length;
        slots.push(far.get(n));
        far.delete(n);
      }
    }
  }

  deeper(d: number): number {
    if (d > LIMITS.depth) throw new PickleError(`values nested more than ${LIMITS.depth} levels deep at byte ${this.offset}`);
    return d;
  }
}
