// A pickle machine that never runs anything (docs/pt.md): it interprets every opcode of Python's
// pickle protocols 0-5 over a byte range read in chunks (chunkedInput.ts), with the memo. GLOBAL /
// STACK_GLOBAL give names, and calls of names give values only through the allow-list
// (allowedCallables.ts); any other callable becomes a `Blocked` value and a problem naming it,
// and reading goes on.
//
// Streaming: each element of the root dict's `samples` list is handed on (`onSample`) as soon as
// the next one begins (or its batch is appended), then dropped from the stack; its long texts and
// lists of numbers are released (releasedValues.ts), so the memo keeps where they are, not them.
//
// Bounded (limits.ts): every length a pickle claims is checked against the bytes left before
// anything is allocated; the stack, the marks, the memo and the nesting depth have limits; the
// loop never recurses. With `summarize`, lists of numbers (token ids, log-probs: most of a dump's
// bytes) are counted, not kept.
import type { OpenFile } from '../../fileAccess';

import { buildState, callAllowed, type CallSite, globalName, newInstance, persistentValue } from './allowedCallables';
import { ChunkedInput } from './chunkedInput';
import { LIMITS } from './limits';
import { decodeLong, latin1, narrow, PickleError, pyStringLiteral, rawUnicodeEscape } from './pickleLiterals';
import { decodeText, ReleasedValues } from './releasedValues';
import { Blocked, depthOf, dictKey, LONG_TEXT, PyBytes, PyDict, PyFloat, pyFloat, PyList, PyObject, PySet, PyText, PyTuple, textOf } from './values';

export { LIMITS } from './limits';

export interface PickleProblem {
  /** `blocked`: a callable outside the allow-list (not run); `error`: reading stopped here. */
  kind: 'blocked' | 'error';
  message: string;
  /** Byte offset in the pickle where it happened. */
  offset: number;
  /** Samples handed over before it happened (so it is in sample `sample`, 0-based, if any). */
  sample: number;
  callable?: string;
}

export interface PickleOptions {
  /** Count lists of numbers instead of keeping them (for analysis; an export keeps them). */
  summarize?: boolean;
  /**
   * Called with each element of the root dict's `samples` list (torch.save of miles'
   * `dict(rollout_id=…, metadata=…, samples=[…])`) once it is complete: when the next element
   * begins, or when its batch is appended. The value is only whole during the call (its long
   * texts are released after it) and is not kept.
   */
  onSample?: (value: unknown, index: number) => void;
  isCancelled?: () => boolean;
  /** Read size per chunk (default 4 MiB). */
  chunkSize?: number;
}

export interface PickleResult {
  /** The unpickled value (the root), or undefined when reading stopped before STOP. */
  value: unknown;
  /** Samples handed to `onSample`. */
  samples: number;
  problems: PickleProblem[];
  cancelled: boolean;
}

const SUMMARIZE_AFTER = 8;

/** How many numbers the last `skipPickledNumbers` passed over. */
let pickledNumberCount = 0;

/**
 * Skips the run of BININT1/BININT2/BININT/BINFLOAT opcodes that starts at `q` (stopping before one
 * that does not end before `end`); returns where it stops and leaves the count in `pickledNumberCount`.
 * A small function of its own: inside `step`'s large switch the same loop ran slower
 * (BENCHMARKS.md, Design measurements).
 */
function skipPickledNumbers(b: Uint8Array, q: number, end: number): number {
  let n = 0;
  for (;;) {
    const o = b[q];
    const w = o === 0x4b ? 2 : o === 0x4d ? 3 : o === 0x4a ? 5 : o === 0x47 ? 9 : 0;
    if (w === 0 || q + w >= end) break;
    // Runs are mostly of one opcode (log-probs all BINFLOAT, masks all BININT1).
    let r = q + w;
    while (r + w < end && b[r] === o) r += w;
    n += (r - q) / w;
    q = r;
  }
  pickledNumberCount = n;
  return q;
}

/** `step` stopped so that `run` can do asynchronous work (hand samples on, read texts again). */
const SERVICE = -1;

/** A memo read that waits for released texts to be read again. */
const NEED = Symbol('need texts');

/** What stays on the stack where a sample that was handed on was. */
const HANDED = Symbol('handed on');

const utf8 = new TextDecoder('utf-8');

function isNumber(v: unknown): boolean {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof PyFloat;
}

export class PickleMachine implements CallSite {
  private readonly input: ChunkedInput;
  private readonly stack: unknown[] = [];
  private readonly marks: number[] = [];
  private readonly memo = new Map<number, unknown>();
  private readonly problems: PickleProblem[] = [];
  private readonly blockedSeen = new Set<string>();
  private samplesList: PyList | null = null;
  /** Elements of the samples batch on the stack (above its MARK) already handed on. */
  private batchHanded = 0;
  /** Samples complete and waiting for `run` to hand them on, with their index. */
  private ready: { value: unknown; index: number }[] = [];
  /** Samples handed on (top-level values): a pickle that changes one afterwards is refused. */
  private readonly handed = new WeakSet<object>();
  /** Released values a memo read needs again, read by `run` before the read is done again. */
  private reread: (PyText | PyList)[] = [];
  private readonly released = new ReleasedValues();
  /** Release texts and number lists after hand-on (only when samples are handed on, not kept). */
  private readonly releasing: boolean;
  private samples = 0;
  private result: unknown = undefined;
  private stopped = false;
  private readonly summarize: boolean;

  constructor(
    file: OpenFile,
    start: number,
    length: number,
    private readonly options: PickleOptions = {},
  ) {
    this.summarize = options.summarize ?? false;
    this.releasing = options.onSample !== undefined;
    this.input = new ChunkedInput(file, start, length, options.chunkSize ?? 4 << 20);
  }

  private get offset(): number {
    return this.input.offset;
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
        if (need === SERVICE) await this.service();
        else if (need > 0) {
          const left = input.end - input.pos + input.unread;
          if (need > left) {
            if (input.end - input.pos === 0 && input.unread === 0) throw new PickleError('data.pkl ends without STOP (the pickle is truncated)');
            throw new PickleError(`an opcode at byte ${this.offset} claims ${need} bytes but only ${left} remain in data.pkl`);
          }
          await input.fill(need);
        }
      }
    } catch (err) {
      if (!(err instanceof PickleError)) throw err;
      this.problems.push({ kind: 'error', message: err.message, offset: this.offset, sample: this.currentSample() });
    }
    // The file is closed after this: no read may still be in flight.
    await input.settle();
    return this.finish(false);
  }

  /** Texts a memo read needs again are read; complete samples are handed on, then released. */
  private async service(): Promise<void> {
    const reread = this.reread;
    this.reread = [];
    for (const x of reread) {
      const [at, n] = this.released.range(x);
      this.released.restore(x, await this.input.reread(at, n));
    }
    if (this.ready.length === 0) return;
    const ready = this.ready;
    this.ready = [];
    for (const r of ready) this.options.onSample?.(r.value, r.index);
    this.released.release(this.input);
  }

  /**
   * Index of the sample being read: the pickler appends samples in batches (MARK … APPENDS), so
   * the ones of this batch not yet handed on sit on the stack above the batch's MARK, the last
   * being built.
   */
  private currentSample(): number {
    const pending = this.samples + this.ready.length;
    const list = this.samplesList;
    if (list === null) return pending;
    const pos = this.stack.lastIndexOf(list);
    if (pos < 0) return pending;
    const mi = this.marks.findIndex((m) => m > pos);
    if (mi < 0) return pending;
    const to = mi + 1 < this.marks.length ? this.marks[mi + 1] : this.stack.length;
    return this.samples + Math.max(0, to - this.marks[mi] - this.batchHanded - 1);
  }

  private finish(cancelled: boolean): PickleResult {
    return { value: this.result, samples: this.samples, problems: this.problems, cancelled };
  }

  private late(): PickleError {
    return new PickleError(
      `the pickle changes or reuses a sample at byte ${this.offset} after the next one began, which Python's pickler never writes (the sample was already read)`,
    );
  }

  private push(v: unknown): void {
    if (this.stack.length >= LIMITS.stack) throw new PickleError(`more than ${LIMITS.stack} values on the pickle stack`);
    this.stack.push(v);
  }

  private pop(): unknown {
    if (this.stack.length === 0 || (this.marks.length > 0 && this.stack.length <= this.marks[this.marks.length - 1])) {
      throw new PickleError(`stack underflow at byte ${this.offset}`);
    }
    const v = this.stack.pop();
    if (v === HANDED) throw this.late();
    return v;
  }

  private top(): unknown {
    if (this.stack.length === 0) throw new PickleError(`stack underflow at byte ${this.offset}`);
    const v = this.stack[this.stack.length - 1];
    if (v === HANDED) throw this.late();
    return v;
  }

  /** The values above the last MARK; a batch of samples handed on only to APPENDS onto their list. */
  private popMark(intoSamples = false): unknown[] {
    const m = this.marks.pop();
    if (m === undefined) throw new PickleError(`no MARK to pop at byte ${this.offset}`);
    if (this.batchHanded > 0 && m > 0 && this.stack[m - 1] === this.samplesList) {
      if (!intoSamples) throw this.late();
      this.batchHanded = 0;
    }
    return this.stack.splice(m);
  }

  /**
   * A dict or list is about to be pushed: when the batch's elements not yet handed on are all
   * plain dicts (miles' `Sample.to_dict()`s) with nothing above them, they are complete and are
   * queued for `run` to hand on. Python's pickler writes each element whole before the next, and
   * a dict or list directly on a plain dict can only be the next element: it is no key (a dict or
   * list is unhashable), no `BUILD` state (a plain dict gets none) and inside no `SETITEM(S)` (which
   * has a key or a MARK between). The one pickle this misjudges, a samples list of 2- or 3-tuples of
   * dicts (`TUPLE2`/`TUPLE3` after them), is refused when the tuple is made, never misread.
   */
  private nextElement(): boolean {
    const m = this.marks.length > 0 ? this.marks[this.marks.length - 1] : -1;
    const s = this.stack.length - 1;
    if (m <= 0 || this.samplesList === null || this.stack[m - 1] !== this.samplesList || s < m + this.batchHanded) return false;
    for (let i = m + this.batchHanded; i <= s; i++) {
      const v = this.stack[i];
      if (!(v instanceof PyDict) || v.byCall) return false;
    }
    for (let i = m + this.batchHanded; i <= s; i++) {
      this.queueSample(this.stack[i]);
      this.stack[i] = HANDED;
    }
    this.batchHanded = s + 1 - m;
    return true;
  }

  private queueSample(v: unknown): void {
    if (typeof v === 'object' && v !== null) this.handed.add(v);
    this.ready.push({ value: v, index: this.samples++ });
  }

  private memoGet(i: number): unknown {
    if (!this.memo.has(i)) throw new PickleError(`memo read of slot ${i} at byte ${this.offset}, which was never stored`);
    return this.memo.get(i);
  }

  /**
   * A memo read's value, whole: released texts in it whose bytes are still in the window are
   * decoded now; otherwise undefined, and `run` reads them again before the read is done again.
   */
  private memoRead(i: number): unknown {
    const v = this.memoGet(i);
    if (!this.released.any) return v;
    const missing = this.released.missing(v, this.input);
    if (missing.length === 0) return v;
    this.reread = missing;
    return NEED;
  }

  private memoPut(i: number): void {
    if (this.memo.size >= LIMITS.memo && !this.memo.has(i)) throw new PickleError(`more than ${LIMITS.memo} memo entries`);
    this.memo.set(i, this.top());
  }

  /** A str: short ones as JS strings, long ones as a `PyText` that knows where its bytes are. */
  private text(at: number, n: number, latin: boolean): string | PyText {
    const bytes = this.input.bytes(at, n);
    if (n < LONG_TEXT) return latin ? latin1.decode(bytes) : utf8.decode(bytes);
    const t = new PyText(at, n, latin, null);
    t.text = decodeText(t, bytes);
    if (this.releasing && this.samplesList !== null) this.released.keep(t);
    return t;
  }

  deeper(d: number): number {
    if (d > LIMITS.depth) throw new PickleError(`values nested more than ${LIMITS.depth} levels deep at byte ${this.offset}`);
    return d;
  }

  private tuple(items: unknown[]): PyTuple {
    let d = 0;
    for (const x of items) d = Math.max(d, depthOf(x));
    return new PyTuple(items, this.deeper(d + 1));
  }

  private unchanged(target: unknown): void {
    if (typeof target === 'object' && target !== null && this.handed.has(target)) throw this.late();
  }

  private append(target: unknown, items: unknown[]): void {
    if (target !== null && target === this.samplesList) {
      for (const x of items) if (x !== HANDED) this.queueSample(x);
      this.samplesList.count += items.length;
      return;
    }
    this.unchanged(target);
    if (target instanceof PyObject) {
      // A list subclass: its items, kept beside the state.
      const list = ((target as PyObject & { list?: PyList }).list ??= new PyList());
      this.append(list, items);
      return;
    }
    if (!(target instanceof PyList)) throw new PickleError(`APPEND to a value that is not a list at byte ${this.offset}`);
    if (target.from >= 0) target.to = this.offset;
    let d = target.depth;
    for (const x of items) d = Math.max(d, depthOf(x) + 1);
    target.depth = this.deeper(d);
    target.count += items.length;
    if (this.summarize && (target.summarized || target.items.length + items.length > SUMMARIZE_AFTER)) {
      let numbers = true;
      for (const x of items) if (!isNumber(x)) numbers = false;
      if (target.summarized && numbers) return;
      if (!target.summarized && numbers && target.items.every(isNumber)) {
        target.summarized = true;
        target.items = [];
        return;
      }
    }
    for (const x of items) target.items.push(x);
  }

  private setItems(target: unknown, items: unknown[]): void {
    this.unchanged(target);
    if (target instanceof PyObject) {
      const dict = ((target as PyObject & { dict?: PyDict }).dict ??= new PyDict());
      this.setItems(dict, items);
      return;
    }
    if (!(target instanceof PyDict)) throw new PickleError(`SETITEM on a value that is not a dict at byte ${this.offset}`);
    if (items.length % 2 !== 0) throw new PickleError(`SETITEMS with an odd number of values at byte ${this.offset}`);
    let d = target.depth;
    for (let i = 0; i < items.length; i += 2) {
      target.map.set(dictKey(items[i]), items[i + 1]);
      d = Math.max(d, depthOf(items[i + 1]) + 1);
    }
    target.depth = this.deeper(d);
  }

  block(callable: string): Blocked {
    if (!this.blockedSeen.has(callable)) {
      this.blockedSeen.add(callable);
      this.problems.push({
        kind: 'blocked',
        callable,
        offset: this.offset,
        sample: this.currentSample(),
        message: `the pickle calls ${callable}, which is not a data type: it was not run (nothing in the file was executed) and its result is left out`,
      });
    }
    return new Blocked(callable);
  }

  /** Index of the next `\n` from `from` (in the buffer), or -1 when not in the buffer. */
  private lineEnd(from: number): number {
    const input = this.input;
    const i = input.buf.subarray(from, input.end).indexOf(10);
    return i < 0 ? -1 : from + i;
  }

  /** How many bytes to ask for when a text line is not complete in the buffer. */
  private lineNeed(from: number): number {
    const input = this.input;
    const have = input.end - input.pos;
    if (input.unread === 0) throw new PickleError(`a text argument at byte ${input.base + from} has no end of line (the pickle is truncated)`);
    if (have > LIMITS.line) throw new PickleError(`a text argument longer than ${LIMITS.line} bytes at byte ${input.base + from}`);
    return have + Math.min(input.unread, Math.max(have, 1 << 16));
  }

  /**
   * Runs opcodes while their bytes are in the buffer. Returns 0 after STOP, else how many bytes
   * from `pos` the next opcode needs.
   */
  private step(): number {
    const input = this.input;
    const b = input.buf;
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
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
          if (this.summarize) {
            // MARK, a run of BININT1/BININT2/BININT/BINFLOAT, APPENDS onto a list of numbers: the
            // pickler's batches of token ids and log-probs. Counted in one pass, nothing pushed.
            const end = input.end;
            const q = skipPickledNumbers(b, p + 1, end);
            const n = pickledNumberCount;
            if (q < end && b[q] === 0x65 && n > SUMMARIZE_AFTER && this.stack.length > 0) {
              const target = this.stack[this.stack.length - 1];
              if (target instanceof PyList && target !== this.samplesList && !this.handed.has(target) && (target.summarized || target.items.every(isNumber))) {
                target.summarized = true;
                target.items = [];
                target.count += n;
                input.pos = q + 1;
                continue;
              }
            }
          }
          if (this.marks.length >= LIMITS.marks) throw new PickleError(`more than ${LIMITS.marks} open MARKs`);
          this.marks.push(this.stack.length);
          input.pos = p + 1;
          continue;
        case 0x65: {
          // APPENDS
          input.pos = p + 1;
          const m = this.marks.length > 0 ? this.marks[this.marks.length - 1] : -1;
          const items = this.popMark(m > 0 && this.stack[m - 1] === this.samplesList);
          this.append(this.top(), items);
          if (this.ready.length > 0) return SERVICE;
          continue;
        }
        case 0x61: {
          // APPEND
          input.pos = p + 1;
          const v = this.pop();
          this.append(this.top(), [v]);
          if (this.ready.length > 0) return SERVICE;
          continue;
        }
        case 0x75: {
          // SETITEMS
          input.pos = p + 1;
          const items = this.popMark();
          this.setItems(this.top(), items);
          continue;
        }
        case 0x73: {
          // SETITEM
          input.pos = p + 1;
          const v = this.pop();
          const k = this.pop();
          this.setItems(this.top(), [k, v]);
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
          this.memoPut(this.memo.size);
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
        case 0x8d: {
          // BINUNICODE8
          const head = op === 0x8c ? 2 : op === 0x58 ? 5 : 9;
          if (avail < head) return head;
          const n = op === 0x8c ? b[p + 1] : op === 0x58 ? dv.getUint32(p + 1, true) : Number(dv.getBigUint64(p + 1, true));
          if (avail < head + n) return head + n;
          input.pos = p + head + n;
          this.push(this.text(input.base + p + head, n, false));
          continue;
        }
        case 0x42: // BINBYTES
        case 0x43: // SHORT_BINBYTES
        case 0x8e: // BINBYTES8
        case 0x96: {
          // BYTEARRAY8
          const head = op === 0x43 ? 2 : op === 0x42 ? 5 : 9;
          if (avail < head) return head;
          const n = op === 0x43 ? b[p + 1] : op === 0x42 ? dv.getUint32(p + 1, true) : Number(dv.getBigUint64(p + 1, true));
          if (avail < head + n) return head + n;
          input.pos = p + head + n;
          this.push(new PyBytes(b.slice(p + head, p + head + n)));
          continue;
        }
        case 0x54: // BINSTRING
        case 0x55: {
          // SHORT_BINSTRING (Python 2 str, read as Python 3 does by default: ASCII → here latin-1)
          const head = op === 0x55 ? 2 : 5;
          if (avail < head) return head;
          const n = op === 0x55 ? b[p + 1] : dv.getInt32(p + 1, true);
          if (n < 0) throw new PickleError(`negative BINSTRING length at byte ${this.offset}`);
          if (avail < head + n) return head + n;
          input.pos = p + head + n;
          this.push(this.text(input.base + p + head, n, true));
          continue;
        }
        case 0x5d: // EMPTY_LIST
          if (this.nextElement()) return SERVICE;
          input.pos = p + 1;
          {
            const list = new PyList();
            if (this.samplesList === null && this.stack.length > 0 && this.stack.length <= 16 && this.stack[0] instanceof PyDict && this.top() === 'samples') {
              this.samplesList = list;
            } else if (this.releasing && !this.summarize && this.samplesList !== null) {
              // Inside a sample: its numbers (token ids, log-probs) may be released after it.
              list.from = input.base + p;
              this.released.keepList(list);
            }
            this.push(list);
          }
          continue;
        case 0x7d: // EMPTY_DICT
          if (this.nextElement()) return SERVICE;
          input.pos = p + 1;
          this.push(new PyDict());
          continue;
        case 0x29: // EMPTY_TUPLE
          input.pos = p + 1;
          this.push(new PyTuple([], 1));
          continue;
        case 0x85: // TUPLE1
        case 0x86: // TUPLE2
        case 0x87: {
          // TUPLE3
          input.pos = p + 1;
          const n = op - 0x84;
          const items: unknown[] = [];
          for (let i = 0; i < n; i++) items.unshift(this.pop());
          this.push(this.tuple(items));
          continue;
        }
        case 0x74: // TUPLE
          input.pos = p + 1;
          this.push(this.tuple(this.popMark()));
          continue;
        case 0x6c: {
          // LIST
          input.pos = p + 1;
          const list = new PyList();
          this.append(list, this.popMark());
          this.push(list);
          continue;
        }
        case 0x64: {
          // DICT
          input.pos = p + 1;
          const d = new PyDict();
          this.setItems(d, this.popMark());
          this.push(d);
          continue;
        }
        case 0x8f: // EMPTY_SET
          input.pos = p + 1;
          this.push(new PySet(false));
          continue;
        case 0x90: {
          // ADDITEMS
          input.pos = p + 1;
          const items = this.popMark();
          const s = this.top();
          this.unchanged(s);
          if (!(s instanceof PySet)) throw new PickleError(`ADDITEMS to a value that is not a set at byte ${this.offset}`);
          for (const x of items) s.items.push(x);
          s.depth = this.deeper(Math.max(s.depth, ...items.map((x) => depthOf(x) + 1)));
          continue;
        }
        case 0x91: {
          // FROZENSET
          input.pos = p + 1;
          const s = new PySet(true);
          s.items.push(...this.popMark());
          this.push(s);
          continue;
        }
        case 0x4e: // NONE
          input.pos = p + 1;
          this.push(null);
          continue;
        case 0x88: // NEWTRUE
          input.pos = p + 1;
          this.push(true);
          continue;
        case 0x89: // NEWFALSE
          input.pos = p + 1;
          this.push(false);
          continue;
        case 0x8a: // LONG1
        case 0x8b: {
          // LONG4
          const head = op === 0x8a ? 2 : 5;
          if (avail < head) return head;
          const n = op === 0x8a ? b[p + 1] : dv.getInt32(p + 1, true);
          if (n < 0) throw new PickleError(`negative LONG4 length at byte ${this.offset}`);
          if (n > LIMITS.longBytes) throw new PickleError(`an integer of ${n} bytes at byte ${this.offset} (more than ${LIMITS.longBytes})`);
          if (avail < head + n) return head + n;
          input.pos = p + head + n;
          this.push(decodeLong(b.subarray(p + head, p + head + n)));
          continue;
        }
        case 0x80: // PROTO
          if (avail < 2) return 2;
          if (b[p + 1] > 5) throw new PickleError(`pickle protocol ${b[p + 1]} is not supported (this reader knows protocols 0 to 5)`);
          input.pos = p + 2;
          continue;
        case 0x95: // FRAME: only a read-ahead hint; the bytes follow as usual.
          if (avail < 9) return 9;
          input.pos = p + 9;
          continue;
        case 0x2e: // STOP
          input.pos = p + 1;
          this.result = this.pop();
          this.stopped = true;
          return 0;
        case 0x30: // POP
          input.pos = p + 1;
          if (this.stack.length > 0 && !(this.marks.length > 0 && this.stack.length <= this.marks[this.marks.length - 1])) this.pop();
          else this.popMark();
          continue;
        case 0x31: // POP_MARK
          input.pos = p + 1;
          this.popMark();
          continue;
        case 0x32: // DUP
          input.pos = p + 1;
          this.push(this.top());
          continue;
        case 0x63: {
          // GLOBAL module\nname\n
          const e1 = this.lineEnd(p + 1);
          if (e1 < 0) return this.lineNeed(p + 1);
          const e2 = this.lineEnd(e1 + 1);
          if (e2 < 0) return this.lineNeed(e1 + 1);
          input.pos = e2 + 1;
          this.push(globalName(utf8.decode(b.subarray(p + 1, e1)), utf8.decode(b.subarray(e1 + 1, e2))));
          continue;
        }
        case 0x93: {
          // STACK_GLOBAL
          input.pos = p + 1;
          const name = this.pop();
          const module = this.pop();
          const n = textOf(name);
          const mod = textOf(module);
          if (n === undefined || mod === undefined) throw new PickleError(`STACK_GLOBAL of values that are not names at byte ${this.offset}`);
          this.push(globalName(mod, n));
          continue;
        }
        case 0x52: {
          // REDUCE
          input.pos = p + 1;
          const args = this.pop();
          const f = this.pop();
          this.push(callAllowed(this, f, args instanceof PyTuple ? args.items : []));
          continue;
        }
        case 0x81: {
          // NEWOBJ
          input.pos = p + 1;
          this.pop(); // the arguments: an inert instance needs none
          const cls = this.pop();
          this.push(newInstance(this, cls));
          continue;
        }
        case 0x92: {
          // NEWOBJ_EX
          input.pos = p + 1;
          this.pop(); // keyword and positional arguments
          this.pop();
          const cls = this.pop();
          this.push(newInstance(this, cls));
          continue;
        }
        case 0x62: {
          // BUILD
          input.pos = p + 1;
          const state = this.pop();
          const inst = this.top();
          this.unchanged(inst);
          buildState(this, inst, state);
          continue;
        }
        case 0x69: {
          // INST module\nname\n: a call of module.name with the marked values
          const e1 = this.lineEnd(p + 1);
          if (e1 < 0) return this.lineNeed(p + 1);
          const e2 = this.lineEnd(e1 + 1);
          if (e2 < 0) return this.lineNeed(e1 + 1);
          input.pos = e2 + 1;
          const g = globalName(utf8.decode(b.subarray(p + 1, e1)), utf8.decode(b.subarray(e1 + 1, e2)));
          this.push(callAllowed(this, g, this.popMark()));
          continue;
        }
        case 0x6f: {
          // OBJ: a call of the first marked value with the rest
          input.pos = p + 1;
          const items = this.popMark();
          if (items.length === 0) throw new PickleError(`OBJ without a class at byte ${this.offset}`);
          this.push(callAllowed(this, items[0], items.slice(1)));
          continue;
        }
        case 0x51: // BINPERSID
          input.pos = p + 1;
          this.push(persistentValue(this.pop()));
          continue;
        case 0x50: {
          // PERSID id\n
          const e = this.lineEnd(p + 1);
          if (e < 0) return this.lineNeed(p + 1);
          input.pos = e + 1;
          this.push(persistentValue(latin1.decode(b.subarray(p + 1, e))));
          continue;
        }
        case 0x82: // EXT1
        case 0x83: // EXT2
        case 0x84: // EXT4
          throw new PickleError(
            `the pickle uses the copyreg extension registry (EXT opcode at byte ${this.offset}), which names callables by number: not supported`,
          );
        case 0x97: // NEXT_BUFFER
          throw new PickleError(`the pickle refers to an out-of-band buffer (NEXT_BUFFER at byte ${this.offset}) that is not in the file`);
        case 0x98: // READONLY_BUFFER
          input.pos = p + 1;
          continue;
        case 0x49: // INT (also TRUE / FALSE as I01 / I00)
        case 0x4c: // LONG
        case 0x46: // FLOAT
        case 0x53: // STRING
        case 0x56: // UNICODE
        case 0x67: // GET
        case 0x70: {
          // PUT
          const e = this.lineEnd(p + 1);
          if (e < 0) return this.lineNeed(p + 1);
          if (op === 0x67) {
            const v = this.memoRead(this.parseIndex(latin1.decode(b.subarray(p + 1, e))));
            if (v === NEED) return SERVICE;
            input.pos = e + 1;
            this.push(v);
            continue;
          }
          input.pos = e + 1;
          this.textOp(op, b.subarray(p + 1, e));
          continue;
        }
        default:
          throw new PickleError(`unknown pickle opcode 0x${op.toString(16).padStart(2, '0')} at byte ${this.offset}`);
      }
    }
  }

  /** Protocol 0 opcodes whose argument is a text line. */
  private textOp(op: number, arg: Uint8Array): void {
    const text = latin1.decode(arg);
    switch (op) {
      case 0x49:
        if (text === '01') return this.push(true);
        if (text === '00') return this.push(false);
        return this.push(this.parseInt(text));
      case 0x4c:
        return this.push(this.parseInt(text.endsWith('L') ? text.slice(0, -1) : text));
      case 0x46: {
        const t = text.trim().toLowerCase();
        const v = t === 'nan' ? NaN : t === 'inf' ? Infinity : t === '-inf' ? -Infinity : Number(t);
        if (Number.isNaN(v) && t !== 'nan') throw new PickleError(`bad FLOAT ${JSON.stringify(text.slice(0, 40))} at byte ${this.offset}`);
        return this.push(pyFloat(v));
      }
      case 0x53:
        return this.push(pyStringLiteral(text));
      case 0x56:
        return this.push(rawUnicodeEscape(arg));
      case 0x70:
        return this.memoPut(this.parseIndex(text));
    }
  }

  private parseInt(text: string): number | bigint {
    const t = text.trim();
    if (!/^[+-]?\d+$/.test(t) || t.length > LIMITS.longBytes) throw new PickleError(`bad integer ${JSON.stringify(t.slice(0, 40))} at byte ${this.offset}`);
    return narrow(BigInt(t));
  }

  private parseIndex(text: string): number {
    const n = Number(text.trim());
    if (!Number.isInteger(n) || n < 0) throw new PickleError(`bad memo index ${JSON.stringify(text.slice(0, 40))} at byte ${this.offset}`);
    return n;
  }
}
