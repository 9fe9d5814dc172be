// The sample store's columns, one per record field: the one table the store's code is written from
// (store/columnSource.ts writes store/fieldRows.ts, fieldColumns.ts and fieldRowView.ts from it:
// the row type, the chunk's arrays, the row writer, the field readers and the row view). A new field of a kind below is one line here, then
// `npx tsc -p tsconfig.json && node scripts/gen-store-columns.mjs`.
import type { MilesSampleFields, SampleRecord } from '../vocabulary/types';
import type * as Flag from './rowFlags';

/** A bit of the rows' flags column (store/rowFlags.ts). */
export type FlagBit = keyof typeof Flag;

/** How the store keeps one record field: the kinds of column and what each holds a row in. */
export type Column =
  /** A Uint32 that counts up by one from the chunk's first row: no array until a row breaks the count. */
  | { kind: 'count' }
  /** An Int32 code (store/intOverflow.ts) that counts up as `count` does; the record's field may be null. */
  | { kind: 'intCount' }
  /** Byte offsets: the chunk's first row's + a Uint32 delta counting from 0, or all Float64 once one does not fit. */
  | { kind: 'offset' }
  | { kind: 'uint32' }
  /** An id in the string table `table` (-1: null); the row holds the id as `row`, its writer finds it. */
  | { kind: 'key'; table: 'groupKeys' | 'strings'; row: 'groupId' | 'promptId' }
  /** An id in `labels` + 1 (0: null): a byte until an id needs more, then an Int32. */
  | { kind: 'label' }
  /** An Int32 code (store/intOverflow.ts: values it cannot hold by row in a map); null allowed. */
  | { kind: 'int' }
  /** An Int32 code, the chunk's first row's until a row differs (a file is mostly one value). */
  | { kind: 'chunkConstant' }
  /** An Int32 code made when a row first has a value: most files have none; the record has the field only when not null. */
  | { kind: 'optionalInt' }
  /** A status's code (store/chunk.ts STATUS_CODE), a byte. */
  | { kind: 'status' }
  /** A bit of the flags column; `optional`: the record has the field only when true. */
  | { kind: 'flag'; bit: FlagBit; optional?: true }
  /** Float32 until a value is not exactly one (0, 1, 0.5 are), then Float64; `bit` set when not null. */
  | { kind: 'reward'; bit: FlagBit }
  /** Beside the columns, by row, for the rows that have it (an optional field most files lack). */
  | { kind: 'extra' }
  /** miles' `Sample` fields (`MilesSampleFields`): a column each by `columns` (bit MILES set when the row has them). */
  | { kind: 'miles'; columns: Readonly<Record<string, MilesColumn>> };

/** How the store keeps one of miles' `Sample` fields (`SampleRecord.miles`). */
export type MilesColumn =
  /** The row's field `same` (bit `sameBit`), null (`nullBit`), or an Int32 code in a column made when a row first needs one. */
  | { kind: 'sameOrInt'; same: 'responseLength'; sameBit: FlagBit; nullBit: FlagBit }
  /** A list's id (store/sampleStore.ts `listId`: one for each JSON text) + 1 (0: null), in a column made when a row first has a list. */
  | { kind: 'listId' }
  /** An Int32 code, in a column made when a row first has one other than 0 (0 for the rows before it). */
  | { kind: 'lazyInt' }
  /** true (bit `trueBit`), false, or another value (`otherBit`), kept by row. */
  | { kind: 'verdict'; trueBit: FlagBit; otherBit: FlagBit };

/** Every miles field's column (the order the row's miles columns are written and read). */
export const MILES_COLUMNS = {
  effectiveLength: { kind: 'sameOrInt', same: 'responseLength', sameBit: 'LEN_RESPONSE', nullBit: 'LEN_NULL' },
  weightVersions: { kind: 'listId' },
  cachedTokens: { kind: 'lazyInt' },
  totalPromptTokens: { kind: 'lazyInt' },
  repetition: { kind: 'verdict', trueBit: 'REP_TRUE', otherBit: 'REP_OTHER' },
} as const satisfies { readonly [F in keyof Required<MilesSampleFields>]: MilesColumn };

/**
 * Every record field's column, in the order `at` builds a record (the order a row's columns are
 * written too: datasets are interned in `labels` before causes).
 */
export const RECORD_COLUMNS = {
  line: { kind: 'count' },
  offset: { kind: 'offset' },
  byteLength: { kind: 'uint32' },
  groupKey: { kind: 'key', table: 'groupKeys', row: 'groupId' },
  index: { kind: 'intCount' },
  dataset: { kind: 'label' },
  promptKey: { kind: 'key', table: 'strings', row: 'promptId' },
  status: { kind: 'status' },
  aborted: { kind: 'flag', bit: 'ABORTED' },
  reward: { kind: 'reward', bit: 'HAS_REWARD' },
  rewardIsInt: { kind: 'flag', bit: 'REWARD_INT' },
  cause: { kind: 'label' },
  responseLength: { kind: 'int' },
  step: { kind: 'chunkConstant' },
  rolloutId: { kind: 'optionalInt' },
  rewardIsBool: { kind: 'flag', bit: 'REWARD_BOOL', optional: true },
  vars: { kind: 'extra' },
  session: { kind: 'extra' },
  output: { kind: 'extra' },
  zeroStdReward: { kind: 'extra' },
  miles: { kind: 'miles', columns: MILES_COLUMNS },
} as const satisfies { readonly [F in keyof Required<SampleRecord>]: Column };
