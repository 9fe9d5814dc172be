// Generated from the record columns (store/recordColumns.ts) by store/columnSource.ts: do not edit;
// after a change to the table, `npx tsc -p tsconfig.json && node scripts/gen-store-columns.mjs`
// writes it again.
// The row `pushRow` takes and the chunk's arrays, one or a few a record field
// (store/fieldColumns.ts writes and reads them).
import type { MilesSampleFields, SampleRecord } from '../vocabulary/types';
import { CHUNK } from './chunk';

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
