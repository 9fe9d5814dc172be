// One sample row as the sample store takes it (`SampleStore.pushRow`): a record's fields with its
// keys already as table ids, so a reader can fill one object for every line.
import type { MilesSampleFields, SampleStatus } from '../vocabulary/types';

import { STATUS_CODE } from './chunk';

/** A row as `SampleStore.pushRow` takes it: a record's fields with its keys as table ids. */
export interface StoreRow {
  line: number;
  offset: number;
  byteLength: number;
  /** Id in `groupKeys` (-1: no group key). */
  groupId: number;
  /** Id in `strings` (-1: no prompt key). */
  promptId: number;
  dataset: string | null;
  cause: string | null;
  index: number | null;
  responseLength: number | null;
  step: number | null;
  /** miles' `Sample.rollout_id` (null: none). */
  rolloutId: number | null;
  /** The status's code (`store/chunk.ts` STATUS_CODE). */
  status: number;
  aborted: boolean;
  reward: number | null;
  rewardIsInt: boolean;
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
    promptId: -1,
    dataset: null,
    cause: null,
    index: null,
    responseLength: null,
    step: null,
    rolloutId: null,
    status: 0,
    aborted: false,
    reward: null,
    rewardIsInt: false,
    rewardIsBool: false,
    miles: undefined,
  };
}

/** Sets `r`'s status (as its code) and whether it counts as aborted: every row writer's one way. */
export function setRowStatus(r: StoreRow, status: SampleStatus | null, aborted: boolean): void {
  r.status = STATUS_CODE.get(status) ?? 0;
  r.aborted = aborted;
}
