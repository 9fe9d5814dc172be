// A pickle machine that never runs anything (docs/pt.md): it interprets every opcode of Python's
// pickle protocols 0-5 over a byte range read in chunks (chunkedInput.ts), with the memo. GLOBAL /
// STACK_GLOBAL give names, and calls of names give values only through the allow-list
// (allowedCallables.ts); any other callable becomes a `Blocked` value and a problem naming it,
// and reading goes on.
//
// Here: the read loop and the opcodes torch.save writes for every sample. The opcode groups live
// beside it: the stack, marks and memo (pickleStack.ts), handing samples on one by one
// (sampleHandOn.ts), containers (containerOpcodes.ts), str, bytes and long literals
// (literalOpcodes.ts), counted number runs (numberRuns.ts), callables (callOpcodes.ts), protocol
// 0's text lines (lineOpcodes.ts).
//
// Bounded (limits.ts): every length a pickle claims is checked against the bytes left before
// anything is allocated; the stack, the marks, the memo and the nesting depth have limits; the
// loop never recurses. With `summarize`, lists of numbers (token ids, log-probs: most of a dump's
// bytes) are counted, not kept.
import type { OpenFile } from '../../seams/fileAccess';

import type { CallSite } from './allowedCallables';
import { callOpcode } from './callOpcodes';
import { ChunkedInput } from './chunkedInput';
import { append, containerOpcode, emptyList, setItems } from './containerOpcodes';
import { holdsCountedList } from './countedLists';
import { lineOpcode } from './lineOpcodes';
import { literalOpcode } from './literalOpcodes';
import { countNumberBatch } from './numberRuns';
import { PickleError } from './pickleLiterals';
import { PickleProblems } from './pickleProblems';
import type { PickleOptions, PickleResult } from './pickleTypes';
import { CONTINUE, SERVICE } from './pickleStack';
import { ReleasedSample } from './releasedSamples';
import { NEED, SampleHandOn } from './sampleHandOn';
import { stackOpcode } from './stackOpcodes';
import type { StorageSizes } from './tensorView';
import { type Blocked, PyDict, pyFloat, PyList } from './values';

export { LIMITS } from './limits';
export type { PickleOptions, PickleProblem, PickleResult } from './pickleTypes';

export class PickleMachine extends SampleHandOn implements CallSite {
  private readonly problems = new PickleProblems();
  private result: unknown = undefined;
  /** Samples handed on that `fullSamples` names, for `run` to build in full next. */
  private readonly toBuildFull: { value: unknown; index: number; end: number }[] = [];
  private stopped = false;

  constructor(
    private readonly file: OpenFile,
    start: number,
    length: number,
    private readonly options: PickleOptions = {},
  ) {
    super(new ChunkedInput(file, start, length, options.chunkSize ?? 4 << 20), options.onSample !== undefined, options.summarize ?? false);
  }

  async run(): Promise<PickleResult> {
    const input = this.input;
    try {
      while (!this.stopped) {
        if (this.options.isCancelled?.()) {
          await input.settle();
          return this.finish(true);
        }
        const need = this.step();
        if (need === SERVICE) {
          // Handing samples on needs no wait: only reading released values again does.
          if (this.reread.length === 0) this.handOn();
          else await this.service();
          if (this.toBuildFull.length > 0) await this.buildFull();
        } else if (need > 0) {
          const left = input.end - input.pos + input.unread;
          // A sample read again ends with its bytes.
          if (this.parent !== null && left === 0) break;
          if (need > left) {
            if (input.end - input.pos === 0 && input.unread === 0) throw new PickleError('data.pkl ends without STOP (the pickle is truncated)');
            throw new PickleError(`an opcode at byte ${this.offset} claims ${need} bytes but only ${left} remain in data.pkl`);
          }
          await input.fill(need);
        }
      }
    } catch (err) {
      if (!(err instanceof PickleError)) throw err;
      this.problems.error(err.message, this.offset, this.currentSample());
    }
    // The file is closed after this: no read may still be in flight.
    await input.settle();
    return this.finish(false);
  }

  /**
   * Texts and samples a memo read needs again are read; complete samples are handed on, then
   * released.
   */
  private async service(): Promise<void> {
    const reread = this.reread;
    this.reread = [];
    const root = this.root;
    for (const x of reread) {
      if (x instanceof ReleasedSample) {
        await root.rebuild(x.index, this.depth + 1);
        continue;
      }
      const [at, n] = root.released.range(x);
      root.released.restore(x, await root.input.reread(at, n));
    }
    this.handOn();
  }

  /** Complete samples are handed on, then their texts, lists and (later) memo slots released. */
  private handOn(): void {
    const ready = this.ready;
    if (ready.length === 0) return;
    for (const r of ready) {
      this.options.onSample?.(r.value, r.index);
      if (this.options.fullSamples?.has(r.index)) this.toBuildFull.push(r);
    }
    // Popped, not cut (see SETITEMS): the queue keeps its backing store.
    while (ready.length > 0) ready.pop();
    this.released.release(this.input);
    this.releaseSamples();
  }

  /** The machine reading the dump (a sample read again is read by a machine of its own). */
  private root: PickleMachine = this;
  /** Samples read again to get here (0 for the machine reading the dump). */
  private depth = 0;

  /**
   * Reads released sample `k` again (releasedSamples.ts) from its bytes, with a machine of its own
   * whose memo reads below the sample's first slot go to this one, and keeps the values it stores.
   */
  private async rebuild(k: number, depth: number): Promise<void> {
    const rs = this.releasedSamples;
    if (rs.cached(k) !== undefined) return;
    const [at, n] = rs.claim(k, depth, this.offset);
    const { sub, r } = await this.readAgain(at, n, rs.firstSlot(k), this.summarize, depth);
    rs.check(
      k,
      at,
      r.problems.find((p) => p.kind === 'error')?.message,
      sub.stack.length === 1 && sub.marks.length === 0 && sub.memoInOrder,
      sub.memoSlots,
      this.memoSize,
    );
    for (const v of sub.memoSlots) this.markHanded(v);
    rs.keep(k, sub.memoSlots);
  }

  /**
   * The `n` bytes at pickle offset `at` (one sample's) read by a machine of its own, whose memo
   * slots start at `firstSlot` and whose memo reads below it go to this one.
   */
  private async readAgain(at: number, n: number, firstSlot: number, summarize: boolean, depth: number): Promise<{ sub: PickleMachine; r: PickleResult }> {
    let bytes = new Uint8Array(n);
    if (this.input.holds(at, n)) bytes.set(this.input.bytes(at, n));
    else bytes = await this.input.reread(at, n);
    const sub = new PickleMachine(this.file, 0, at + n, { summarize, chunkSize: n, storages: this.options.storages });
    sub.input.holdOnly(bytes, at);
    Object.assign(sub, { root: this, depth, parent: this, memoFrom: firstSlot, memoSize: firstSlot });
    // No samples list inside a sample: its elements are not handed on.
    sub.samplesList = new PyList();
    return { sub, r: await sub.run() };
  }

  /** The samples `fullSamples` asks for, just handed on summarised, read again in full (PickleOptions). */
  private async buildFull(): Promise<void> {
    for (const { value, index, end } of this.toBuildFull.splice(0)) {
      let full: unknown = undefined;
      if (value instanceof PyDict && value.from >= 0 && end > value.from && this.memoInOrder) {
        const { sub, r } = await this.readAgain(value.from, end - value.from, value.slot, false, this.depth + 1);
        // A tensor's finding was given when the dump's machine read it.
        const whole = r.problems.every((p) => p.kind === 'tensor') && sub.stack.length === 1 && sub.marks.length === 0;
        if (whole && !holdsCountedList(sub.stack[0])) full = sub.stack[0];
      }
      this.options.onFullSample?.(full, index);
    }
  }

  private finish(cancelled: boolean): PickleResult {
    return { value: this.result, samples: this.samples, problems: this.problems.list, cancelled };
  }

  get storages(): StorageSizes | undefined {
    return this.options.storages;
  }

  tensorProblem(message: string): void {
    this.problems.tensor(message, this.offset, this.currentSample());
  }

  block(callable: string): Blocked {
    return this.problems.blocked(callable, this.offset, this.currentSample());
  }

  /**
   * Runs opcodes while their bytes are in the buffer. Returns 0 after STOP, SERVICE for `run` to
   * do asynchronous work, else how many bytes from `pos` the next opcode needs.
   */
  private step(): number {
    const input = this.input;
    const b = input.buf;
    const dv = input.view;
    for (;;) {
      const p = input.pos;
      const avail = input.end - p;
      if (avail < 1) return 1;
      const op = b[p];
      switch (op) {
        case 0x4b: // BININT1
          if (avail < 2) return 2;
          this.push(b[p + 1]);
          input.pos = p + 2;
          continue;
        case 0x4d: // BININT2
          if (avail < 3) return 3;
          this.push(b[p + 1] | (b[p + 2] << 8));
          input.pos = p + 3;
          continue;
        case 0x4a: // BININT
          if (avail < 5) return 5;
          this.push(dv.getInt32(p + 1, true));
          input.pos = p + 5;
          continue;
        case 0x47: // BINFLOAT
          if (avail < 9) return 9;
          this.push(pyFloat(dv.getFloat64(p + 1, false)));
          input.pos = p + 9;
          continue;
        case 0x28: // MARK
          if (this.summarize && countNumberBatch(this, b, p)) continue;
          this.pushMark();
          input.pos = p + 1;
          continue;
        case 0x65: {
          // APPENDS
          input.pos = p + 1;
          const m = this.marks.length > 0 ? this.marks[this.marks.length - 1] : -1;
          const items = this.popMark(m > 0 && this.stack[m - 1] === this.samplesList);
          append(this, this.top(), items);
          if (this.ready.length > 0) return SERVICE;
          continue;
        }
        case 0x61: {
          // APPEND
          input.pos = p + 1;
          const v = this.pop();
          append(this, this.top(), [v]);
          if (this.ready.length > 0) return SERVICE;
          continue;
        }
        case 0x75: {
          // SETITEMS
          input.pos = p + 1;
          // The items are read where they are on the stack (no copy of each dict's items).
          const at = this.popMarkAt();
          setItems(this, this.below(at), this.stack, at);
          // Popped, not cut: setting an array's length far below its capacity shrinks its
          // backing store, and the next sample's pushes grow it again (an allocation or three a
          // sample); pop keeps it.
          const stack = this.stack;
          while (stack.length > at) stack.pop();
          continue;
        }
        case 0x73: {
          // SETITEM
          input.pos = p + 1;
          const v = this.pop();
          const k = this.pop();
          setItems(this, this.top(), [k, v]);
          continue;
        }
        case 0x71: // BINPUT
          if (avail < 2) return 2;
          input.pos = p + 2;
          this.memoPut(b[p + 1]);
          continue;
        case 0x72: // LONG_BINPUT
          if (avail < 5) return 5;
          input.pos = p + 5;
          this.memoPut(dv.getUint32(p + 1, true));
          continue;
        case 0x94: // MEMOIZE
          input.pos = p + 1;
          this.memoPut(this.memoSize);
          continue;
        case 0x68: {
          // BINGET
          if (avail < 2) return 2;
          const v = this.memoRead(b[p + 1]);
          if (v === NEED) return SERVICE;
          input.pos = p + 2;
          this.push(v);
          continue;
        }
        case 0x6a: {
          // LONG_BINGET
          if (avail < 5) return 5;
          const v = this.memoRead(dv.getUint32(p + 1, true));
          if (v === NEED) return SERVICE;
          input.pos = p + 5;
          this.push(v);
          continue;
        }
        case 0x58: // BINUNICODE
        case 0x8c: // SHORT_BINUNICODE
        case 0x8d: // BINUNICODE8
        case 0x54: // BINSTRING
        case 0x55: // SHORT_BINSTRING
        case 0x42: // BINBYTES
        case 0x43: // SHORT_BINBYTES
        case 0x8e: // BINBYTES8
        case 0x96: // BYTEARRAY8
        case 0x8a: // LONG1
        case 0x8b: {
          // LONG4
          const need = literalOpcode(this, op, p, avail);
          if (need !== CONTINUE) return need;
          continue;
        }
        case 0x5d: // EMPTY_LIST
          if (this.nextElement()) return SERVICE;
          input.pos = p + 1;
          this.push(emptyList(this, input.base + p));
          continue;
        case 0x7d: // EMPTY_DICT
          if (this.nextElement()) return SERVICE;
          input.pos = p + 1;
          this.push(this.emptyDict(input.base + p));
          continue;
        case 0x85: // TUPLE1
        case 0x86: // TUPLE2
        case 0x87: // TUPLE3
        case 0x74: // TUPLE
        case 0x6c: // LIST
        case 0x64: // DICT
        case 0x8f: // EMPTY_SET
        case 0x90: // ADDITEMS
        case 0x91: // FROZENSET
          containerOpcode(this, op, p);
          continue;
        case 0x29: // EMPTY_TUPLE
        case 0x4e: // NONE
        case 0x88: // NEWTRUE
        case 0x89: // NEWFALSE
        case 0x80: // PROTO
        case 0x95: // FRAME
        case 0x30: // POP
        case 0x31: // POP_MARK
        case 0x32: {
          // DUP
          const need = stackOpcode(this, op, p, avail);
          if (need !== CONTINUE) return need;
          continue;
        }
        case 0x2e: // STOP
          input.pos = p + 1;
          this.result = this.pop();
          this.stopped = true;
          return 0;
        case 0x63: // GLOBAL
        case 0x93: // STACK_GLOBAL
        case 0x52: // REDUCE
        case 0x81: // NEWOBJ
        case 0x92: // NEWOBJ_EX
        case 0x62: // BUILD
        case 0x69: // INST
        case 0x6f: // OBJ
        case 0x51: // BINPERSID
        case 0x50: // PERSID
        case 0x82: // EXT1
        case 0x83: // EXT2
        case 0x84: // EXT4
        case 0x97: // NEXT_BUFFER
        case 0x98: {
          // READONLY_BUFFER
          const need = callOpcode(this, op, p);
          if (need !== CONTINUE) return need;
          continue;
        }
        case 0x49: // INT (also TRUE / FALSE as I01 / I00)
        case 0x4c: // LONG
        case 0x46: // FLOAT
        case 0x53: // STRING
        case 0x56: // UNICODE
        case 0x67: // GET
        case 0x70: {
          // PUT
          const need = lineOpcode(this, op, p);
          if (need !== CONTINUE) return need;
          continue;
        }
        default:
          throw new PickleError(`unknown pickle opcode 0x${op.toString(16).padStart(2, '0')} at byte ${this.offset}`);
      }
    }
  }
}
