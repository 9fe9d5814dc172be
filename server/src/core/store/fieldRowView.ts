// Generated from the record columns (store/recordColumns.ts) by store/columnSource.ts: do not edit;
// after a change to the table, `npx tsc -p tsconfig.json && node scripts/gen-store-columns.mjs`
// writes it again.
// A row of the store read as a record, field by field.
import type { SampleRecord } from '../vocabulary/types';
import type { FieldColumns } from './fieldColumns';

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
