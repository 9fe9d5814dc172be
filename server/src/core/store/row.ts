// One sample row as the sample store takes it (`SampleStore.pushRow`): a record's fields with its
// keys already as table ids, so a reader can fill one object for every line. Its fields follow the
// record columns (store/recordColumns.ts; store/fieldRows.ts declares it).
import type { SampleStatus } from '../vocabulary/types';

import { STATUS_CODE } from './chunk';
import type { StoreRow } from './fieldRows';

export { emptyRow, type StoreRow } from './fieldRows';

/** Sets `r`'s status (as its code) and whether it counts as aborted: every row writer's one way. */
export function setRowStatus(r: StoreRow, status: SampleStatus | null, aborted: boolean): void {
  r.status = STATUS_CODE.get(status) ?? 0;
  r.aborted = aborted;
}
