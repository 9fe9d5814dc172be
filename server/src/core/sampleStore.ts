// One file's samples in columns: typed arrays in fixed-size chunks (no copy when the store grows)
// and strings interned to small ids. A run can hold millions of samples; as objects each cost
// hundreds of bytes of heap, here about forty (BENCHMARKS.md, "Scale with the number of samples").
// Records are materialised on demand (`at`), one group at a time in the rollout analysis.
import type { MilesSampleFields, SampleRecord, SampleStatus } from './types';
import {
  type Chunk,
  CHUNK,
  CHUNK_BITS,
  F_ABORTED,
  F_LEN_NULL,
  F_LEN_RESPONSE,
  F_MILES,
  F_REP_OTHER,
  F_REP_TRUE,
  F_REWARD,
  F_REWARD_INT,
  giveBackChunks,
  MASK,
  STATUS_CODE,
  STATUSES,
  takeChunk,
} from './store/chunk';
import { type IntField, IntOverflow } from './store/intOverflow';
import { emptyRow, type StoreRow } from './store/row';
import { StringTable } from './store/stringTable';

export { StringTable } from './store/stringTable';
export { emptyRow, type StoreRow } from './store/row';

/** One row's miles fields as the sample metrics read them (filled by `SampleStore.milesAt`). */
export interface MilesRow {
  effectiveLength: number | null;
  /** Id of the row's `weight_versions` list (`SampleStore.weightVersionList`); -1: null. */
  weightVersions: number;
  cachedTokens: number;
  totalPromptTokens: number;
  repetition: boolean | null | string;
}
type Extras = Pick<SampleRecord, 'vars' | 'session' | 'output'>;

const scratch = emptyRow();

export { STATUS_CODE } from './store/chunk';

/**
 * Samples of one file in append order. Group keys have their own table, so a group's id is its
 * first-appearance ordinal; prompt keys have one, datasets and causes share one.
 */
export class SampleStore {
  private chunks: Chunk[] = [];
  private count = 0;
  /** Group keys by first appearance. */
  groupKeys: StringTable;
  /** Prompt keys. */
  strings: StringTable;
  /** Datasets and causes (few: their columns hold a byte while ids stay below 255). */
  labels: StringTable;
  /** Values an Int32 column cannot hold (null, fractions, beyond int32), by row. */
  private overflow = new IntOverflow();
  /** Distinct `weight_versions` lists (rows mostly share one), by id; their ids by JSON text. */
  private versionLists: (string | number)[][] = [];
  /** miles `repetition` verdicts other than true/false (null, an exception), by row: rare. */
  private repetitionOther = new Map<number, string | null>();
  private versionIds = new Map<string, number>();
  #lastVersions: (string | number)[] | null = null;
  #lastVersionsId = -1;
  /** The last string given per column and its id: consecutive samples mostly repeat them. */
  #lastGroup: string | null = null;
  #lastGroupId = -1;
  #lastGroupInt = NaN;
  #lastGroupIntId = -1;
  #lastPrompt: string | null = null;
  #lastPromptHash = new Uint32Array(2);
  #lastPromptHashId = -1;
  #lastPromptId = -1;
  #lastDataset: string | null = null;
  #lastDatasetId = -1;
  #lastCause: string | null = null;
  #lastCauseId = -1;
  /** The optional fields `vars`, `session`, `output` of the rows that have any (verl), as given. */
  private vars = new Map<number, Extras>();

  constructor(groupKeys = new StringTable(), strings = new StringTable(), labels = new StringTable()) {
    this.groupKeys = groupKeys;
    this.strings = strings;
    this.labels = labels;
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
    const r = scratch;
    r.line = s.line;
    r.offset = s.offset;
    r.byteLength = s.byteLength;
    if (s.groupKey !== this.#lastGroup || this.#lastGroupId < 0) {
      this.#lastGroup = s.groupKey;
      this.#lastGroupId = this.groupKeys.id(s.groupKey);
    }
    r.groupId = this.#lastGroupId;
    if (s.promptKey !== this.#lastPrompt || this.#lastPromptId < 0) {
      this.#lastPrompt = s.promptKey;
      this.#lastPromptId = this.strings.id(s.promptKey);
    }
    r.promptId = this.#lastPromptId;
    r.dataset = s.dataset;
    r.cause = s.cause;
    r.index = s.index;
    r.responseLength = s.responseLength;
    r.step = s.step;
    r.status = STATUS_CODE.get(s.status) ?? 0;
    r.aborted = s.aborted;
    r.reward = s.reward;
    r.rewardIsInt = s.rewardIsInt;
    r.miles = s.miles;
    const row = this.count;
    this.pushRow(r);
    if (s.vars !== undefined || s.session !== undefined || s.output !== undefined) {
      const extras: Extras = {};
      if (s.vars !== undefined) extras.vars = s.vars;
      if (s.session !== undefined) extras.session = s.session;
      if (s.output !== undefined) extras.output = s.output;
      this.vars.set(row, extras);
    }
  }

  /** The group id of the key `String(v)` for an integer `v` (a group index read as a number). */
  groupIdOfInt(v: number): number {
    if (v !== this.#lastGroupInt || this.#lastGroupIntId < 0) {
      this.#lastGroupInt = v;
      this.#lastGroupIntId = this.groupKeys.intId(v);
    }
    return this.#lastGroupIntId;
  }

  /** The prompt id of the key `hex64(hash[0], hash[1])` (a prompt hash read as two words). */
  promptIdOfHash(hash: Uint32Array): number {
    // Read from the array, not passed as numbers: words above 2^31 would be boxed per call.
    const last = this.#lastPromptHash;
    if (hash[0] !== last[0] || hash[1] !== last[1] || this.#lastPromptHashId < 0) {
      last[0] = hash[0];
      last[1] = hash[1];
      this.#lastPromptHashId = this.strings.hexId(hash[0], hash[1]);
    }
    return this.#lastPromptHashId;
  }

  /**
   * Appends a row whose keys are ids already (`groupKeys`, `strings`): the per-line path of miles
   * samples (formats/milesLine.ts) writes its lines so, without a record or key strings. `push`
   * of the row's record stores the same columns.
   */
  pushRow(r: StoreRow): void {
    const row = this.count;
    const k = row >>> CHUNK_BITS;
    if (k === this.chunks.length) this.chunks.push(takeChunk());
    const c = this.chunks[k];
    const j = row & MASK;
    c.line[j] = r.line;
    this.putOffset(c, j, r.offset);
    c.byteLength[j] = r.byteLength;
    c.groupKey[j] = r.groupId;
    c.promptKey[j] = r.promptId;
    if (r.dataset !== this.#lastDataset || this.#lastDatasetId < 0) {
      this.#lastDataset = r.dataset;
      this.#lastDatasetId = this.labels.id(r.dataset);
    }
    const dataset = this.#lastDatasetId + 1;
    if (dataset > 255 && c.dataset.BYTES_PER_ELEMENT === 1) c.dataset = Int32Array.from(c.dataset);
    c.dataset[j] = dataset;
    if (r.cause !== this.#lastCause || this.#lastCauseId < 0) {
      this.#lastCause = r.cause;
      this.#lastCauseId = this.labels.id(r.cause);
    }
    const cause = this.#lastCauseId + 1;
    if (cause > 255 && c.cause.BYTES_PER_ELEMENT === 1) c.cause = Int32Array.from(c.cause);
    c.cause[j] = cause;
    this.putInt(c.index, j, row, 'index', r.index);
    this.putInt(c.responseLength, j, row, 'responseLength', r.responseLength);
    const step = this.intCode(row, 'step', r.step);
    if (j === 0) c.stepFirst = step;
    if (c.step !== null) c.step[j] = step;
    else if (step !== c.stepFirst) {
      c.step = new Int32Array(CHUNK).fill(c.stepFirst, 0, j);
      c.step[j] = step;
    }
    const reward = r.reward ?? 0;
    if (c.reward.BYTES_PER_ELEMENT === 4 && Math.fround(reward) !== reward && reward === reward) c.reward = Float64Array.from(c.reward);
    c.reward[j] = reward;
    c.status[j] = r.status;
    let flags = (r.aborted ? F_ABORTED : 0) | (r.rewardIsInt ? F_REWARD_INT : 0) | (r.reward !== null ? F_REWARD : 0);
    const m = r.miles;
    if (m !== undefined) flags |= this.putMiles(c, j, row, m, r.responseLength);
    c.flags[j] = flags;
    this.count = row + 1;
  }

  /** Writes `m` into the miles columns of row `row`; returns its flags. */
  private putMiles(c: Chunk, j: number, row: number, m: MilesSampleFields, responseLength: number | null): number {
    let flags = F_MILES;
    if (m.repetition === true) flags |= F_REP_TRUE;
    else if (m.repetition !== false) {
      flags |= F_REP_OTHER;
      this.repetitionOther.set(row, m.repetition);
    }
    if (Object.is(m.effectiveLength, responseLength)) flags |= F_LEN_RESPONSE;
    else if (m.effectiveLength === null) flags |= F_LEN_NULL;
    else this.putInt((c.effectiveLength ??= new Int32Array(CHUNK)), j, row, 'effectiveLength', m.effectiveLength);
    const versions = m.weightVersions === null ? 0 : this.versionId(m.weightVersions) + 1;
    if (versions !== 0 || c.weightVersions) (c.weightVersions ??= new Int32Array(CHUNK))[j] = versions;
    if (m.cachedTokens !== 0 || Object.is(m.cachedTokens, -0) || c.cachedTokens)
      this.putInt((c.cachedTokens ??= new Int32Array(CHUNK)), j, row, 'cachedTokens', m.cachedTokens);
    if (m.totalPromptTokens !== 0 || Object.is(m.totalPromptTokens, -0) || c.totalPromptTokens)
      this.putInt((c.totalPromptTokens ??= new Int32Array(CHUNK)), j, row, 'totalPromptTokens', m.totalPromptTokens);
    return flags;
  }

  private versionId(list: (string | number)[]): number {
    if (list === this.#lastVersions) return this.#lastVersionsId;
    // JSON text keeps the string "3" and the number 3 apart, as miles' metrics do.
    const text = JSON.stringify(list);
    let id = this.versionIds.get(text);
    if (id === undefined) {
      id = this.versionLists.length;
      this.versionLists.push(list);
      this.versionIds.set(text, id);
    }
    this.#lastVersions = list;
    this.#lastVersionsId = id;
    return id;
  }

  /**
   * Row `i`'s miles fields into `out` (no record built); false when the row has none. Prompt-cache
   * counts and effective lengths beyond int32 come from the overflow maps.
   */
  milesAt(i: number, out: MilesRow): boolean {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    const flags = c.flags[j];
    if ((flags & F_MILES) === 0) return false;
    out.effectiveLength =
      flags & F_LEN_RESPONSE
        ? this.getInt(c.responseLength, j, i, 'responseLength')
        : flags & F_LEN_NULL
          ? null
          : this.getInt(c.effectiveLength as Int32Array, j, i, 'effectiveLength');
    out.weightVersions = c.weightVersions ? c.weightVersions[j] - 1 : -1;
    out.cachedTokens = c.cachedTokens ? (this.getInt(c.cachedTokens, j, i, 'cachedTokens') as number) : 0;
    out.totalPromptTokens = c.totalPromptTokens ? (this.getInt(c.totalPromptTokens, j, i, 'totalPromptTokens') as number) : 0;
    out.repetition = flags & F_REP_TRUE ? true : flags & F_REP_OTHER ? (this.repetitionOther.get(i) as string | null) : false;
    return true;
  }

  /** The `weight_versions` list of id `id` (from `milesAt`), as first given. */
  weightVersionList(id: number): (string | number)[] {
    return this.versionLists[id];
  }

  statusAt(i: number): SampleStatus | null {
    return STATUSES[this.chunks[i >>> CHUNK_BITS].status[i & MASK]];
  }

  rewardAt(i: number): number | null {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return (c.flags[j] & F_REWARD) !== 0 ? c.reward[j] : null;
  }

  /**
   * Whether rows `i` and `k` have equal rewards as Python's `==` has them: null equals null, NaN
   * equals nothing (not even itself), -0 equals 0. Read in place, without boxing the numbers.
   */
  sameReward(i: number, k: number): boolean {
    const a = this.chunks[i >>> CHUNK_BITS];
    const b = this.chunks[k >>> CHUNK_BITS];
    const ia = i & MASK;
    const kb = k & MASK;
    const fa = a.flags[ia] & F_REWARD;
    if (fa !== (b.flags[kb] & F_REWARD)) return false;
    return fa === 0 || a.reward[ia] === b.reward[kb];
  }

  rewardIsIntAt(i: number): boolean {
    return (this.chunks[i >>> CHUNK_BITS].flags[i & MASK] & F_REWARD_INT) !== 0;
  }

  abortedAt(i: number): boolean {
    return (this.chunks[i >>> CHUNK_BITS].flags[i & MASK] & F_ABORTED) !== 0;
  }

  private putOffset(c: Chunk, j: number, offset: number): void {
    if (j === 0) {
      c.offsetBase = offset;
      c.wideOffset = null;
    }
    if (c.wideOffset !== null) {
      c.wideOffset[j] = offset;
      return;
    }
    const d = offset - c.offsetBase;
    if (d >= 0 && d <= 0xffffffff && Number.isInteger(d) && !Object.is(offset, -0)) {
      c.offsetDelta[j] = d;
      return;
    }
    const wide = new Float64Array(CHUNK);
    for (let k = 0; k < j; k++) wide[k] = c.offsetBase + c.offsetDelta[k];
    wide[j] = offset;
    c.wideOffset = wide;
  }

  /** The Int32 code of `v` in column `field` of row `row` (values it cannot hold go to the overflow map). */
  private intCode(row: number, field: IntField, v: number | null): number {
    return this.overflow.code(row, field, v);
  }

  private putInt(col: Int32Array, j: number, row: number, field: IntField, v: number | null): void {
    col[j] = this.intCode(row, field, v);
  }

  private fromCode(v: number, row: number, field: IntField): number | null {
    return this.overflow.value(v, row, field);
  }

  private getInt(col: Int32Array, j: number, row: number, field: IntField): number | null {
    return this.fromCode(col[j], row, field);
  }

  private stepOf(c: Chunk, j: number, row: number): number | null {
    return this.fromCode(c.step !== null ? c.step[j] : c.stepFirst, row, 'step');
  }

  /** Row `i` as a fresh record (equal to the one pushed). */
  at(i: number): SampleRecord {
    if (i < 0 || i >= this.count) throw new RangeError(`sample ${i} of ${this.count}`);
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    const flags = c.flags[j];
    const out: SampleRecord = {
      line: c.line[j],
      offset: c.wideOffset !== null ? c.wideOffset[j] : c.offsetBase + c.offsetDelta[j],
      byteLength: c.byteLength[j],
      groupKey: this.groupKeys.value(c.groupKey[j]),
      index: this.getInt(c.index, j, i, 'index'),
      dataset: this.labels.value(c.dataset[j] - 1),
      promptKey: this.strings.value(c.promptKey[j]),
      status: STATUSES[c.status[j]],
      aborted: (flags & F_ABORTED) !== 0,
      reward: (flags & F_REWARD) !== 0 ? c.reward[j] : null,
      rewardIsInt: (flags & F_REWARD_INT) !== 0,
      cause: this.labels.value(c.cause[j] - 1),
      responseLength: this.getInt(c.responseLength, j, i, 'responseLength'),
      step: this.stepOf(c, j, i),
    };
    const extras = this.vars.get(i);
    if (extras !== undefined) {
      if (extras.vars !== undefined) out.vars = extras.vars;
      if (extras.session !== undefined) out.session = extras.session;
      if (extras.output !== undefined) out.output = extras.output;
    }
    if ((flags & F_MILES) !== 0) {
      const m: MilesRow = { effectiveLength: null, weightVersions: -1, cachedTokens: 0, totalPromptTokens: 0, repetition: false };
      this.milesAt(i, m);
      out.miles = {
        effectiveLength: m.effectiveLength,
        weightVersions: m.weightVersions < 0 ? null : this.versionLists[m.weightVersions],
        cachedTokens: m.cachedTokens,
        totalPromptTokens: m.totalPromptTokens,
        repetition: m.repetition,
      };
    }
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

  /** Row `i`'s cause as its id in `labels` + 1 (0: no cause). */
  causeCodeAt(i: number): number {
    return this.chunks[i >>> CHUNK_BITS].cause[i & MASK];
  }

  /** Whether row `i` has any of the optional fields `vars`, `session`, `output` (verl). */
  hasExtras(i: number): boolean {
    return this.vars.size !== 0 && this.vars.has(i);
  }

  indexAt(i: number): number | null {
    return this.getInt(this.chunks[i >>> CHUNK_BITS].index, i & MASK, i, 'index');
  }

  lineAt(i: number): number {
    return this.chunks[i >>> CHUNK_BITS].line[i & MASK];
  }

  stepAt(i: number): number | null {
    return this.stepOf(this.chunks[i >>> CHUNK_BITS], i & MASK, i);
  }

  /**
   * Hands this store's chunks to the next store and drops its tables. The store is empty
   * afterwards; its owner must hold no other reference to it (a scan's resume snapshot shares it:
   * release the scan).
   */
  release(): void {
    giveBackChunks(this.chunks);
    this.chunks = [];
    this.count = 0;
    this.groupKeys = new StringTable();
    this.strings = new StringTable();
    this.labels = new StringTable();
    this.#lastGroup = this.#lastPrompt = this.#lastDataset = this.#lastCause = null;
    this.#lastGroupId = this.#lastPromptId = this.#lastDatasetId = this.#lastCauseId = this.#lastGroupIntId = -1;
    this.#lastGroupInt = NaN;
    this.#lastPromptHashId = -1;
    this.overflow = new IntOverflow();
    this.vars = new Map();
    this.versionLists = [];
    this.versionIds = new Map();
    this.repetitionOther = new Map();
    this.#lastVersions = null;
    this.#lastVersionsId = -1;
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
    const out = new SampleStore(this.groupKeys.clone(), this.strings.clone(), this.labels.clone());
    const full = length >>> CHUNK_BITS;
    out.chunks = this.chunks.slice(0, full);
    if ((length & MASK) !== 0) out.chunks.push(this.chunks[full].copy());
    out.count = length;
    out.overflow = this.overflow.below(length);
    for (const [row, v] of this.vars) if (row < length) out.vars.set(row, v);
    // Lists are never changed once added: the copy may share them.
    out.versionLists = this.versionLists.slice();
    out.versionIds = new Map(this.versionIds);
    for (const [row, v] of this.repetitionOther) if (row < length) out.repetitionOther.set(row, v);
    return out;
  }
}
