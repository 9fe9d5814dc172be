// One chunk of the sample store's rows (typed arrays of CHUNK rows) and the codes its columns use.
import type { SampleStatus } from '../vocabulary/types';

export const CHUNK_BITS = 14;
export const CHUNK = 1 << CHUNK_BITS;
export const MASK = CHUNK - 1;

export const STATUS_OF_CODE: readonly (SampleStatus | null)[] = [null, 'pending', 'completed', 'truncated', 'aborted', 'failed'];
export const STATUS_CODE = new Map<SampleStatus | null, number>(STATUS_OF_CODE.map((s, i) => [s, i]));

/** Int32 column values for null, and for "see the overflow map" (fractions, beyond int32, -0, these two). */
export const NULL = -0x80000000;
export const OUT = -0x7fffffff;

/**
 * Three columns mostly count up by one from their chunk's first row: lines (a file without blank
 * or unread lines), offsets of a `.pt` dump's samples (their numbers), sample indexes. Such a
 * column has no array until a row breaks the count (`brokenCount`): its value is `first + j`.
 */
export class Chunk {
  lineFirst = 0;
  line: Uint32Array | null = null;
  /** Byte offsets as `offsetBase` (the chunk's first row's) + a 32-bit delta (counting from 0), or all in `wideOffset` once one does not fit. */
  offsetBase = 0;
  offsetDelta: Uint32Array | null = null;
  wideOffset: Float64Array | null = null;
  readonly byteLength = new Uint32Array(CHUNK);
  readonly groupKey = new Int32Array(CHUNK);
  readonly promptKey = new Int32Array(CHUNK);
  /** Label ids + 1 (0: null): a byte each until an id needs more. */
  dataset: Uint8Array | Int32Array = new Uint8Array(CHUNK);
  cause: Uint8Array | Int32Array = new Uint8Array(CHUNK);
  /** Int32 codes (store/intOverflow.ts). */
  indexFirst = 0;
  index: Int32Array | null = null;
  readonly responseLength = new Int32Array(CHUNK);
  /** Step codes: the chunk's first row's in `stepFirst` until a row differs (a file is mostly one step). */
  stepFirst = 0;
  step: Int32Array | null = null;
  /** `Sample.rollout_id` codes, made when a row first has one (NULL for the rows before it): most files have none. */
  rolloutId: Int32Array | null = null;
  /** Whether a row of this chunk has a `Sample.rollout_id` (a reused chunk may hold an earlier file's array). */
  hasRolloutId = false;
  /** Rewards in single precision until one is not exactly a float32 (0, 1, 0.5 are). */
  reward: Float32Array | Float64Array = new Float32Array(CHUNK);
  readonly status = new Uint8Array(CHUNK);
  /** store/rowFlags.ts: nine bits. */
  readonly flags = new Uint16Array(CHUNK);
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
    c.lineFirst = this.lineFirst;
    c.line = this.line && this.line.slice();
    c.offsetBase = this.offsetBase;
    c.offsetDelta = this.offsetDelta && this.offsetDelta.slice();
    c.wideOffset = this.wideOffset && this.wideOffset.slice();
    c.byteLength.set(this.byteLength);
    c.groupKey.set(this.groupKey);
    c.promptKey.set(this.promptKey);
    c.dataset = this.dataset.slice();
    c.cause = this.cause.slice();
    c.indexFirst = this.indexFirst;
    c.index = this.index && this.index.slice();
    c.responseLength.set(this.responseLength);
    c.stepFirst = this.stepFirst;
    c.step = this.step && this.step.slice();
    c.rolloutId = this.rolloutId && this.rolloutId.slice();
    c.hasRolloutId = this.hasRolloutId;
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

/**
 * The array a counting column (`Chunk`) gets when row `j`'s value `v` is not `first + j`: the
 * count up to that row, then `v`. Writers write on into it once made.
 */
export function brokenCount<T extends Uint32Array | Int32Array>(make: new (length: number) => T, first: number, j: number, v: number): T {
  const out = new make(CHUNK);
  for (let k = 0; k < j; k++) out[k] = first + k;
  out[j] = v;
  return out;
}

/**
 * `col`, a label column (dataset, cause), with `code` at row `j`: a byte column comes back as an
 * Int32 copy when the code needs more than a byte (the caller keeps the column returned).
 */
export function withLabelCode(col: Uint8Array | Int32Array, j: number, code: number): Uint8Array | Int32Array {
  if (code > 255 && col.BYTES_PER_ELEMENT === 1) col = Int32Array.from(col);
  col[j] = code;
  return col;
}

/**
 * Chunks of released stores, reused by the next store: a run folder's files are read one after
 * another, and the next file's columns then take the memory of the last one's instead of waiting
 * for a full garbage collection to free it. Every column of a row is written by a push (the miles
 * columns a chunk has, for a row with miles fields; others never read them), so a reused chunk
 * needs no clearing. A counting column's array made for an earlier file is written on, not dropped.
 */
const freeChunks: Chunk[] = [];
const MAX_FREE_CHUNKS = 256;

export function takeChunk(): Chunk {
  return freeChunks.pop() ?? new Chunk();
}

export function giveBackChunks(chunks: readonly Chunk[]): void {
  for (const c of chunks) if (freeChunks.length < MAX_FREE_CHUNKS) freeChunks.push(c);
}
