// Samples in some order, read by position: records, or rows of the store. The eval analysis reads a
// dataset so, and the rollout checks a group.
import { SampleColumns } from './sampleColumns';
import { RowView } from './rowView';
import type { SampleRecord, SampleStatus } from '../vocabulary/types';

/**
 * Samples read field by field at a position. Over the store (whenever no detail is kept: `check`)
 * no object is made per sample: an eval dump of a million short answers is a million samples, and
 * so is a rollout group when one key covers a whole file. Over records (a detail kept for an
 * editor, tests) each position is a record.
 */
export interface SampleList {
  readonly length: number;
  line(k: number): number;
  index(k: number): number | null;
  dataset(k: number): string | null;
  groupKey(k: number): string | null;
  promptKey(k: number): string | null;
  reward(k: number): number | null;
  rewardIsInt(k: number): boolean;
  /** The reward was a Python bool (`True`/`False`), read as 1/0. */
  rewardIsBool(k: number): boolean;
  status(k: number): SampleStatus | null;
  aborted(k: number): boolean;
  cause(k: number): string | null;
  /** verl v1's session id (several output rows of one attempt share it); undefined: none. */
  session(k: number): string | undefined;
  /** miles' `Sample.rollout_id` (null: none). */
  rolloutId(k: number): number | null;
  /** The samples at `positions` of this list, in that order. */
  pick(positions: Int32Array): SampleList;
  /** Position `k` as a record (a view of the store's row: read it while the store is). */
  record(k: number): SampleRecord;
  /** Position `k` as a record of its own (built from the store's row), for a caller that keeps it. */
  detached(k: number): SampleRecord;
  /** The store, when this list is every row of it in row order (read as it is, not copied). */
  wholeStore(): SampleColumns | null;
}

/** `samples` as a list: the store's rows in row order, or the records as given. */
export function sampleList(samples: readonly SampleRecord[] | SampleColumns): SampleList {
  return samples instanceof SampleColumns ? new StoreRows(samples, null) : new Records(samples);
}

/** The store's rows `rows` (row numbers, read in place: not copied) as a list, in that order. */
export function rowList(store: SampleColumns, rows: Int32Array): SampleList {
  return new StoreRows(store, rows);
}

class Records implements SampleList {
  constructor(private readonly records: readonly SampleRecord[]) {}
  get length(): number {
    return this.records.length;
  }
  line(k: number): number {
    return this.records[k].line;
  }
  index(k: number): number | null {
    return this.records[k].index;
  }
  dataset(k: number): string | null {
    return this.records[k].dataset;
  }
  groupKey(k: number): string | null {
    return this.records[k].groupKey;
  }
  promptKey(k: number): string | null {
    return this.records[k].promptKey;
  }
  reward(k: number): number | null {
    return this.records[k].reward;
  }
  rewardIsInt(k: number): boolean {
    return this.records[k].rewardIsInt;
  }
  rewardIsBool(k: number): boolean {
    return this.records[k].rewardIsBool === true;
  }
  status(k: number): SampleStatus | null {
    return this.records[k].status;
  }
  aborted(k: number): boolean {
    return this.records[k].aborted;
  }
  cause(k: number): string | null {
    return this.records[k].cause;
  }
  session(k: number): string | undefined {
    return this.records[k].session;
  }
  rolloutId(k: number): number | null {
    return this.records[k].rolloutId ?? null;
  }
  pick(positions: Int32Array): SampleList {
    return new Records(Array.from(positions, (k) => this.records[k]));
  }
  record(k: number): SampleRecord {
    return this.records[k];
  }
  detached(k: number): SampleRecord {
    return this.records[k];
  }
  wholeStore(): SampleColumns | null {
    return null;
  }
}

/** Rows of `store`: `rows[k]` at position k, or row k itself when `rows` is null (every row, in order). */
class StoreRows implements SampleList {
  constructor(
    private readonly store: SampleColumns,
    private readonly rows: Int32Array | null,
  ) {}
  get length(): number {
    return this.rows === null ? this.store.length : this.rows.length;
  }
  private row(k: number): number {
    return this.rows === null ? k : this.rows[k];
  }
  line(k: number): number {
    return this.store.lineAt(this.row(k));
  }
  index(k: number): number | null {
    return this.store.indexAt(this.row(k));
  }
  dataset(k: number): string | null {
    return this.store.datasetAt(this.row(k));
  }
  groupKey(k: number): string | null {
    return this.store.groupKeyAt(this.row(k));
  }
  promptKey(k: number): string | null {
    return this.store.promptKeyAt(this.row(k));
  }
  reward(k: number): number | null {
    return this.store.rewardAt(this.row(k));
  }
  rewardIsInt(k: number): boolean {
    return this.store.rewardIsIntAt(this.row(k));
  }
  rewardIsBool(k: number): boolean {
    return this.store.rewardIsBoolAt(this.row(k));
  }
  status(k: number): SampleStatus | null {
    return this.store.statusAt(this.row(k));
  }
  aborted(k: number): boolean {
    return this.store.abortedAt(this.row(k));
  }
  cause(k: number): string | null {
    return this.store.causeAt(this.row(k));
  }
  session(k: number): string | undefined {
    return this.store.extrasAt(this.row(k))?.session;
  }
  rolloutId(k: number): number | null {
    return this.store.rolloutIdAt(this.row(k));
  }
  pick(positions: Int32Array): SampleList {
    const rows = this.rows;
    return new StoreRows(this.store, rows === null ? positions : positions.map((k) => rows[k]));
  }
  record(k: number): SampleRecord {
    return new RowView(this.store, this.row(k));
  }
  detached(k: number): SampleRecord {
    return this.store.at(this.row(k));
  }
  wholeStore(): SampleColumns | null {
    if (this.rows === null) return this.store;
    if (this.rows.length !== this.store.length) return null;
    for (let k = 0; k < this.rows.length; k++) if (this.rows[k] !== k) return null;
    return this.store;
  }
}

/** The list's records one at a time (a store's rows as views, none of them kept). */
export function* recordsOf(list: SampleList): Generator<SampleRecord> {
  for (let k = 0; k < list.length; k++) yield list.record(k);
}
