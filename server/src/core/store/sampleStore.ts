// One file's samples in columns: typed arrays in fixed-size chunks (no copy when the store grows)
// and strings interned to small ids. A run can hold millions of samples; as objects each cost
// hundreds of bytes of heap, here a few dozen (BENCHMARKS.md, "Scale with the number of samples").
// This module writes the columns; store/sampleColumns.ts reads them, and records are materialised
// on demand (`at`), one group at a time in the rollout analysis.
import type { CheckedField, ShapeNotes } from '../formats/fieldShape';
import type { MilesSampleFields, SampleRecord } from '../vocabulary/types';
import { type Chunk, CHUNK, CHUNK_BITS, brokenCount, giveBackChunks, MASK, NULL, takeChunk, withLabelCode } from './chunk';
import * as Flag from './rowFlags';
import { type IntField, IntOverflow } from './intOverflow';
import { emptyRow, setRowStatus, type StoreRow } from './row';
import { type Extras, SampleColumns } from './sampleColumns';
import { LastKeyId, StringTable } from './stringTable';

export { StringTable } from './stringTable';
export { emptyRow, type StoreRow } from './row';
export { type MilesRow, SampleColumns } from './sampleColumns';
export { STATUS_CODE } from './chunk';

/** The sample columns with their writer: rows are appended (`push`, `pushRow`), never changed. */
export class SampleStore extends SampleColumns {
  /** Fields of another shape than their writer gives them: the first per field (formats/fieldShape.ts). */
  shapes: ShapeNotes = {};
  /** The ids of the `weight_versions` lists by JSON text. */
  private versionIds = new Map<string, number>();
  #lastVersions: (string | number)[] | null = null;
  #lastVersionsId = -1;
  #groupIds = new LastKeyId();
  #promptIds = new LastKeyId();
  #datasetIds = new LastKeyId();
  #causeIds = new LastKeyId();
  /** The last integer group key and prompt hash given and their ids, as `LastKeyId` keeps keys'. */
  #lastGroupInt = NaN;
  #lastGroupIntId = -1;
  #lastPromptHash = new Uint32Array(2);
  #lastPromptHashId = -1;
  /** The row `push` fills from a record before `pushRow` (rows are copied into the columns). */
  #pushed = emptyRow();

  /** A store of `records`, in their order. */
  static of(records: Iterable<SampleRecord>): SampleStore {
    const store = new SampleStore();
    for (const s of records) store.push(s);
    return store;
  }

  push(s: SampleRecord): void {
    const r = this.#pushed;
    r.line = s.line;
    r.offset = s.offset;
    r.byteLength = s.byteLength;
    r.groupId = this.#groupIds.of(this.groupKeys, s.groupKey);
    r.promptId = this.#promptIds.of(this.strings, s.promptKey);
    r.dataset = s.dataset;
    r.cause = s.cause;
    r.index = s.index;
    r.responseLength = s.responseLength;
    r.step = s.step;
    r.rolloutId = s.rolloutId ?? null;
    setRowStatus(r, s.status, s.aborted);
    r.reward = s.reward;
    r.rewardIsInt = s.rewardIsInt;
    r.rewardIsBool = s.rewardIsBool === true;
    r.miles = s.miles;
    const row = this.count;
    this.pushRow(r);
    if (s.vars !== undefined || s.session !== undefined || s.output !== undefined || s.zeroStdReward !== undefined) {
      const extras: Extras = {};
      if (s.vars !== undefined) extras.vars = s.vars;
      if (s.session !== undefined) extras.session = s.session;
      if (s.output !== undefined) extras.output = s.output;
      if (s.zeroStdReward !== undefined) {
        extras.zeroStdReward = s.zeroStdReward;
        this.zeroStdRewards++;
      }
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
   * samples (formats/milesSample/line.ts) writes its lines so, without a record or key strings. `push`
   * of the row's record stores the same columns.
   */
  pushRow(r: StoreRow): void {
    const row = this.count;
    const k = row >>> CHUNK_BITS;
    if (k === this.chunks.length) this.chunks.push(takeChunk());
    const c = this.chunks[k];
    const j = row & MASK;
    if (j === 0) c.lineFirst = r.line;
    if (c.line !== null) c.line[j] = r.line;
    else if (r.line !== c.lineFirst + j) c.line = brokenCount(Uint32Array, c.lineFirst, j, r.line);
    this.putOffset(c, j, r.offset);
    c.byteLength[j] = r.byteLength;
    c.groupKey[j] = r.groupId;
    c.promptKey[j] = r.promptId;
    c.dataset = withLabelCode(c.dataset, j, this.#datasetIds.of(this.labels, r.dataset) + 1);
    c.cause = withLabelCode(c.cause, j, this.#causeIds.of(this.labels, r.cause) + 1);
    const index = this.overflow.code(row, 'index', r.index);
    if (j === 0) c.indexFirst = index;
    if (c.index !== null) c.index[j] = index;
    else if (index !== c.indexFirst + j) c.index = brokenCount(Int32Array, c.indexFirst, j, index);
    this.putInt(c.responseLength, j, row, 'responseLength', r.responseLength);
    const step = this.overflow.code(row, 'step', r.step);
    if (j === 0) c.stepFirst = step;
    if (c.step !== null) c.step[j] = step;
    else if (step !== c.stepFirst) {
      c.step = new Int32Array(CHUNK).fill(c.stepFirst, 0, j);
      c.step[j] = step;
    }
    if (j === 0) c.hasRolloutId = false;
    if (r.rolloutId !== null || c.rolloutId !== null) {
      c.rolloutId ??= new Int32Array(CHUNK).fill(NULL);
      c.rolloutId[j] = this.overflow.code(row, 'rolloutId', r.rolloutId);
      if (r.rolloutId !== null) c.hasRolloutId = true;
    }
    const reward = r.reward ?? 0;
    if (c.reward.BYTES_PER_ELEMENT === 4 && Math.fround(reward) !== reward && reward === reward) c.reward = Float64Array.from(c.reward);
    c.reward[j] = reward;
    c.status[j] = r.status;
    let flags =
      (r.aborted ? Flag.ABORTED : 0) |
      (r.rewardIsInt ? Flag.REWARD_INT : 0) |
      (r.reward !== null ? Flag.HAS_REWARD : 0) |
      (r.rewardIsBool ? Flag.REWARD_BOOL : 0);
    const m = r.miles;
    if (m !== undefined) flags |= this.putMiles(c, j, row, m, r.responseLength);
    c.flags[j] = flags;
    this.count = row + 1;
  }

  /**
   * Sets row `row`'s `has_repetition` verdict to true: one decided after its row was pushed as
   * false (a tail compressed on another thread, formats/milesSample/line.ts).
   */
  markRepetitive(row: number): void {
    this.chunks[row >>> CHUNK_BITS].flags[row & MASK] |= Flag.REP_TRUE;
  }

  /** Writes `m` into the miles columns of row `row`; returns its flags. */
  private putMiles(c: Chunk, j: number, row: number, m: MilesSampleFields, responseLength: number | null): number {
    let flags = Flag.MILES;
    if (m.repetition === true) flags |= Flag.REP_TRUE;
    else if (m.repetition !== false) {
      flags |= Flag.REP_OTHER;
      this.repetitionOther.set(row, m.repetition);
    }
    if (Object.is(m.effectiveLength, responseLength)) flags |= Flag.LEN_RESPONSE;
    else if (m.effectiveLength === null) flags |= Flag.LEN_NULL;
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
    // A .pt sample's list is a new array each time with the last one's items, mostly.
    if (list === this.#lastVersions || sameItems(list, this.#lastVersions)) return this.#lastVersionsId;
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
      if (c.offsetDelta !== null) c.offsetDelta[j] = d;
      else if (d !== j) c.offsetDelta = brokenCount(Uint32Array, 0, j, d);
      return;
    }
    const wide = new Float64Array(CHUNK);
    const delta = c.offsetDelta;
    for (let k = 0; k < j; k++) wide[k] = c.offsetBase + (delta === null ? k : delta[k]);
    wide[j] = offset;
    c.wideOffset = wide;
  }

  /** Writes `v` at `j` of `col`, column `field` of row `row` (values it cannot hold go to the overflow map). */
  private putInt(col: Int32Array, j: number, row: number, field: IntField, v: number | null): void {
    col[j] = this.overflow.code(row, field, v);
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
    this.#groupIds = new LastKeyId();
    this.#promptIds = new LastKeyId();
    this.#datasetIds = new LastKeyId();
    this.#causeIds = new LastKeyId();
    this.#lastGroupInt = NaN;
    this.#lastGroupIntId = -1;
    this.#lastPromptHashId = -1;
    this.overflow = new IntOverflow();
    this.vars = new Map();
    this.zeroStdRewards = 0;
    this.versionLists = [];
    this.versionIds = new Map();
    this.repetitionOther = new Map();
    this.#lastVersions = null;
    this.#lastVersionsId = -1;
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
    for (const [row, v] of this.vars) {
      if (row >= length) continue;
      out.vars.set(row, v);
      if (v.zeroStdReward !== undefined) out.zeroStdRewards++;
    }
    // Lists are never changed once added: the copy may share them.
    out.versionLists = this.versionLists.slice();
    out.versionIds = new Map(this.versionIds);
    for (const [row, v] of this.repetitionOther) if (row < length) out.repetitionOther.set(row, v);
    for (const [field, note] of Object.entries(this.shapes) as [CheckedField, { line: number; shape: string }][])
      if (note.line <= (length > 0 ? this.lineAt(length - 1) : 0)) out.shapes[field] = note;
    return out;
  }
}

/**
 * Whether `a` and `b` have the same JSON text, item for item: `===` tells it for strings and
 * numbers (0 and -0 are both `0`); NaN, which `===` refuses, is left to the text.
 */
function sameItems(a: readonly (string | number)[], b: readonly (string | number)[] | null): boolean {
  if (b === null || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
