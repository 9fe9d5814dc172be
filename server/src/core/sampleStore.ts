// One file's samples in columns: typed arrays in fixed-size chunks (no copy when the store grows)
// and strings interned to small ids. A run can hold millions of samples; as objects each cost
// hundreds of bytes of heap, here about forty (BENCHMARKS.md, "Scale with the number of samples").
// Records are materialised on demand (`at`), one group at a time in the rollout analysis.
import { hex64 } from './reader/hash';
import type { MilesSampleFields, SampleRecord, SampleStatus } from './types';

const K_STRING = 0;
const K_INT = 1;
const K_HEX = 2;
const TWO_32 = 4294967296;

/** The hex digit's value, or -1 (lowercase only: the engine's hashes print lowercase). */
function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

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
  /** K_INT: the integer; K_HEX: the first 8 digits' value. */
  private hi = new Float64Array(16);
  /** K_HEX: the last 8 digits' value. */
  private lo = new Uint32Array(16);
  /** Open addressing over the numeric keys: id + 1 by slot, 0 for an empty slot. */
  private slots = new Int32Array(64);
  private numeric = 0;
  /** The other strings: id by string and string by id. */
  private readonly ids = new Map<string, number>();
  private readonly texts = new Map<number, string>();
  /** The last numeric key spelled and its text: consecutive rows mostly repeat their keys. */
  private lastId = -1;
  private lastText = '';

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
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.add(K_STRING, 0, 0);
      this.ids.set(s, id);
      this.texts.set(id, s);
    }
    return id;
  }

  /** The string of `id`; null for -1. */
  value(id: number): string | null {
    if (id < 0) return null;
    if (id === this.lastId) return this.lastText;
    const k = this.kind[id];
    if (k === K_STRING) return this.texts.get(id) as string;
    const text = k === K_INT ? String(this.hi[id]) : hex64(this.hi[id], this.lo[id]);
    this.lastId = id;
    this.lastText = text;
    return text;
  }

  /** A copy holding the first `size` strings (ids keep their meaning). */
  clone(size = this.count): StringTable {
    const t = new StringTable();
    for (let i = 0; i < size; i++) t.id(this.value(i));
    return t;
  }

  private numericId(kind: number, hi: number, lo: number): number {
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
    if (++this.numeric * 2 > this.slots.length) this.rehash();
    return id;
  }

  private slotOf(kind: number, hi: number, lo: number): number {
    if (kind === K_HEX) return fmix(Math.imul(hi | 0, 0x9e3779b1) ^ lo);
    return fmix((hi | 0) ^ Math.imul(Math.floor(hi / TWO_32) | 0, 0x9e3779b1));
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      const kind = this.kind[id];
      if (kind === K_STRING) continue;
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

const CHUNK_BITS = 14;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

const STATUSES: readonly (SampleStatus | null)[] = [null, 'pending', 'completed', 'truncated', 'aborted', 'failed'];
const STATUS_CODE = new Map<SampleStatus | null, number>(STATUSES.map((s, i) => [s, i]));

const F_ABORTED = 1;
const F_REWARD_INT = 2;
const F_REWARD = 4;
/** The row has `miles` fields; its effective length is its response length / null / in `effectiveLength`. */
const F_MILES = 8;
/** `repetition` true; REP_OTHER: null or an exception (in the store's `repetitionOther` by row). */
const F_REP_TRUE = 16;
const F_REP_OTHER = 128;
const F_LEN_RESPONSE = 32;
const F_LEN_NULL = 64;

/** Int32 column values for null, and for "see the overflow map" (fractions, beyond int32, -0, these two). */
const NULL = -0x80000000;
const OUT = -0x7fffffff;

class Chunk {
  readonly line = new Uint32Array(CHUNK);
  /** Byte offsets as `offsetBase` (the chunk's first row's) + a 32-bit delta, or all in `wideOffset` once one does not fit. */
  offsetBase = 0;
  readonly offsetDelta = new Uint32Array(CHUNK);
  wideOffset: Float64Array | null = null;
  readonly byteLength = new Uint32Array(CHUNK);
  readonly groupKey = new Int32Array(CHUNK);
  readonly promptKey = new Int32Array(CHUNK);
  /** Label ids + 1 (0: null): a byte each until an id needs more. */
  dataset: Uint8Array | Int32Array = new Uint8Array(CHUNK);
  cause: Uint8Array | Int32Array = new Uint8Array(CHUNK);
  readonly index = new Int32Array(CHUNK);
  readonly responseLength = new Int32Array(CHUNK);
  /** Step codes: the chunk's first row's in `stepFirst` until a row differs (a file is mostly one step). */
  stepFirst = 0;
  step: Int32Array | null = null;
  /** Rewards in single precision until one is not exactly a float32 (0, 1, 0.5 are). */
  reward: Float32Array | Float64Array = new Float32Array(CHUNK);
  readonly status = new Uint8Array(CHUNK);
  readonly flags = new Uint8Array(CHUNK);
  /**
   * miles columns, made when a row first needs one (zero for the rows before it): an effective
   * length that is not the response length, `weight_versions` (list id + 1; 0: null), prefix-cache
   * token counts. Files without these fields pay nothing for them.
   */
  effectiveLength: Int32Array | null = null;
  weightVersions: Int32Array | null = null;
  cachedTokens: Int32Array | null = null;
  totalPromptTokens: Int32Array | null = null;

  copy(): Chunk {
    const c = new Chunk();
    c.line.set(this.line);
    c.offsetBase = this.offsetBase;
    c.offsetDelta.set(this.offsetDelta);
    c.wideOffset = this.wideOffset && this.wideOffset.slice();
    c.byteLength.set(this.byteLength);
    c.groupKey.set(this.groupKey);
    c.promptKey.set(this.promptKey);
    c.dataset = this.dataset.slice();
    c.cause = this.cause.slice();
    c.index.set(this.index);
    c.responseLength.set(this.responseLength);
    c.stepFirst = this.stepFirst;
    c.step = this.step && this.step.slice();
    c.reward = this.reward.slice();
    c.status.set(this.status);
    c.flags.set(this.flags);
    c.effectiveLength = this.effectiveLength && this.effectiveLength.slice();
    c.weightVersions = this.weightVersions && this.weightVersions.slice();
    c.cachedTokens = this.cachedTokens && this.cachedTokens.slice();
    c.totalPromptTokens = this.totalPromptTokens && this.totalPromptTokens.slice();
    return c;
  }
}

type IntField = 'index' | 'responseLength' | 'step' | 'effectiveLength' | 'cachedTokens' | 'totalPromptTokens';
const INT_FIELDS: readonly IntField[] = ['index', 'responseLength', 'step', 'effectiveLength', 'cachedTokens', 'totalPromptTokens'];
const noOverflow = (): Record<IntField, Map<number, number | null>> => ({
  index: new Map(),
  responseLength: new Map(),
  step: new Map(),
  effectiveLength: new Map(),
  cachedTokens: new Map(),
  totalPromptTokens: new Map(),
});

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

/**
 * Chunks of released stores, reused by the next store: a run folder's files are read one after
 * another, and the next file's columns then take the memory of the last one's instead of waiting
 * for a full garbage collection to free it. Every column of a row is written by `push` (the miles
 * columns a chunk has, for a row with miles fields; others never read them), so a reused chunk
 * needs no clearing.
 */
const freeChunks: Chunk[] = [];
const MAX_FREE_CHUNKS = 256;

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
  private overflow = noOverflow();
  /** Distinct `weight_versions` lists (rows mostly share one), by id; their ids by JSON text. */
  private versionLists: (string | number)[][] = [];
  /** miles `repetition` verdicts other than true/false (null, an exception), by row: rare. */
  private repetitionOther = new Map<number, string | null>();
  private versionIds = new Map<string, number>();
  private lastVersions: (string | number)[] | null = null;
  private lastVersionsId = -1;
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
    const row = this.count;
    const k = row >>> CHUNK_BITS;
    if (k === this.chunks.length) this.chunks.push(freeChunks.pop() ?? new Chunk());
    const c = this.chunks[k];
    const j = row & MASK;
    c.line[j] = s.line;
    this.putOffset(c, j, s.offset);
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
      this.lastDatasetId = this.labels.id(s.dataset);
    }
    const dataset = this.lastDatasetId + 1;
    if (dataset > 255 && c.dataset.BYTES_PER_ELEMENT === 1) c.dataset = Int32Array.from(c.dataset);
    c.dataset[j] = dataset;
    if (s.cause !== this.lastCause || this.lastCauseId < 0) {
      this.lastCause = s.cause;
      this.lastCauseId = this.labels.id(s.cause);
    }
    const cause = this.lastCauseId + 1;
    if (cause > 255 && c.cause.BYTES_PER_ELEMENT === 1) c.cause = Int32Array.from(c.cause);
    c.cause[j] = cause;
    this.putInt(c.index, j, row, 'index', s.index);
    this.putInt(c.responseLength, j, row, 'responseLength', s.responseLength);
    const step = this.intCode(row, 'step', s.step);
    if (j === 0) c.stepFirst = step;
    if (c.step !== null) c.step[j] = step;
    else if (step !== c.stepFirst) {
      c.step = new Int32Array(CHUNK).fill(c.stepFirst, 0, j);
      c.step[j] = step;
    }
    const reward = s.reward ?? 0;
    if (c.reward.BYTES_PER_ELEMENT === 4 && Math.fround(reward) !== reward && reward === reward) c.reward = Float64Array.from(c.reward);
    c.reward[j] = reward;
    c.status[j] = STATUS_CODE.get(s.status) ?? 0;
    let flags = (s.aborted ? F_ABORTED : 0) | (s.rewardIsInt ? F_REWARD_INT : 0) | (s.reward !== null ? F_REWARD : 0);
    const m = s.miles;
    if (m !== undefined) flags |= this.putMiles(c, j, row, m, s.responseLength);
    c.flags[j] = flags;
    if (s.vars !== undefined || s.session !== undefined || s.output !== undefined) {
      const extras: Extras = {};
      if (s.vars !== undefined) extras.vars = s.vars;
      if (s.session !== undefined) extras.session = s.session;
      if (s.output !== undefined) extras.output = s.output;
      this.vars.set(row, extras);
    }
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
    if (list === this.lastVersions) return this.lastVersionsId;
    // JSON text keeps the string "3" and the number 3 apart, as miles' metrics do.
    const text = JSON.stringify(list);
    let id = this.versionIds.get(text);
    if (id === undefined) {
      id = this.versionLists.length;
      this.versionLists.push(list);
      this.versionIds.set(text, id);
    }
    this.lastVersions = list;
    this.lastVersionsId = id;
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
    if (v === null) return NULL;
    if ((v | 0) === v && v !== OUT && v !== NULL && !Object.is(v, -0)) return v;
    this.overflow[field].set(row, v);
    return OUT;
  }

  private putInt(col: Int32Array, j: number, row: number, field: IntField, v: number | null): void {
    col[j] = this.intCode(row, field, v);
  }

  private fromCode(v: number, row: number, field: IntField): number | null {
    if (v === NULL) return null;
    return v !== OUT ? v : (this.overflow[field].get(row) as number);
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
    for (const c of this.chunks) if (freeChunks.length < MAX_FREE_CHUNKS) freeChunks.push(c);
    this.chunks = [];
    this.count = 0;
    this.groupKeys = new StringTable();
    this.strings = new StringTable();
    this.labels = new StringTable();
    this.lastGroup = this.lastPrompt = this.lastDataset = this.lastCause = null;
    this.lastGroupId = this.lastPromptId = this.lastDatasetId = this.lastCauseId = -1;
    this.overflow = noOverflow();
    this.vars = new Map();
    this.versionLists = [];
    this.versionIds = new Map();
    this.repetitionOther = new Map();
    this.lastVersions = null;
    this.lastVersionsId = -1;
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
    for (const f of INT_FIELDS) {
      for (const [row, v] of this.overflow[f]) if (row < length) out.overflow[f].set(row, v);
    }
    for (const [row, v] of this.vars) if (row < length) out.vars.set(row, v);
    // Lists are never changed once added: the copy may share them.
    out.versionLists = this.versionLists.slice();
    out.versionIds = new Map(this.versionIds);
    for (const [row, v] of this.repetitionOther) if (row < length) out.repetitionOther.set(row, v);
    return out;
  }
}
