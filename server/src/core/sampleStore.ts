// One file's samples in columns: typed arrays in fixed-size chunks (no copy when the store grows)
// and strings interned to small ids. A run can hold millions of samples; as objects each cost
// hundreds of bytes of heap, here about fifty (BENCHMARKS.md, "Scale with the number of samples").
// Records are materialised on demand (`at`), one group at a time in the rollout analysis.
import type { SampleRecord, SampleStatus } from './types';

/** Strings by id in first-seen order; `id(s)` gives the same id for equal strings. */
export class StringTable {
  private readonly ids = new Map<string, number>();
  private readonly values: string[] = [];

  get size(): number {
    return this.values.length;
  }

  /** The id of `s`, added when new; -1 for null. */
  id(s: string | null): number {
    if (s === null) return -1;
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(s);
      this.ids.set(s, id);
    }
    return id;
  }

  /** The string of `id`; null for -1. */
  value(id: number): string | null {
    return id < 0 ? null : this.values[id];
  }

  /** A copy holding the first `size` strings (ids keep their meaning). */
  clone(size = this.values.length): StringTable {
    const t = new StringTable();
    for (let i = 0; i < size; i++) t.id(this.values[i]);
    return t;
  }
}

const CHUNK_BITS = 14;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

const STATUSES: readonly (SampleStatus | null)[] = [null, 'pending', 'completed', 'truncated', 'aborted', 'failed'];
const STATUS_CODE = new Map<SampleStatus | null, number>(STATUSES.map((s, i) => [s, i]));

const F_ABORTED = 1;
const F_REWARD_INT = 2;
const F_REWARD = 4;

/** Int32 column values for null, and for "see the overflow map" (fractions, beyond int32, -0, these two). */
const NULL = -0x80000000;
const OUT = -0x7fffffff;

class Chunk {
  readonly line = new Uint32Array(CHUNK);
  readonly offset = new Float64Array(CHUNK);
  readonly byteLength = new Uint32Array(CHUNK);
  readonly groupKey = new Int32Array(CHUNK);
  readonly promptKey = new Int32Array(CHUNK);
  readonly dataset = new Int32Array(CHUNK);
  readonly cause = new Int32Array(CHUNK);
  readonly index = new Int32Array(CHUNK);
  readonly responseLength = new Int32Array(CHUNK);
  readonly step = new Int32Array(CHUNK);
  readonly reward = new Float64Array(CHUNK);
  readonly status = new Uint8Array(CHUNK);
  readonly flags = new Uint8Array(CHUNK);

  copy(): Chunk {
    const c = new Chunk();
    c.line.set(this.line);
    c.offset.set(this.offset);
    c.byteLength.set(this.byteLength);
    c.groupKey.set(this.groupKey);
    c.promptKey.set(this.promptKey);
    c.dataset.set(this.dataset);
    c.cause.set(this.cause);
    c.index.set(this.index);
    c.responseLength.set(this.responseLength);
    c.step.set(this.step);
    c.reward.set(this.reward);
    c.status.set(this.status);
    c.flags.set(this.flags);
    return c;
  }
}

type IntField = 'index' | 'responseLength' | 'step';
type Extras = Pick<SampleRecord, 'vars' | 'session' | 'output'>;

/**
 * Chunks of released stores, reused by the next store: a run folder's files are read one after
 * another, and the next file's columns then take the memory of the last one's instead of waiting
 * for a full garbage collection to free it. Every column of a row is written by `push`, so a reused
 * chunk needs no clearing.
 */
const freeChunks: Chunk[] = [];
const MAX_FREE_CHUNKS = 256;

/**
 * Samples of one file in append order. Group keys have their own table, so a group's id is its
 * first-appearance ordinal; prompt keys, datasets and causes share one.
 */
export class SampleStore {
  private chunks: Chunk[] = [];
  private count = 0;
  /** Group keys by first appearance. */
  readonly groupKeys: StringTable;
  /** Prompt keys, datasets, causes. */
  readonly strings: StringTable;
  /** Values an Int32 column cannot hold (null, fractions, beyond int32), by row. */
  private overflow: Record<IntField, Map<number, number | null>> = { index: new Map(), responseLength: new Map(), step: new Map() };
  /** The last string given per column and its id: consecutive samples mostly repeat them. */
  private lastGroup: string | null = null;
  private lastGroupId = -1;
  private lastPrompt: string | null = null;
  private lastPromptId = -1;
  private lastDataset: string | null = null;
  private lastDatasetId = -1;
  private lastCause: string | null = null;
  private lastCauseId = -1;
  /** The optional fields `vars`, `session`, `output` of the rows that have any (verl), as given. */
  private vars = new Map<number, Extras>();
  /** `miles` by row (every row of a miles-sample file has one): an array, not a map. */
  private miles: (SampleRecord['miles'] | undefined)[] = [];

  constructor(groupKeys = new StringTable(), strings = new StringTable()) {
    this.groupKeys = groupKeys;
    this.strings = strings;
  }

  /** A store of `records`, in their order. */
  static of(records: Iterable<SampleRecord>): SampleStore {
    const store = new SampleStore();
    for (const s of records) store.push(s);
    return store;
  }

  get length(): number {
    return this.count;
  }

  push(s: SampleRecord): void {
    const row = this.count;
    const k = row >>> CHUNK_BITS;
    if (k === this.chunks.length) this.chunks.push(freeChunks.pop() ?? new Chunk());
    const c = this.chunks[k];
    const j = row & MASK;
    c.line[j] = s.line;
    c.offset[j] = s.offset;
    c.byteLength[j] = s.byteLength;
    if (s.groupKey !== this.lastGroup || this.lastGroupId < 0) {
      this.lastGroup = s.groupKey;
      this.lastGroupId = this.groupKeys.id(s.groupKey);
    }
    c.groupKey[j] = this.lastGroupId;
    if (s.promptKey !== this.lastPrompt || this.lastPromptId < 0) {
      this.lastPrompt = s.promptKey;
      this.lastPromptId = this.strings.id(s.promptKey);
    }
    c.promptKey[j] = this.lastPromptId;
    if (s.dataset !== this.lastDataset || this.lastDatasetId < 0) {
      this.lastDataset = s.dataset;
      this.lastDatasetId = this.strings.id(s.dataset);
    }
    c.dataset[j] = this.lastDatasetId;
    if (s.cause !== this.lastCause || this.lastCauseId < 0) {
      this.lastCause = s.cause;
      this.lastCauseId = this.strings.id(s.cause);
    }
    c.cause[j] = this.lastCauseId;
    this.putInt(c.index, j, row, 'index', s.index);
    this.putInt(c.responseLength, j, row, 'responseLength', s.responseLength);
    this.putInt(c.step, j, row, 'step', s.step);
    c.reward[j] = s.reward ?? 0;
    c.status[j] = STATUS_CODE.get(s.status) ?? 0;
    c.flags[j] = (s.aborted ? F_ABORTED : 0) | (s.rewardIsInt ? F_REWARD_INT : 0) | (s.reward !== null ? F_REWARD : 0);
    if (s.vars !== undefined || s.session !== undefined || s.output !== undefined) {
      const extras: Extras = {};
      if (s.vars !== undefined) extras.vars = s.vars;
      if (s.session !== undefined) extras.session = s.session;
      if (s.output !== undefined) extras.output = s.output;
      this.vars.set(row, extras);
    }
    if (s.miles !== undefined) {
      while (this.miles.length < row) this.miles.push(undefined);
      this.miles[row] = s.miles;
    }
    this.count = row + 1;
  }

  private putInt(col: Int32Array, j: number, row: number, field: IntField, v: number | null): void {
    if (v === null) {
      col[j] = NULL;
      return;
    }
    if ((v | 0) === v && v !== OUT && v !== NULL && !Object.is(v, -0)) {
      col[j] = v;
      return;
    }
    col[j] = OUT;
    this.overflow[field].set(row, v);
  }

  private getInt(col: Int32Array, j: number, row: number, field: IntField): number | null {
    const v = col[j];
    if (v === NULL) return null;
    return v !== OUT ? v : (this.overflow[field].get(row) as number);
  }

  /** Row `i` as a fresh record (equal to the one pushed). */
  at(i: number): SampleRecord {
    if (i < 0 || i >= this.count) throw new RangeError(`sample ${i} of ${this.count}`);
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    const flags = c.flags[j];
    const out: SampleRecord = {
      line: c.line[j],
      offset: c.offset[j],
      byteLength: c.byteLength[j],
      groupKey: this.groupKeys.value(c.groupKey[j]),
      index: this.getInt(c.index, j, i, 'index'),
      dataset: this.strings.value(c.dataset[j]),
      promptKey: this.strings.value(c.promptKey[j]),
      status: STATUSES[c.status[j]],
      aborted: (flags & F_ABORTED) !== 0,
      reward: (flags & F_REWARD) !== 0 ? c.reward[j] : null,
      rewardIsInt: (flags & F_REWARD_INT) !== 0,
      cause: this.strings.value(c.cause[j]),
      responseLength: this.getInt(c.responseLength, j, i, 'responseLength'),
      step: this.getInt(c.step, j, i, 'step'),
    };
    const extras = this.vars.get(i);
    if (extras !== undefined) {
      if (extras.vars !== undefined) out.vars = extras.vars;
      if (extras.session !== undefined) out.session = extras.session;
      if (extras.output !== undefined) out.output = extras.output;
    }
    const miles = i < this.miles.length ? this.miles[i] : undefined;
    if (miles !== undefined) out.miles = miles;
    return out;
  }

  /** Group id of row `i` (its key's first-appearance ordinal); -1: no group key. */
  groupId(i: number): number {
    return this.chunks[i >>> CHUNK_BITS].groupKey[i & MASK];
  }

  /** Id of row `i`'s prompt key in `strings`; -1: none. */
  promptIdAt(i: number): number {
    return this.chunks[i >>> CHUNK_BITS].promptKey[i & MASK];
  }

  lineAt(i: number): number {
    return this.chunks[i >>> CHUNK_BITS].line[i & MASK];
  }

  stepAt(i: number): number | null {
    return this.getInt(this.chunks[i >>> CHUNK_BITS].step, i & MASK, i, 'step');
  }

  /**
   * Hands this store's memory to the next store. The store is empty afterwards; its owner must
   * hold no other reference to it (a scan's resume snapshot shares it: release the scan).
   */
  release(): void {
    for (const c of this.chunks) if (freeChunks.length < MAX_FREE_CHUNKS) freeChunks.push(c);
    this.chunks = [];
    this.count = 0;
    this.lastGroupId = this.lastPromptId = this.lastDatasetId = this.lastCauseId = -1;
    this.overflow = { index: new Map(), responseLength: new Map(), step: new Map() };
    this.vars = new Map();
    this.miles = [];
  }

  /** Every record, materialised (for analyses of formats whose files are small, and editors). */
  toArray(): SampleRecord[] {
    const out = new Array<SampleRecord>(this.count);
    for (let i = 0; i < this.count; i++) out[i] = this.at(i);
    return out;
  }

  *[Symbol.iterator](): IterableIterator<SampleRecord> {
    for (let i = 0; i < this.count; i++) yield this.at(i);
  }

  /**
   * A store holding the first `length` rows that shares nothing this store will write: chunks
   * before the cut are shared (rows below `length` are never written again), the cut chunk is
   * copied, tables and maps are copied.
   */
  slice(length = this.count): SampleStore {
    const out = new SampleStore(this.groupKeys.clone(), this.strings.clone());
    const full = length >>> CHUNK_BITS;
    out.chunks = this.chunks.slice(0, full);
    if ((length & MASK) !== 0) out.chunks.push(this.chunks[full].copy());
    out.count = length;
    for (const f of ['index', 'responseLength', 'step'] as const) {
      for (const [row, v] of this.overflow[f]) if (row < length) out.overflow[f].set(row, v);
    }
    for (const [row, v] of this.vars) if (row < length) out.vars.set(row, v);
    out.miles = this.miles.slice(0, length);
    return out;
  }
}
