// One file's samples in columns: typed arrays in fixed-size chunks (no copy when the store grows)
// and strings interned to small ids. A run can hold millions of samples; as objects each cost
// hundreds of bytes of heap, here a few dozen (BENCHMARKS.md, "Scale with the number of samples").
// Each record field's column is written as the record columns give it (store/fieldColumns.ts,
// `push` and `pushRow`); this module adds the key ids by number and by hash, the ids of lists, and
// the store's release and slices. store/sampleColumns.ts reads them, and records are materialised
// on demand (`at`), one group at a time in the rollout analysis.
import type { CheckedField, ShapeNotes } from '../formats/fieldShape';
import type { SampleRecord } from '../vocabulary/types';
import { CHUNK_BITS, MASK } from './chunk';
import * as ChunkPool from './chunkPool';
import type { Extras } from './fieldRows';
import * as Flag from './rowFlags';
import { IntOverflow } from './intOverflow';
import { SampleColumns } from './sampleColumns';
import { StringTable } from './stringTable';

export { StringTable } from './stringTable';
export { emptyRow, type StoreRow } from './row';
export { type MilesRow, SampleColumns } from './sampleColumns';
export { STATUS_CODE } from './chunk';

/** The sample columns with their writer: rows are appended (`push`, `pushRow`), never changed. */
export class SampleStore extends SampleColumns {
  /** Fields of another shape than their writer gives them: the first per field (formats/fieldShape.ts). */
  shapes: ShapeNotes = {};
  /** The ids of the miles list columns' lists (`lists`) by JSON text. */
  private listIds = new Map<string, number>();
  #lastList: (string | number)[] | null = null;
  #lastListId = -1;
  /** The last integer group key and prompt hash given and their ids, as `LastKeyId` keeps keys'. */
  #lastGroupInt = NaN;
  #lastGroupIntId = -1;
  #lastPromptHash = new Uint32Array(2);
  #lastPromptHashId = -1;

  /** A store of `records`, in their order. */
  static of(records: Iterable<SampleRecord>): SampleStore {
    const store = new SampleStore();
    for (const s of records) store.push(s);
    return store;
  }

  protected keepExtras(row: number, extras: Extras): void {
    this.vars.set(row, extras);
    if (extras.zeroStdReward !== undefined) this.zeroStdRewards++;
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
   * Sets row `row`'s `has_repetition` verdict to true: one decided after its row was pushed as
   * false (a tail compressed on another thread, formats/milesSample/line.ts).
   */
  markRepetitive(row: number): void {
    this.chunks[row >>> CHUNK_BITS].flags[row & MASK] |= Flag.REP_TRUE;
  }

  protected listId(list: (string | number)[]): number {
    // A .pt sample's list is a new array each time with the last one's items, mostly.
    if (list === this.#lastList || sameItems(list, this.#lastList)) return this.#lastListId;
    // JSON text keeps the string "3" and the number 3 apart, as miles' metrics do.
    const text = JSON.stringify(list);
    let id = this.listIds.get(text);
    if (id === undefined) {
      id = this.lists.length;
      this.lists.push(list);
      this.listIds.set(text, id);
    }
    this.#lastList = list;
    this.#lastListId = id;
    return id;
  }

  /**
   * Hands this store's chunks to the next store and drops its tables. The store is empty
   * afterwards; its owner must hold no other reference to it (a scan's resume snapshot shares it:
   * release the scan).
   */
  release(): void {
    ChunkPool.giveBackChunks(this.chunks);
    this.chunks = [];
    this.count = 0;
    this.groupKeys = new StringTable();
    this.strings = new StringTable();
    this.labels = new StringTable();
    this.forgetLastIds();
    this.#lastGroupInt = NaN;
    this.#lastGroupIntId = -1;
    this.#lastPromptHashId = -1;
    this.overflow = new IntOverflow();
    this.vars = new Map();
    this.zeroStdRewards = 0;
    this.lists = [];
    this.listIds = new Map();
    this.repetitionOther = new Map();
    this.#lastList = null;
    this.#lastListId = -1;
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
    out.lists = this.lists.slice();
    out.listIds = new Map(this.listIds);
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
