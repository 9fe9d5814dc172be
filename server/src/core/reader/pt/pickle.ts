// A pickle machine that never runs anything (docs/pt.md): it interprets every opcode of Python's
// pickle protocols 0-5 over a byte range read in chunks, with the memo, and maps GLOBAL /
// STACK_GLOBAL through an allow-list to inert values (numpy arrays and torch tensors as dtype and
// shape, `_codecs.encode` as bytes, OrderedDict as a dict, NEWOBJ + BUILD instances as class name
// and state, PIL images as mode and size). Any other callable is never resolved: its call becomes a
// `Blocked` value and a problem naming it, and reading goes on.
//
// Bounded: every length a pickle claims is checked against the bytes left before anything is
// allocated; the stack, the marks, the memo and the nesting depth have limits; the loop never
// recurses. With `summarize`, lists of numbers (token ids, log-probs: most of a dump's bytes) are
// counted, not kept.
import type { OpenFile } from '../../fileAccess';

import {
  Blocked,
  depthOf,
  ImagePlaceholder,
  NdArrayPlaceholder,
  NpDtype,
  PyBytes,
  PyDict,
  PyFloat,
  pyFloat,
  PyGlobal,
  PyList,
  PyObject,
  PySet,
  PyTuple,
  StoragePlaceholder,
  TensorPlaceholder,
} from './values';
import { decodeLong, latin1, narrow, numpyScalar, PickleError, pyStringLiteral, rawUnicodeEscape } from './pickleLiterals';

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
   * Called with each element of the root dict's `samples` list as it is appended (torch.save of
   * miles' `dict(rollout_id=…, metadata=…, samples=[…])`); those elements are then not kept.
   */
  onSample?: (value: unknown, index: number) => void;
  isCancelled?: () => boolean;
  /** Read size per chunk (default 1 MiB). */
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

export const LIMITS = {
  stack: 1 << 20,
  marks: 1 << 16,
  memo: 1 << 22,
  depth: 1000,
  /** Digits of a LONG / bytes of a LONG1/LONG4 beyond which an integer is not converted. */
  longBytes: 4096,
  /** Longest text line (protocol 0 arguments, GLOBAL names). */
  line: 64 << 20,
};

const SUMMARIZE_AFTER = 8;

/** Python 2 module names protocol 0-2 pickles use for builtins (fix_imports). */
const MODULE_ALIASES: Record<string, string> = { __builtin__: 'builtins', copy_reg: 'copyreg' };

const STORAGE_DTYPES: Record<string, string> = {
  FloatStorage: 'float32',
  DoubleStorage: 'float64',
  HalfStorage: 'float16',
  BFloat16Storage: 'bfloat16',
  LongStorage: 'int64',
  IntStorage: 'int32',
  ShortStorage: 'int16',
  CharStorage: 'int8',
  ByteStorage: 'uint8',
  BoolStorage: 'bool',
  ComplexFloatStorage: 'complex64',
  ComplexDoubleStorage: 'complex128',
};

const utf8 = new TextDecoder('utf-8');

function isNumber(v: unknown): boolean {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof PyFloat;
}

export class PickleMachine {
  private buf = new Uint8Array(0);
  private pos = 0;
  private end = 0;
  /** Pickle offset of buf[0]. */
  private base = 0;
  private readonly stack: unknown[] = [];
  private readonly marks: number[] = [];
  private readonly memo = new Map<number, unknown>();
  private readonly problems: PickleProblem[] = [];
  private readonly blockedSeen = new Set<string>();
  private samplesList: PyList | null = null;
  private samples = 0;
  private result: unknown = undefined;
  private stopped = false;
  private readonly summarize: boolean;
  private readonly chunk: number;

  constructor(
    private readonly file: OpenFile,
    /** Where the pickle starts in the file and how long it is. */
    private readonly start: number,
    private readonly length: number,
    private readonly options: PickleOptions = {},
  ) {
    this.summarize = options.summarize ?? false;
    this.chunk = options.chunkSize ?? 4 << 20;
  }

  private get offset(): number {
    return this.base + this.pos;
  }

  /** Bytes of the pickle not yet in the buffer. */
  private get unread(): number {
    return this.length - (this.base + this.end);
  }

  /** The next chunk, read while the current one is interpreted: where it starts, and the read. */
  private ahead: { at: number; buf: Uint8Array; read: Promise<number> } | null = null;
  /** A read-ahead buffer whose bytes were all taken: reused for the next read-ahead. */
  private spare: Uint8Array | null = null;

  /** Makes at least `need` bytes available from `pos` (fewer only at the end of the pickle). */
  private async fill(need: number): Promise<void> {
    const have = this.end - this.pos;
    const want = Math.min(Math.max(need, this.chunk), have + this.unread);
    const next = want <= this.buf.length ? this.buf : new Uint8Array(want);
    if (next === this.buf) this.buf.copyWithin(0, this.pos, this.end);
    else next.set(this.buf.subarray(this.pos, this.end), 0);
    this.base += this.pos;
    this.buf = next;
    this.pos = 0;
    this.end = have;
    while (this.end < want) {
      const at = this.base + this.end;
      const ahead = this.ahead;
      this.ahead = null;
      let n = -1;
      if (ahead !== null && ahead.at === at) {
        const got = await ahead.read;
        if (got > 0) {
          n = Math.min(got, want - this.end);
          this.buf.set(ahead.buf.subarray(0, n), this.end);
          if (n < got) this.ahead = { at: at + n, buf: ahead.buf.subarray(n), read: Promise.resolve(got - n) };
          else if (ahead.buf.byteOffset === 0) this.spare = ahead.buf;
        }
      }
      if (n <= 0) n = await this.file.read(this.buf, this.end, want - this.end, this.start + at);
      if (n <= 0) throw new PickleError(`data.pkl ends after ${this.base + this.end} of its ${this.length} bytes (the file is truncated)`);
      this.end += n;
    }
    const at = this.base + this.end;
    const left = this.length - at;
    if (this.ahead === null && left > 0) {
      const size = Math.min(this.chunk, left);
      const buf = this.spare !== null && this.spare.length >= size ? this.spare.subarray(0, size) : new Uint8Array(size);
      this.spare = null;
      // A failed read-ahead is read again directly (and reports its error there).
      this.ahead = { at, buf, read: this.file.read(buf, 0, buf.length, this.start + at).catch(() => -1) };
    }
  }

  async run(): Promise<PickleResult> {
    try {
      while (!this.stopped) {
        if (this.options.isCancelled?.()) {
          if (this.ahead !== null) await this.ahead.read;
          return this.finish(true);
        }
        const need = this.step();
        if (need > 0) {
          const left = this.end - this.pos + this.unread;
          if (need > left) {
            if (this.end - this.pos === 0 && this.unread === 0) throw new PickleError('data.pkl ends without STOP (the pickle is truncated)');
            throw new PickleError(`an opcode at byte ${this.offset} claims ${need} bytes but only ${left} remain in data.pkl`);
          }
          await this.fill(need);
        }
      }
    } catch (err) {
      if (!(err instanceof PickleError)) throw err;
      this.problems.push({ kind: 'error', message: err.message, offset: this.offset, sample: this.currentSample() });
    }
    // The file is closed after this: no read may still be in flight.
    if (this.ahead !== null) await this.ahead.read;
    return this.finish(false);
  }

  /**
   * Index of the sample being read: the pickler appends samples in batches (MARK … APPENDS), so
   * the finished ones of this batch and the one being built sit on the stack above the batch's MARK.
   */
  private currentSample(): number {
    const list = this.samplesList;
    if (list === null) return this.samples;
    const pos = this.stack.lastIndexOf(list);
    if (pos < 0) return this.samples;
    const mi = this.marks.findIndex((m) => m > pos);
    if (mi < 0) return this.samples;
    const to = mi + 1 < this.marks.length ? this.marks[mi + 1] : this.stack.length;
    return this.samples + Math.max(0, to - this.marks[mi] - 1);
  }

  private finish(cancelled: boolean): PickleResult {
    return { value: this.result, samples: this.samples, problems: this.problems, cancelled };
  }

  private push(v: unknown): void {
    if (this.stack.length >= LIMITS.stack) throw new PickleError(`more than ${LIMITS.stack} values on the pickle stack`);
    this.stack.push(v);
  }

  private pop(): unknown {
    if (this.stack.length === 0 || (this.marks.length > 0 && this.stack.length <= this.marks[this.marks.length - 1])) {
      throw new PickleError(`stack underflow at byte ${this.offset}`);
    }
    return this.stack.pop();
  }

  private top(): unknown {
    if (this.stack.length === 0) throw new PickleError(`stack underflow at byte ${this.offset}`);
    return this.stack[this.stack.length - 1];
  }

  private popMark(): unknown[] {
    const m = this.marks.pop();
    if (m === undefined) throw new PickleError(`no MARK to pop at byte ${this.offset}`);
    return this.stack.splice(m);
  }

  private memoGet(i: number): unknown {
    if (!this.memo.has(i)) throw new PickleError(`memo read of slot ${i} at byte ${this.offset}, which was never stored`);
    return this.memo.get(i);
  }

  private memoPut(i: number): void {
    if (this.memo.size >= LIMITS.memo && !this.memo.has(i)) throw new PickleError(`more than ${LIMITS.memo} memo entries`);
    this.memo.set(i, this.top());
  }

  private deeper(d: number): number {
    if (d > LIMITS.depth) throw new PickleError(`values nested more than ${LIMITS.depth} levels deep at byte ${this.offset}`);
    return d;
  }

  private tuple(items: unknown[]): PyTuple {
    let d = 0;
    for (const x of items) d = Math.max(d, depthOf(x));
    return new PyTuple(items, this.deeper(d + 1));
  }

  private append(target: unknown, items: unknown[]): void {
    if (target !== null && target === this.samplesList) {
      for (const x of items) this.options.onSample?.(x, this.samples++);
      this.samplesList.count += items.length;
      return;
    }
    if (target instanceof PyObject) {
      // A list subclass: its items, kept beside the state.
      const list = ((target as PyObject & { list?: PyList }).list ??= new PyList());
      this.append(list, items);
      return;
    }
    if (!(target instanceof PyList)) throw new PickleError(`APPEND to a value that is not a list at byte ${this.offset}`);
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
    if (target instanceof PyObject) {
      const dict = ((target as PyObject & { dict?: PyDict }).dict ??= new PyDict());
      this.setItems(dict, items);
      return;
    }
    if (!(target instanceof PyDict)) throw new PickleError(`SETITEM on a value that is not a dict at byte ${this.offset}`);
    if (items.length % 2 !== 0) throw new PickleError(`SETITEMS with an odd number of values at byte ${this.offset}`);
    let d = target.depth;
    for (let i = 0; i < items.length; i += 2) {
      target.map.set(items[i], items[i + 1]);
      d = Math.max(d, depthOf(items[i + 1]) + 1);
    }
    target.depth = this.deeper(d);
  }

  private global(module: string, name: string): PyGlobal {
    return new PyGlobal(MODULE_ALIASES[module] ?? module, name);
  }

  private block(callable: string): Blocked {
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

  /** REDUCE / INST / OBJ: a call. Only allow-listed callables give a value; nothing is ever run. */
  private call(f: unknown, args: unknown[]): unknown {
    if (f instanceof Blocked) return f;
    if (!(f instanceof PyGlobal)) return this.block('a value that is not a named callable');
    const a = args;
    switch (f.qualified) {
      case 'collections.OrderedDict': {
        const d = new PyDict();
        const init = a[0];
        if (init instanceof PyList)
          for (const pair of init.items) if (pair instanceof PyTuple && pair.items.length === 2) d.map.set(pair.items[0], pair.items[1]);
        return d;
      }
      case '_codecs.encode': {
        const text = typeof a[0] === 'string' ? a[0] : '';
        const enc = typeof a[1] === 'string' ? a[1].toLowerCase().replace('-', '') : 'utf8';
        if (enc === 'latin1' || enc === 'iso88591') {
          const out = new Uint8Array(text.length);
          for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
          return new PyBytes(out);
        }
        return new PyBytes(new TextEncoder().encode(text));
      }
      case 'builtins.bytes':
      case 'builtins.bytearray': {
        if (a.length === 0) return new PyBytes(new Uint8Array(0));
        if (a[0] instanceof PyList) return new PyBytes(Uint8Array.from(a[0].items.map((x) => Number(x) & 0xff)));
        if (typeof a[0] === 'string') return this.call(new PyGlobal('_codecs', 'encode'), a);
        if (a[0] instanceof PyBytes) return a[0];
        return new PyBytes(new Uint8Array(0));
      }
      case 'builtins.set':
      case 'builtins.frozenset': {
        const s = new PySet(f.name === 'frozenset');
        const init = a[0];
        if (init instanceof PyList) s.items.push(...init.items);
        else if (init instanceof PyTuple) s.items.push(...init.items);
        return s;
      }
      case 'copyreg._reconstructor':
      case 'copyreg.__newobj__':
        return this.newObj(a[0], a.slice(1));
      case 'numpy.core.multiarray._reconstruct':
      case 'numpy._core.multiarray._reconstruct':
        return new NdArrayPlaceholder();
      case 'numpy.dtype':
        return new NpDtype(typeof a[0] === 'string' ? a[0] : '?');
      case 'numpy.core.multiarray.scalar':
      case 'numpy._core.multiarray.scalar':
        return numpyScalar(a[0], a[1]);
      case 'torch._utils._rebuild_tensor':
      case 'torch._utils._rebuild_tensor_v2':
      case 'torch._utils._rebuild_tensor_v3': {
        const storage = a[0];
        const size = a[2] instanceof PyTuple ? a[2].items.map(Number) : [];
        const dtype = storage instanceof StoragePlaceholder ? storage.dtype : 'unknown';
        return new TensorPlaceholder(dtype, size);
      }
      case 'torch._utils._rebuild_parameter':
        return a[0];
    }
    return this.block(f.qualified);
  }

  private newObj(cls: unknown, _args: unknown[]): unknown {
    if (cls instanceof Blocked) return cls;
    if (!(cls instanceof PyGlobal)) return this.block('a value that is not a class');
    switch (cls.qualified) {
      case 'PIL.Image.Image':
        return new ImagePlaceholder();
      case 'collections.OrderedDict':
      case 'builtins.dict':
        return new PyDict();
      case 'builtins.list':
        return new PyList();
      case 'builtins.object':
        return new PyObject('builtins.object');
    }
    return new PyObject(cls.qualified);
  }

  private build(inst: unknown, state: unknown): void {
    if (inst instanceof ImagePlaceholder) {
      const items = state instanceof PyList ? state.items : state instanceof PyTuple ? state.items : [];
      if (typeof items[1] === 'string') inst.mode = items[1];
      if (items[2] instanceof PyTuple) inst.size = items[2].items.map(Number);
    } else if (inst instanceof NdArrayPlaceholder) {
      const items = state instanceof PyTuple ? state.items : [];
      if (items[1] instanceof PyTuple) inst.shape = items[1].items.map(Number);
      if (items[2] instanceof NpDtype) inst.dtype = items[2].str;
    } else if (inst instanceof NpDtype) {
      const items = state instanceof PyTuple ? state.items : [];
      if (typeof items[1] === 'string') inst.order = items[1];
    } else if (inst instanceof PyObject) {
      // `(state, slotstate)` from classes with __slots__: both end up as attributes.
      if (
        state instanceof PyTuple &&
        state.items.length === 2 &&
        (state.items[0] instanceof PyDict || state.items[0] === null) &&
        state.items[1] instanceof PyDict
      ) {
        const merged = new PyDict();
        for (const part of state.items) if (part instanceof PyDict) for (const [k, v] of part.map) merged.map.set(k, v);
        state = merged;
      }
      if (inst.state instanceof PyDict && state instanceof PyDict) for (const [k, v] of state.map) inst.state.map.set(k, v);
      else inst.state = state;
      inst.depth = this.deeper(Math.max(inst.depth, depthOf(state) + 1));
    } else if (inst instanceof PyDict && state instanceof PyDict) {
      for (const [k, v] of state.map) inst.map.set(k, v);
    }
  }

  private persistent(pid: unknown): unknown {
    const items = pid instanceof PyTuple ? pid.items : [];
    if (items[0] === 'storage' && items[1] instanceof PyGlobal) return new StoragePlaceholder(STORAGE_DTYPES[items[1].name] ?? items[1].name);
    return new StoragePlaceholder('unknown');
  }

  /** Index of the next `\n` from `from`, or -1 when not in the buffer. */
  private lineEnd(from: number): number {
    const i = this.buf.subarray(from, this.end).indexOf(10);
    return i < 0 ? -1 : from + i;
  }

  /** How many bytes to ask for when a text line is not complete in the buffer. */
  private lineNeed(from: number): number {
    const have = this.end - this.pos;
    if (this.unread === 0) throw new PickleError(`a text argument at byte ${this.base + from} has no end of line (the pickle is truncated)`);
    if (have > LIMITS.line) throw new PickleError(`a text argument longer than ${LIMITS.line} bytes at byte ${this.base + from}`);
    return have + Math.min(this.unread, Math.max(have, 1 << 16));
  }

  /**
   * Runs opcodes while their bytes are in the buffer. Returns 0 after STOP, else how many bytes
   * from `pos` the next opcode needs.
   */
  private step(): number {
    const b = this.buf;
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    for (;;) {
      const p = this.pos;
      const avail = this.end - p;
      if (avail < 1) return 1;
      const op = b[p];
      switch (op) {
        case 0x4b: // BININT1
          if (avail < 2) return 2;
          this.push(b[p + 1]);
          this.pos = p + 2;
          continue;
        case 0x4d: // BININT2
          if (avail < 3) return 3;
          this.push(b[p + 1] | (b[p + 2] << 8));
          this.pos = p + 3;
          continue;
        case 0x4a: // BININT
          if (avail < 5) return 5;
          this.push(dv.getInt32(p + 1, true));
          this.pos = p + 5;
          continue;
        case 0x47: // BINFLOAT
          if (avail < 9) return 9;
          this.push(pyFloat(dv.getFloat64(p + 1, false)));
          this.pos = p + 9;
          continue;
        case 0x28: // MARK
          if (this.summarize) {
            // MARK, a run of BININT1/BININT2/BININT/BINFLOAT, APPENDS onto a list of numbers: the
            // pickler's batches of token ids and log-probs. Counted in one pass, nothing pushed.
            let q = p + 1;
            let n = 0;
            const end = this.end;
            for (;;) {
              const o = b[q];
              const w = o === 0x4b ? 2 : o === 0x4d ? 3 : o === 0x4a ? 5 : o === 0x47 ? 9 : 0;
              if (w === 0 || q + w >= end) break;
              q += w;
              n++;
            }
            if (q < end && b[q] === 0x65 && n > SUMMARIZE_AFTER && this.stack.length > 0) {
              const target = this.stack[this.stack.length - 1];
              if (target instanceof PyList && target !== this.samplesList && (target.summarized || target.items.every(isNumber))) {
                target.summarized = true;
                target.items = [];
                target.count += n;
                this.pos = q + 1;
                continue;
              }
            }
          }
          if (this.marks.length >= LIMITS.marks) throw new PickleError(`more than ${LIMITS.marks} open MARKs`);
          this.marks.push(this.stack.length);
          this.pos = p + 1;
          continue;
        case 0x65: {
          // APPENDS
          this.pos = p + 1;
          const items = this.popMark();
          this.append(this.top(), items);
          continue;
        }
        case 0x61: {
          // APPEND
          this.pos = p + 1;
          const v = this.pop();
          this.append(this.top(), [v]);
          continue;
        }
        case 0x75: {
          // SETITEMS
          this.pos = p + 1;
          const items = this.popMark();
          this.setItems(this.top(), items);
          continue;
        }
        case 0x73: {
          // SETITEM
          this.pos = p + 1;
          const v = this.pop();
          const k = this.pop();
          this.setItems(this.top(), [k, v]);
          continue;
        }
        case 0x71: // BINPUT
          if (avail < 2) return 2;
          this.pos = p + 2;
          this.memoPut(b[p + 1]);
          continue;
        case 0x72: // LONG_BINPUT
          if (avail < 5) return 5;
          this.pos = p + 5;
          this.memoPut(dv.getUint32(p + 1, true));
          continue;
        case 0x94: // MEMOIZE
          this.pos = p + 1;
          this.memoPut(this.memo.size);
          continue;
        case 0x68: // BINGET
          if (avail < 2) return 2;
          this.pos = p + 2;
          this.push(this.memoGet(b[p + 1]));
          continue;
        case 0x6a: // LONG_BINGET
          if (avail < 5) return 5;
          this.pos = p + 5;
          this.push(this.memoGet(dv.getUint32(p + 1, true)));
          continue;
        case 0x58: // BINUNICODE
        case 0x8c: // SHORT_BINUNICODE
        case 0x8d: {
          // BINUNICODE8
          const head = op === 0x8c ? 2 : op === 0x58 ? 5 : 9;
          if (avail < head) return head;
          const n = op === 0x8c ? b[p + 1] : op === 0x58 ? dv.getUint32(p + 1, true) : Number(dv.getBigUint64(p + 1, true));
          if (avail < head + n) return head + n;
          this.pos = p + head + n;
          this.push(utf8.decode(b.subarray(p + head, p + head + n)));
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
          this.pos = p + head + n;
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
          this.pos = p + head + n;
          this.push(latin1.decode(b.subarray(p + head, p + head + n)));
          continue;
        }
        case 0x5d: // EMPTY_LIST
          this.pos = p + 1;
          {
            const list = new PyList();
            if (this.samplesList === null && this.stack.length > 0 && this.stack.length <= 16 && this.stack[0] instanceof PyDict && this.top() === 'samples') {
              this.samplesList = list;
            }
            this.push(list);
          }
          continue;
        case 0x7d: // EMPTY_DICT
          this.pos = p + 1;
          this.push(new PyDict());
          continue;
        case 0x29: // EMPTY_TUPLE
          this.pos = p + 1;
          this.push(new PyTuple([], 1));
          continue;
        case 0x85: // TUPLE1
        case 0x86: // TUPLE2
        case 0x87: {
          // TUPLE3
          this.pos = p + 1;
          const n = op - 0x84;
          const items: unknown[] = [];
          for (let i = 0; i < n; i++) items.unshift(this.pop());
          this.push(this.tuple(items));
          continue;
        }
        case 0x74: // TUPLE
          this.pos = p + 1;
          this.push(this.tuple(this.popMark()));
          continue;
        case 0x6c: {
          // LIST
          this.pos = p + 1;
          const list = new PyList();
          this.append(list, this.popMark());
          this.push(list);
          continue;
        }
        case 0x64: {
          // DICT
          this.pos = p + 1;
          const d = new PyDict();
          this.setItems(d, this.popMark());
          this.push(d);
          continue;
        }
        case 0x8f: // EMPTY_SET
          this.pos = p + 1;
          this.push(new PySet(false));
          continue;
        case 0x90: {
          // ADDITEMS
          this.pos = p + 1;
          const items = this.popMark();
          const s = this.top();
          if (!(s instanceof PySet)) throw new PickleError(`ADDITEMS to a value that is not a set at byte ${this.offset}`);
          for (const x of items) s.items.push(x);
          s.depth = this.deeper(Math.max(s.depth, ...items.map((x) => depthOf(x) + 1)));
          continue;
        }
        case 0x91: {
          // FROZENSET
          this.pos = p + 1;
          const s = new PySet(true);
          s.items.push(...this.popMark());
          this.push(s);
          continue;
        }
        case 0x4e: // NONE
          this.pos = p + 1;
          this.push(null);
          continue;
        case 0x88: // NEWTRUE
          this.pos = p + 1;
          this.push(true);
          continue;
        case 0x89: // NEWFALSE
          this.pos = p + 1;
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
          this.pos = p + head + n;
          this.push(decodeLong(b.subarray(p + head, p + head + n)));
          continue;
        }
        case 0x80: // PROTO
          if (avail < 2) return 2;
          if (b[p + 1] > 5) throw new PickleError(`pickle protocol ${b[p + 1]} is not supported (this reader knows protocols 0 to 5)`);
          this.pos = p + 2;
          continue;
        case 0x95: // FRAME: only a read-ahead hint; the bytes follow as usual.
          if (avail < 9) return 9;
          this.pos = p + 9;
          continue;
        case 0x2e: // STOP
          this.pos = p + 1;
          this.result = this.pop();
          this.stopped = true;
          return 0;
        case 0x30: // POP
          this.pos = p + 1;
          if (this.stack.length > 0 && !(this.marks.length > 0 && this.stack.length <= this.marks[this.marks.length - 1])) this.stack.pop();
          else this.popMark();
          continue;
        case 0x31: // POP_MARK
          this.pos = p + 1;
          this.popMark();
          continue;
        case 0x32: // DUP
          this.pos = p + 1;
          this.push(this.top());
          continue;
        case 0x63: {
          // GLOBAL module\nname\n
          const e1 = this.lineEnd(p + 1);
          if (e1 < 0) return this.lineNeed(p + 1);
          const e2 = this.lineEnd(e1 + 1);
          if (e2 < 0) return this.lineNeed(e1 + 1);
          this.pos = e2 + 1;
          this.push(this.global(utf8.decode(b.subarray(p + 1, e1)), utf8.decode(b.subarray(e1 + 1, e2))));
          continue;
        }
        case 0x93: {
          // STACK_GLOBAL
          this.pos = p + 1;
          const name = this.pop();
          const module = this.pop();
          if (typeof name !== 'string' || typeof module !== 'string') throw new PickleError(`STACK_GLOBAL of values that are not names at byte ${this.offset}`);
          this.push(this.global(module, name));
          continue;
        }
        case 0x52: {
          // REDUCE
          this.pos = p + 1;
          const args = this.pop();
          const f = this.pop();
          this.push(this.call(f, args instanceof PyTuple ? args.items : []));
          continue;
        }
        case 0x81: {
          // NEWOBJ
          this.pos = p + 1;
          const args = this.pop();
          const cls = this.pop();
          this.push(this.newObj(cls, args instanceof PyTuple ? args.items : []));
          continue;
        }
        case 0x92: {
          // NEWOBJ_EX
          this.pos = p + 1;
          this.pop();
          const args = this.pop();
          const cls = this.pop();
          this.push(this.newObj(cls, args instanceof PyTuple ? args.items : []));
          continue;
        }
        case 0x62: {
          // BUILD
          this.pos = p + 1;
          const state = this.pop();
          this.build(this.top(), state);
          continue;
        }
        case 0x69: {
          // INST module\nname\n: a call of module.name with the marked values
          const e1 = this.lineEnd(p + 1);
          if (e1 < 0) return this.lineNeed(p + 1);
          const e2 = this.lineEnd(e1 + 1);
          if (e2 < 0) return this.lineNeed(e1 + 1);
          this.pos = e2 + 1;
          const g = this.global(utf8.decode(b.subarray(p + 1, e1)), utf8.decode(b.subarray(e1 + 1, e2)));
          this.push(this.call(g, this.popMark()));
          continue;
        }
        case 0x6f: {
          // OBJ: a call of the first marked value with the rest
          this.pos = p + 1;
          const items = this.popMark();
          if (items.length === 0) throw new PickleError(`OBJ without a class at byte ${this.offset}`);
          this.push(this.call(items[0], items.slice(1)));
          continue;
        }
        case 0x51: // BINPERSID
          this.pos = p + 1;
          this.push(this.persistent(this.pop()));
          continue;
        case 0x50: {
          // PERSID id\n
          const e = this.lineEnd(p + 1);
          if (e < 0) return this.lineNeed(p + 1);
          this.pos = e + 1;
          this.push(this.persistent(latin1.decode(b.subarray(p + 1, e))));
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
          this.pos = p + 1;
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
          this.pos = e + 1;
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
      case 0x67:
        return this.push(this.memoGet(this.parseIndex(text)));
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
