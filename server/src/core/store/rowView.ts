// One row of the store read as a record, field by field, when a field is asked for.
import type { MilesSampleFields, SampleRecord, SampleStatus } from '../types';
import type { SampleColumns } from './sampleColumns';

/**
 * Row `row` of `store` as a `SampleRecord` whose fields are read from the columns on each access:
 * a group's members are handed to the rollout checks as these, so a group of a million samples (one
 * group key for a whole file) costs an object of two fields per member, not a built record. The
 * fields the checks read are read in place; the others from a record built for that read (the
 * checks read them only for a finding they keep, and verl's optional fields only on rows that have them).
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
    return this.store.groupKeys.value(this.store.groupId(this.row));
  }
  get index(): number | null {
    return this.store.indexAt(this.row);
  }
  get promptKey(): string | null {
    return this.store.strings.value(this.store.promptIdAt(this.row));
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
    return this.store.labels.value(this.store.causeCodeAt(this.row) - 1);
  }

  get offset(): number {
    return this.record().offset;
  }
  get byteLength(): number {
    return this.record().byteLength;
  }
  get dataset(): string | null {
    return this.record().dataset;
  }
  get responseLength(): number | null {
    return this.record().responseLength;
  }
  get step(): number | null {
    return this.record().step;
  }
  get vars(): Record<string, number> | undefined {
    return this.store.hasExtras(this.row) ? this.record().vars : undefined;
  }
  get session(): string | undefined {
    return this.store.hasExtras(this.row) ? this.record().session : undefined;
  }
  get output(): number | undefined {
    return this.store.hasExtras(this.row) ? this.record().output : undefined;
  }
  get miles(): MilesSampleFields | undefined {
    return this.record().miles;
  }

  private record(): SampleRecord {
    return this.store.at(this.row);
  }
}
