// Generated from the record columns (store/recordColumns.ts) by store/columnSource.ts: do not edit;
// after a change to the table, `npx tsc -p tsconfig.json && node scripts/gen-store-columns.mjs`
// writes it again. The store's columns of the record fields: the row `pushRow` takes, the chunk's
// arrays, the row's writer and each field's reader (store/sampleStore.ts and sampleColumns.ts hold
// the rest: the miles columns, the key tables' other ways in, slices).
import type { MilesSampleFields, SampleRecord, SampleStatus } from '../vocabulary/types';
import { brokenCount, CHUNK, CHUNK_BITS, MASK, NULL, STATUS_CODE, STATUS_OF_CODE, withLabelCode } from './chunk';
import { IntOverflow } from './intOverflow';
import * as Flag from './rowFlags';
import { LastKeyId, StringTable } from './stringTable';

/** A row as `pushRow` takes it: a record's fields with its keys as table ids (`-1`: none), its status as its code. */
export interface StoreRow {
  line: number;
  offset: number;
  byteLength: number;
  groupId: number;
  index: number | null;
  dataset: string | null;
  promptId: number;
  status: number;
  aborted: boolean;
  reward: number | null;
  rewardIsInt: boolean;
  cause: string | null;
  responseLength: number | null;
  step: number | null;
  rolloutId: number | null;
  rewardIsBool: boolean;
  miles: MilesSampleFields | undefined;
}

/** Creates an empty row for `pushRow` (callers reuse one). */
export function emptyRow(): StoreRow {
  return {
    line: 0,
    offset: 0,
    byteLength: 0,
    groupId: -1,
    index: null,
    dataset: null,
    promptId: -1,
    status: 0,
    aborted: false,
    reward: null,
    rewardIsInt: false,
    cause: null,
    responseLength: null,
    step: null,
    rolloutId: null,
    rewardIsBool: false,
    miles: undefined,
  };
}

/** One row's miles fields as the sample metrics read them (`FieldColumns.milesAt` fills it): a list as its id (-1: null). */
export interface MilesRow {
  effectiveLength: number | null;
  weightVersions: number;
  cachedTokens: number;
  totalPromptTokens: number;
  repetition: MilesSampleFields['repetition'];
}

/** An empty `MilesRow` for `milesAt` (callers reuse one). */
export function emptyMilesRow(): MilesRow {
  return {
    effectiveLength: null,
    weightVersions: -1,
    cachedTokens: 0,
    totalPromptTokens: 0,
    repetition: false,
  };
}

/** The record fields kept beside the columns, for the rows that have any. */
export type Extras = Pick<SampleRecord, 'vars' | 'session' | 'output' | 'zeroStdReward'>;

/** One chunk of the store's rows: typed arrays of CHUNK rows, a column or a few for each record field. */
export class Chunk {
  /** `lineFirst` + the row's position, until a row breaks the count (then an array). */
  lineFirst = 0;
  line: Uint32Array | null = null;
  /** The chunk's first row's offset + a Uint32 delta (counting from 0), or all in `wideOffset` once one does not fit. */
  offsetBase = 0;
  offsetDelta: Uint32Array | null = null;
  wideOffset: Float64Array | null = null;
  readonly byteLength = new Uint32Array(CHUNK);
  readonly groupKey = new Int32Array(CHUNK);
  /** Int32 codes (store/intOverflow.ts): `indexFirst` + the row's position, until a row breaks the count. */
  indexFirst = 0;
  index: Int32Array | null = null;
  /** Label ids + 1 (0: null): a byte each until an id needs more. */
  dataset: Uint8Array | Int32Array = new Uint8Array(CHUNK);
  readonly promptKey = new Int32Array(CHUNK);
  /** Codes (store/chunk.ts STATUS_CODE). */
  readonly status = new Uint8Array(CHUNK);
  /** Single precision until a value is not exactly a float32. */
  reward: Float32Array | Float64Array = new Float32Array(CHUNK);
  /** Label ids + 1 (0: null): a byte each until an id needs more. */
  cause: Uint8Array | Int32Array = new Uint8Array(CHUNK);
  /** Int32 codes (store/intOverflow.ts). */
  readonly responseLength = new Int32Array(CHUNK);
  /** Int32 codes: the chunk's first row's in `stepFirst` until a row differs. */
  stepFirst = 0;
  step: Int32Array | null = null;
  /** Int32 codes, made when a row first has one (NULL for the rows before it). */
  rolloutId: Int32Array | null = null;
  /** Whether a row of this chunk has a rolloutId (a reused chunk may hold an earlier file's array). */
  hasRolloutId = false;
  /** miles columns (store/recordColumns.ts MILES_COLUMNS), made when a row first needs one: files without these fields pay nothing for them. */
  effectiveLength: Int32Array | null = null;
  /** List ids + 1 (0: null). */
  weightVersions: Int32Array | null = null;
  cachedTokens: Int32Array | null = null;
  totalPromptTokens: Int32Array | null = null;
  /** store/rowFlags.ts: the rows' booleans and where their miles fields are. */
  readonly flags = new Uint16Array(CHUNK);

  copy(): Chunk {
    const c = new Chunk();
    c.lineFirst = this.lineFirst;
    c.line = this.line && this.line.slice();
    c.offsetBase = this.offsetBase;
    c.offsetDelta = this.offsetDelta && this.offsetDelta.slice();
    c.wideOffset = this.wideOffset && this.wideOffset.slice();
    c.byteLength.set(this.byteLength);
    c.groupKey.set(this.groupKey);
    c.indexFirst = this.indexFirst;
    c.index = this.index && this.index.slice();
    c.dataset = this.dataset.slice();
    c.promptKey.set(this.promptKey);
    c.status.set(this.status);
    c.reward = this.reward.slice();
    c.cause = this.cause.slice();
    c.responseLength.set(this.responseLength);
    c.stepFirst = this.stepFirst;
    c.step = this.step && this.step.slice();
    c.rolloutId = this.rolloutId && this.rolloutId.slice();
    c.hasRolloutId = this.hasRolloutId;
    c.effectiveLength = this.effectiveLength && this.effectiveLength.slice();
    c.weightVersions = this.weightVersions && this.weightVersions.slice();
    c.cachedTokens = this.cachedTokens && this.cachedTokens.slice();
    c.totalPromptTokens = this.totalPromptTokens && this.totalPromptTokens.slice();
    c.flags.set(this.flags);
    return c;
  }
}

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

  /** A chunk for the next rows (the writer's pool). */
  protected abstract takeChunk(): Chunk;
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
    if (k === this.chunks.length) this.chunks.push(this.takeChunk());
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

/**
 * Row `row` of `store` as a `SampleRecord` whose fields are read from the columns on each access:
 * an object of two fields, not a built record. Made where an analysis needs a record of a row (a
 * sample a finding names, verl's analyses, a spread prompt's entries); a check that reads many
 * rows reads them by position instead (`sampleList.ts`).
 * A view is not a copy: it is read while the store is, and never kept past the analysis.
 */
export class RowView implements SampleRecord {
  constructor(
    private readonly store: FieldColumns,
    readonly row: number,
  ) {}

  get line(): SampleRecord['line'] {
    return this.store.lineAt(this.row);
  }
  get offset(): SampleRecord['offset'] {
    return this.store.offsetAt(this.row);
  }
  get byteLength(): SampleRecord['byteLength'] {
    return this.store.byteLengthAt(this.row);
  }
  get groupKey(): SampleRecord['groupKey'] {
    return this.store.groupKeyAt(this.row);
  }
  get index(): SampleRecord['index'] {
    return this.store.indexAt(this.row);
  }
  get dataset(): SampleRecord['dataset'] {
    return this.store.datasetAt(this.row);
  }
  get promptKey(): SampleRecord['promptKey'] {
    return this.store.promptKeyAt(this.row);
  }
  get status(): SampleRecord['status'] {
    return this.store.statusAt(this.row);
  }
  get aborted(): SampleRecord['aborted'] {
    return this.store.abortedAt(this.row);
  }
  get reward(): SampleRecord['reward'] {
    return this.store.rewardAt(this.row);
  }
  get rewardIsInt(): SampleRecord['rewardIsInt'] {
    return this.store.rewardIsIntAt(this.row);
  }
  get cause(): SampleRecord['cause'] {
    return this.store.causeAt(this.row);
  }
  get responseLength(): SampleRecord['responseLength'] {
    return this.store.responseLengthAt(this.row);
  }
  get step(): SampleRecord['step'] {
    return this.store.stepAt(this.row);
  }
  get rolloutId(): SampleRecord['rolloutId'] {
    return this.store.rolloutIdAt(this.row);
  }
  get rewardIsBool(): SampleRecord['rewardIsBool'] {
    return this.store.rewardIsBoolAt(this.row) ? true : undefined;
  }
  get vars(): SampleRecord['vars'] {
    return this.store.extrasAt(this.row)?.vars;
  }
  get session(): SampleRecord['session'] {
    return this.store.extrasAt(this.row)?.session;
  }
  get output(): SampleRecord['output'] {
    return this.store.extrasAt(this.row)?.output;
  }
  get zeroStdReward(): SampleRecord['zeroStdReward'] {
    return this.store.extrasAt(this.row)?.zeroStdReward;
  }
  /** A fresh object on each read (as `at` builds one): read it once where it is used. */
  get miles(): SampleRecord['miles'] {
    return this.store.milesFieldsAt(this.row);
  }
}
