// One row of the store read as a record, field by field, when a field is asked for.
import type { KeyedReward, MilesSampleFields, SampleRecord, SampleStatus } from '../vocabulary/types';
import { SampleColumns } from './sampleColumns';

/**
 * Row `row` of `store` as a `SampleRecord` whose fields are read from the columns on each access:
 * an object of two fields, not a built record. Made where an analysis needs a record of a row (a
 * sample a finding names, verl's analyses, a spread prompt's entries); a check that reads many
 * rows reads them by position instead (`sampleList.ts`).
 * A view is not a copy: it is read while the store is, and never kept past the analysis.
 */
export class RowView implements SampleRecord {
  constructor(
    private readonly store: SampleColumns,
    readonly row: number,
  ) {}

  get line(): number {
    return this.store.lineAt(this.row);
  }
  get groupKey(): string | null {
    return this.store.groupKeyAt(this.row);
  }
  get index(): number | null {
    return this.store.indexAt(this.row);
  }
  get promptKey(): string | null {
    return this.store.promptKeyAt(this.row);
  }
  get status(): SampleStatus | null {
    return this.store.statusAt(this.row);
  }
  get aborted(): boolean {
    return this.store.abortedAt(this.row);
  }
  get reward(): number | null {
    return this.store.rewardAt(this.row);
  }
  get rewardIsInt(): boolean {
    return this.store.rewardIsIntAt(this.row);
  }
  get cause(): string | null {
    return this.store.causeAt(this.row);
  }

  get offset(): number {
    return this.store.offsetAt(this.row);
  }
  get byteLength(): number {
    return this.store.byteLengthAt(this.row);
  }
  get dataset(): string | null {
    return this.store.datasetAt(this.row);
  }
  get responseLength(): number | null {
    return this.store.responseLengthAt(this.row);
  }
  get step(): number | null {
    return this.store.stepAt(this.row);
  }
  get rolloutId(): number | null {
    return this.store.rolloutIdAt(this.row);
  }
  get vars(): Record<string, number> | undefined {
    return this.store.extrasAt(this.row)?.vars;
  }
  get session(): string | undefined {
    return this.store.extrasAt(this.row)?.session;
  }
  get output(): number | undefined {
    return this.store.extrasAt(this.row)?.output;
  }
  get zeroStdReward(): KeyedReward | undefined {
    return this.store.extrasAt(this.row)?.zeroStdReward;
  }
  /** A fresh object on each read (as `at` builds one): read it once where it is used. */
  get miles(): MilesSampleFields | undefined {
    return this.store.milesFieldsAt(this.row);
  }
}

/**
 * `samples` as records, for an analysis that reads records: a store's rows as views (none of them
 * built), records as they are.
 */
export function asRecords(samples: readonly SampleRecord[] | SampleColumns): readonly SampleRecord[] {
  if (!(samples instanceof SampleColumns)) return samples;
  const out = new Array<RowView>(samples.length);
  for (let i = 0; i < out.length; i++) out[i] = new RowView(samples, i);
  return out;
}
