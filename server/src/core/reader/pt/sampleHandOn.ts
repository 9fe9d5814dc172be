// Handing samples on one by one (docs/pt.md, "Streaming and memory"): the root dict's `samples`
// list is recognised as it is built, each element is queued for `onSample` as soon as it is
// complete, its place on the stack keeps a marker, and a pickle that changes a sample afterwards
// is refused. Long texts and number lists of samples handed on are released (releasedValues.ts)
// and read again when a memo read brings them back.
import { type ChunkedInput } from './chunkedInput';
import { PickleError, latin1, pickledUtf8 } from './pickleLiterals';
import { HANDED, PickleStack } from './pickleStack';
import { LIMITS } from './limits';
import { ReleasedSample } from './releasedSamples';
import { RecentShapes } from './dictMap';
import { NumberRun } from './numberRuns';
import { decodeText, ReleasedValues } from './releasedValues';
import { LONG_TEXT, PyDict, PyList, PyText } from './values';

/** A memo read that waits for released texts to be read again. */
export const NEED = Symbol('need texts');

export class SampleHandOn extends PickleStack {
  samplesList: PyList | null = null;
  /** Elements of the samples batch on the stack (above its MARK) already handed on. */
  batchHanded = 0;
  /** Samples complete and waiting for `run` to hand them on: their index, and where their bytes end (-1: not known alone). */
  ready: { value: unknown; index: number; end: number }[] = [];
  /**
   * Samples handed on (top-level values) and values of released samples read again: a pickle
   * that changes one afterwards is refused. Dicts and lists carry the mark themselves (a weak set
   * of a million samples costs the collector dearly); other values are in `handedOthers`.
   */
  private readonly handedOthers = new WeakSet<object>();
  /** Released values a memo read needs again, read by `run` before the read is done again. */
  reread: (PyText | PyList | ReleasedSample)[] = [];
  /**
   * Samples handed on whose memo slots are released once `LIMITS.releaseLag` more have been:
   * their first slot, the memo's size after them, where their bytes start and end.
   */
  private readonly toRelease: number[] = [];
  private toReleaseHead = 0;
  /** For a sample read again (PickleMachine.rebuild): the machine whose memo holds the slots below. */
  parent: SampleHandOn | null = null;
  readonly released = new ReleasedValues();
  /** The run of numbers `countNumberBatch` passed over last (numberRuns.ts). */
  readonly numberRun = new NumberRun();
  /** Key shapes of this machine's latest dicts, shared by the next ones with the same keys (dictMap.ts). */
  readonly recentShapes = new RecentShapes();
  /** Release texts and number lists after hand-on (only when samples are handed on, not kept). */
  readonly releasing: boolean;
  /** Count lists of numbers instead of keeping them. */
  readonly summarize: boolean;
  samples = 0;

  constructor(input: ChunkedInput, releasing: boolean, summarize: boolean) {
    super(input);
    this.releasing = releasing;
    this.summarize = summarize;
  }

  /**
   * Index of the sample being read: the pickler appends samples in batches (MARK … APPENDS), so
   * the ones of this batch not yet handed on sit on the stack above the batch's MARK, the last
   * being built.
   */
  currentSample(): number {
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

  /** The values above the last MARK; a batch of samples handed on only to APPENDS onto their list. */
  popMark(intoSamples = false): unknown[] {
    return this.stack.splice(this.popMarkAt(intoSamples));
  }

  /** Pops the last MARK and returns where its values start on the stack (they stay there). */
  popMarkAt(intoSamples = false): number {
    const m = this.marks.pop();
    if (m === undefined) throw new PickleError(`no MARK to pop at byte ${this.offset}`);
    if (this.batchHanded > 0 && m > 0 && this.stack[m - 1] === this.samplesList) {
      if (!intoSamples) throw this.late();
      this.batchHanded = 0;
    }
    return m;
  }

  /** The value below stack position `at` (the target of the values above a MARK popped there), as `top` after them. */
  below(at: number): unknown {
    if (at === 0 || (this.marks.length > 0 && at <= this.marks[this.marks.length - 1])) throw new PickleError(`stack underflow at byte ${this.offset}`);
    const v = this.stack[at - 1];
    if (v === HANDED) throw this.late();
    return v;
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
  nextElement(): boolean {
    const m = this.marks.length > 0 ? this.marks[this.marks.length - 1] : -1;
    const s = this.stack.length - 1;
    if (m <= 0 || this.samplesList === null || this.stack[m - 1] !== this.samplesList || s < m + this.batchHanded) return false;
    for (let i = m + this.batchHanded; i <= s; i++) {
      const v = this.stack[i];
      if (!(v instanceof PyDict) || v.byCall) return false;
    }
    const end = s === m + this.batchHanded ? this.offset : -1;
    for (let i = m + this.batchHanded; i <= s; i++) {
      this.queueSample(this.stack[i], end);
      this.stack[i] = HANDED;
    }
    this.batchHanded = s + 1 - m;
    return true;
  }

  /**
   * `end`: where the sample's bytes end when it alone is handed on here (the next element's
   * first opcode, or its batch's APPENDS), else -1.
   */
  queueSample(v: unknown, end = -1): void {
    this.markHanded(v);
    this.ready.push({ value: v, index: this.samples++, end });
    if (end >= 0 && v instanceof PyDict && v.from >= 0 && this.memoInOrder) this.toRelease.push(v.slot, this.memoSize, v.from, end);
  }

  /** EMPTY_DICT at pickle offset `at`: a new element of the samples list remembers where it starts. */
  emptyDict(at: number): PyDict {
    const d = new PyDict();
    const m = this.marks.length > 0 ? this.marks[this.marks.length - 1] : -1;
    if (m > 0 && this.samplesList !== null && this.stack[m - 1] === this.samplesList && this.stack.length === m + this.batchHanded) {
      d.from = at;
      d.slot = this.memoSize;
    }
    return d;
  }

  /** After a hand-on: the slots of samples handed on `LIMITS.releaseLag` samples ago are released. */
  releaseSamples(): void {
    const q = this.toRelease;
    let n = this.toReleaseHead;
    while (q.length - n > 4 * LIMITS.releaseLag) {
      this.releaseSlots(q[n], q[n + 1], q[n + 2], q[n + 3] - q[n + 2]);
      n += 4;
    }
    this.toReleaseHead = n;
    if (n > 4096) {
      q.splice(0, n);
      this.toReleaseHead = 0;
    }
  }

  protected override releasedSlot(i: number): unknown {
    const k = this.releasedSamples.find(i);
    const values = k < 0 ? undefined : this.releasedSamples.cached(k);
    if (values !== undefined) return values[i - this.releasedSamples.firstSlot(k)];
    if (k < 0) throw new PickleError(`memo read of slot ${i} at byte ${this.offset}, which was never stored`);
    this.reread = [new ReleasedSample(k, i)];
    return NEED;
  }

  protected override memoBelow(i: number): unknown {
    if (this.parent === null) return super.memoBelow(i);
    const v = this.parent.memoRead(i);
    if (v === NEED) {
      this.reread = this.parent.reread;
      this.parent.reread = [];
    }
    return v;
  }

  markHanded(v: unknown): void {
    if (v instanceof PyDict || v instanceof PyList) v.handed = true;
    else if (typeof v === 'object' && v !== null) this.handedOthers.add(v);
  }

  isHanded(v: unknown): boolean {
    if (v instanceof PyDict || v instanceof PyList) return v.handed;
    return typeof v === 'object' && v !== null && this.handedOthers.has(v);
  }

  /** Refuses a change to a sample already handed on. */
  unchanged(target: unknown): void {
    if (this.isHanded(target)) throw this.late();
  }

  /**
   * A memo read's value, whole: released texts in it whose bytes are still in the window are
   * decoded now; otherwise NEED, and `run` reads them again before the read is done again.
   */
  memoRead(i: number): unknown {
    const v = this.memoGet(i);
    if (v === NEED || !this.released.any || typeof v !== 'object' || v === null) return v;
    const missing = this.released.missing(v, this.input);
    if (missing.length === 0) return v;
    this.reread = missing;
    return NEED;
  }

  /** A str: short ones as JS strings, long ones as a `PyText` that knows where its bytes are. */
  text(at: number, n: number, latin: boolean): string | PyText {
    const bytes = this.input.bytes(at, n);
    if (n < LONG_TEXT) return latin ? latin1.decode(bytes) : pickledUtf8(bytes);
    const t = new PyText(at, n, latin, null);
    t.text = decodeText(t, bytes);
    if (this.releasing && this.samplesList !== null) this.released.keep(t);
    return t;
  }
}
