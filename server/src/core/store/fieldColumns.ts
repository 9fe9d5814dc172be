// Generated from the record columns (store/recordColumns.ts) by store/columnSource.ts: do not edit;
// after a change to the table, `npx tsc -p tsconfig.json && node scripts/gen-store-columns.mjs`
// writes it again.
// The store's columns of the record fields: the row's writer and each field's reader
// (store/sampleStore.ts and sampleColumns.ts hold the rest: the miles columns, the key tables' other
// ways in, slices).
import type { MilesSampleFields, SampleRecord, SampleStatus } from '../vocabulary/types';
import { brokenCount, CHUNK, CHUNK_BITS, MASK, NULL, STATUS_CODE, STATUS_OF_CODE, withLabelCode } from './chunk';
import { takeChunk } from './chunkPool';
import { type Chunk, emptyMilesRow, emptyRow, type Extras, type MilesRow, type StoreRow } from './fieldRows';
import { IntOverflow } from './intOverflow';
import * as Flag from './rowFlags';
import { LastKeyId, StringTable } from './stringTable';

/**
 * The columns of a file's samples, one per record field (a few for some), in chunks of typed
 * arrays: rows are appended (`push`, `pushRow`), never changed, and read by field (`<field>At`)
 * or whole (`at`).
 */
export abstract class FieldColumns {
  protected chunks: Chunk[] = [];
  protected count = 0;
  /** Group keys by first appearance. */
  groupKeys: StringTable;
  /** Prompt keys. */
  strings: StringTable;
  /** The label columns' values (few: their columns hold a byte while ids stay below 255). */
  labels: StringTable;
  /** Values an Int32 column cannot hold (null, fractions, beyond int32), by row. */
  protected overflow = new IntOverflow();
  /** Distinct lists of the miles list columns (rows mostly share one), by id. */
  protected lists: (string | number)[][] = [];
  /** miles `repetition` verdicts other than true and false, by row: rare. */
  protected repetitionOther = new Map<number, Exclude<MilesSampleFields['repetition'], boolean>>();
  /** The fields kept beside the columns, of the rows that have any, as given. */
  protected vars = new Map<number, Extras>();
  /** The row `push` fills from a record before `pushRow` (rows are copied into the columns). */
  #pushed = emptyRow();
  #groupKeyIds = new LastKeyId();
  #promptKeyIds = new LastKeyId();
  #datasetIds = new LastKeyId();
  #causeIds = new LastKeyId();

  constructor(groupKeys = new StringTable(), strings = new StringTable(), labels = new StringTable()) {
    this.groupKeys = groupKeys;
    this.strings = strings;
    this.labels = labels;
  }

  get length(): number {
    return this.count;
  }

  /** The id of `list` in `lists` (one for each JSON text). */
  protected abstract listId(list: (string | number)[]): number;
  /** Keeps the fields beside the columns of row `row`. */
  protected abstract keepExtras(row: number, extras: Extras): void;

  push(s: SampleRecord): void {
    const r = this.#pushed;
    r.line = s.line;
    r.offset = s.offset;
    r.byteLength = s.byteLength;
    r.groupId = this.#groupKeyIds.of(this.groupKeys, s.groupKey);
    r.index = s.index;
    r.dataset = s.dataset;
    r.promptId = this.#promptKeyIds.of(this.strings, s.promptKey);
    r.status = STATUS_CODE.get(s.status) ?? 0;
    r.aborted = s.aborted;
    r.reward = s.reward;
    r.rewardIsInt = s.rewardIsInt;
    r.cause = s.cause;
    r.responseLength = s.responseLength;
    r.step = s.step;
    r.rolloutId = s.rolloutId ?? null;
    r.rewardIsBool = s.rewardIsBool === true;
    r.miles = s.miles;
    const row = this.count;
    this.pushRow(r);
    if (s.vars !== undefined || s.session !== undefined || s.output !== undefined || s.zeroStdReward !== undefined) {
      const extras: Extras = {};
      if (s.vars !== undefined) extras.vars = s.vars;
      if (s.session !== undefined) extras.session = s.session;
      if (s.output !== undefined) extras.output = s.output;
      if (s.zeroStdReward !== undefined) extras.zeroStdReward = s.zeroStdReward;
      this.keepExtras(row, extras);
    }
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
    const indexCode = this.overflow.code(row, 'index', r.index);
    if (j === 0) c.indexFirst = indexCode;
    if (c.index !== null) c.index[j] = indexCode;
    else if (indexCode !== c.indexFirst + j) c.index = brokenCount(Int32Array, c.indexFirst, j, indexCode);
    c.dataset = withLabelCode(c.dataset, j, this.#datasetIds.of(this.labels, r.dataset) + 1);
    c.promptKey[j] = r.promptId;
    c.status[j] = r.status;
    const reward = r.reward ?? 0;
    if (c.reward.BYTES_PER_ELEMENT === 4 && Math.fround(reward) !== reward && reward === reward) c.reward = Float64Array.from(c.reward);
    c.reward[j] = reward;
    c.cause = withLabelCode(c.cause, j, this.#causeIds.of(this.labels, r.cause) + 1);
    c.responseLength[j] = this.overflow.code(row, 'responseLength', r.responseLength);
    const stepCode = this.overflow.code(row, 'step', r.step);
    if (j === 0) c.stepFirst = stepCode;
    if (c.step !== null) c.step[j] = stepCode;
    else if (stepCode !== c.stepFirst) {
      c.step = new Int32Array(CHUNK).fill(c.stepFirst, 0, j);
      c.step[j] = stepCode;
    }
    if (j === 0) c.hasRolloutId = false;
    if (r.rolloutId !== null || c.rolloutId !== null) {
      c.rolloutId ??= new Int32Array(CHUNK).fill(NULL);
      c.rolloutId[j] = this.overflow.code(row, 'rolloutId', r.rolloutId);
      if (r.rolloutId !== null) c.hasRolloutId = true;
    }
    let flags =
      (r.aborted ? Flag.ABORTED : 0) |
      (r.reward !== null ? Flag.HAS_REWARD : 0) |
      (r.rewardIsInt ? Flag.REWARD_INT : 0) |
      (r.rewardIsBool ? Flag.REWARD_BOOL : 0);
    const m = r.miles;
    if (m !== undefined) flags |= this.putMiles(c, j, row, m, r);
    c.flags[j] = flags;
    this.count = row + 1;
  }

  /** Forgets the last keys and labels given and their ids (the tables are new). */
  protected forgetLastIds(): void {
    this.#groupKeyIds = new LastKeyId();
    this.#promptKeyIds = new LastKeyId();
    this.#datasetIds = new LastKeyId();
    this.#causeIds = new LastKeyId();
  }

  /** Writes the miles fields `m` of row `row` (at `j` of `c`, the row `r`); returns its flags. */
  private putMiles(c: Chunk, j: number, row: number, m: MilesSampleFields, r: StoreRow): number {
    let flags = Flag.MILES;
    if (Object.is(m.effectiveLength, r.responseLength)) flags |= Flag.LEN_RESPONSE;
    else if (m.effectiveLength === null) flags |= Flag.LEN_NULL;
    else (c.effectiveLength ??= new Int32Array(CHUNK))[j] = this.overflow.code(row, 'effectiveLength', m.effectiveLength);
    const weightVersionsId = m.weightVersions === null ? 0 : this.listId(m.weightVersions) + 1;
    if (weightVersionsId !== 0 || c.weightVersions) (c.weightVersions ??= new Int32Array(CHUNK))[j] = weightVersionsId;
    if (m.cachedTokens !== 0 || Object.is(m.cachedTokens, -0) || c.cachedTokens)
      (c.cachedTokens ??= new Int32Array(CHUNK))[j] = this.overflow.code(row, 'cachedTokens', m.cachedTokens);
    if (m.totalPromptTokens !== 0 || Object.is(m.totalPromptTokens, -0) || c.totalPromptTokens)
      (c.totalPromptTokens ??= new Int32Array(CHUNK))[j] = this.overflow.code(row, 'totalPromptTokens', m.totalPromptTokens);
    if (m.repetition === true) flags |= Flag.REP_TRUE;
    else if (m.repetition !== false) {
      flags |= Flag.REP_OTHER;
      this.repetitionOther.set(row, m.repetition);
    }
    return flags;
  }

  /**
   * Row `i`'s miles fields into `out` (no record built); false when the row has none. Values
   * beyond int32 come from the overflow maps.
   */
  milesAt(i: number, out: MilesRow): boolean {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    const flags = c.flags[j];
    if ((flags & Flag.MILES) === 0) return false;
    out.effectiveLength =
      flags & Flag.LEN_RESPONSE
        ? this.overflow.value(c.responseLength[j], i, 'responseLength')
        : flags & Flag.LEN_NULL
          ? null
          : this.overflow.value((c.effectiveLength as Int32Array)[j], i, 'effectiveLength');
    out.weightVersions = c.weightVersions ? c.weightVersions[j] - 1 : -1;
    out.cachedTokens = c.cachedTokens ? (this.overflow.value(c.cachedTokens[j], i, 'cachedTokens') as number) : 0;
    out.totalPromptTokens = c.totalPromptTokens ? (this.overflow.value(c.totalPromptTokens[j], i, 'totalPromptTokens') as number) : 0;
    out.repetition =
      flags & Flag.REP_TRUE ? true : flags & Flag.REP_OTHER ? (this.repetitionOther.get(i) as Exclude<MilesSampleFields['repetition'], boolean>) : false;
    return true;
  }

  /** Row `i`'s miles fields as a record holds them (`SampleRecord.miles`); undefined: none. */
  milesFieldsAt(i: number): MilesSampleFields | undefined {
    const m = emptyMilesRow();
    if (!this.milesAt(i, m)) return undefined;
    return {
      effectiveLength: m.effectiveLength,
      weightVersions: m.weightVersions < 0 ? null : this.lists[m.weightVersions],
      cachedTokens: m.cachedTokens,
      totalPromptTokens: m.totalPromptTokens,
      repetition: m.repetition,
    };
  }

  private putOffset(c: Chunk, j: number, v: number): void {
    if (j === 0) {
      c.offsetBase = v;
      c.wideOffset = null;
    }
    if (c.wideOffset !== null) {
      c.wideOffset[j] = v;
      return;
    }
    const d = v - c.offsetBase;
    if (d >= 0 && d <= 0xffffffff && Number.isInteger(d) && !Object.is(v, -0)) {
      if (c.offsetDelta !== null) c.offsetDelta[j] = d;
      else if (d !== j) c.offsetDelta = brokenCount(Uint32Array, 0, j, d);
      return;
    }
    const wide = new Float64Array(CHUNK);
    const delta = c.offsetDelta;
    for (let k = 0; k < j; k++) wide[k] = c.offsetBase + (delta === null ? k : delta[k]);
    wide[j] = v;
    c.wideOffset = wide;
  }

  /** Row `i`'s `line`. */
  lineAt(i: number): number {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return c.line === null ? c.lineFirst + j : c.line[j];
  }

  /** Row `i`'s `offset`. */
  offsetAt(i: number): number {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return c.wideOffset !== null ? c.wideOffset[j] : c.offsetBase + (c.offsetDelta === null ? j : c.offsetDelta[j]);
  }

  /** Row `i`'s `byteLength`. */
  byteLengthAt(i: number): number {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return c.byteLength[j];
  }

  /** Row `i`'s `groupKey`. */
  groupKeyAt(i: number): string | null {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return this.groupKeys.value(c.groupKey[j]);
  }

  /** Row `i`'s `index`. */
  indexAt(i: number): number | null {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return this.overflow.value(c.index === null ? c.indexFirst + j : c.index[j], i, 'index');
  }

  /** Row `i`'s `dataset`. */
  datasetAt(i: number): string | null {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return this.labels.value(c.dataset[j] - 1);
  }

  /** Row `i`'s `promptKey`. */
  promptKeyAt(i: number): string | null {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return this.strings.value(c.promptKey[j]);
  }

  /** Row `i`'s `status`. */
  statusAt(i: number): SampleStatus | null {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return STATUS_OF_CODE[c.status[j]];
  }

  /** Row `i`'s `aborted`. */
  abortedAt(i: number): boolean {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return (c.flags[j] & Flag.ABORTED) !== 0;
  }

  /** Row `i`'s `reward`. */
  rewardAt(i: number): number | null {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return (c.flags[j] & Flag.HAS_REWARD) !== 0 ? c.reward[j] : null;
  }

  /** Row `i`'s `rewardIsInt`. */
  rewardIsIntAt(i: number): boolean {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return (c.flags[j] & Flag.REWARD_INT) !== 0;
  }

  /** Row `i`'s `cause`. */
  causeAt(i: number): string | null {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return this.labels.value(c.cause[j] - 1);
  }

  /** Row `i`'s `responseLength`. */
  responseLengthAt(i: number): number | null {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return this.overflow.value(c.responseLength[j], i, 'responseLength');
  }

  /** Row `i`'s `step`. */
  stepAt(i: number): number | null {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return this.overflow.value(c.step !== null ? c.step[j] : c.stepFirst, i, 'step');
  }

  /** Row `i`'s `rolloutId`. */
  rolloutIdAt(i: number): number | null {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return c.rolloutId === null ? null : this.overflow.value(c.rolloutId[j], i, 'rolloutId');
  }

  /** Row `i`'s `rewardIsBool`. */
  rewardIsBoolAt(i: number): boolean {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return (c.flags[j] & Flag.REWARD_BOOL) !== 0;
  }

  /** Whether any row has a `rolloutId`. */
  get hasRolloutIds(): boolean {
    return this.chunks.some((c) => c.hasRolloutId);
  }

  /** Row `i`'s fields kept beside the columns, as given; undefined: none. */
  extrasAt(i: number): Extras | undefined {
    return this.vars.size === 0 ? undefined : this.vars.get(i);
  }

  /** Row `i` as a fresh record (equal to the one pushed). */
  at(i: number): SampleRecord {
    if (i < 0 || i >= this.count) throw new RangeError(`sample ${i} of ${this.count}`);
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    const flags = c.flags[j];
    const out: SampleRecord = {
      line: c.line === null ? c.lineFirst + j : c.line[j],
      offset: c.wideOffset !== null ? c.wideOffset[j] : c.offsetBase + (c.offsetDelta === null ? j : c.offsetDelta[j]),
      byteLength: c.byteLength[j],
      groupKey: this.groupKeys.value(c.groupKey[j]),
      index: this.overflow.value(c.index === null ? c.indexFirst + j : c.index[j], i, 'index'),
      dataset: this.labels.value(c.dataset[j] - 1),
      promptKey: this.strings.value(c.promptKey[j]),
      status: STATUS_OF_CODE[c.status[j]],
      aborted: (flags & Flag.ABORTED) !== 0,
      reward: (flags & Flag.HAS_REWARD) !== 0 ? c.reward[j] : null,
      rewardIsInt: (flags & Flag.REWARD_INT) !== 0,
      cause: this.labels.value(c.cause[j] - 1),
      responseLength: this.overflow.value(c.responseLength[j], i, 'responseLength'),
      step: this.overflow.value(c.step !== null ? c.step[j] : c.stepFirst, i, 'step'),
    };
    const rolloutId = c.rolloutId === null ? null : this.overflow.value(c.rolloutId[j], i, 'rolloutId');
    if (rolloutId !== null) out.rolloutId = rolloutId;
    if ((flags & Flag.REWARD_BOOL) !== 0) out.rewardIsBool = true;
    const extras = this.vars.get(i);
    if (extras !== undefined) {
      if (extras.vars !== undefined) out.vars = extras.vars;
      if (extras.session !== undefined) out.session = extras.session;
      if (extras.output !== undefined) out.output = extras.output;
      if (extras.zeroStdReward !== undefined) out.zeroStdReward = extras.zeroStdReward;
    }
    if ((flags & Flag.MILES) !== 0) out.miles = this.milesFieldsAt(i);
    return out;
  }
}
