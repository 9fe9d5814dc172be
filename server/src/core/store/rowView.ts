// One row of the store read as a record, field by field, when a field is asked for (`RowView`, whose
// getters are written from the record columns: store/fieldRowView.ts).
import type { SampleRecord } from '../vocabulary/types';
import { RowView } from './fieldRowView';
import { SampleColumns } from './sampleColumns';

export { RowView } from './fieldRowView';

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
