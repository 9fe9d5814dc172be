// The values the sample store's Int32 columns cannot hold (fractions, beyond int32, -0, and the two
// codes below themselves), kept by row in maps: rare, so the columns stay four bytes a row.
import { NULL, OUT } from './chunk';
import { MILES_COLUMNS, RECORD_COLUMNS } from './recordColumns';

type ColumnField = keyof typeof RECORD_COLUMNS;
type MilesField = keyof typeof MILES_COLUMNS;

/** The kinds of column that hold Int32 codes (store/recordColumns.ts). */
const INT_KINDS = ['intCount', 'int', 'chunkConstant', 'optionalInt'] as const;
type IntKind = (typeof INT_KINDS)[number];
/** The kinds of miles column that hold Int32 codes. */
const MILES_INT_KINDS = ['sameOrInt', 'lazyInt'] as const;
type MilesIntKind = (typeof MILES_INT_KINDS)[number];

/** The fields whose columns hold Int32 codes: each has its own map. */
export type IntField =
  | { [F in ColumnField]: (typeof RECORD_COLUMNS)[F]['kind'] extends IntKind ? F : never }[ColumnField]
  | { [F in MilesField]: (typeof MILES_COLUMNS)[F]['kind'] extends MilesIntKind ? F : never }[MilesField];
const INT_FIELDS = [
  ...(Object.keys(RECORD_COLUMNS) as ColumnField[]).filter((f) => (INT_KINDS as readonly string[]).includes(RECORD_COLUMNS[f].kind)),
  ...(Object.keys(MILES_COLUMNS) as MilesField[]).filter((f) => (MILES_INT_KINDS as readonly string[]).includes(MILES_COLUMNS[f].kind)),
] as readonly IntField[];

function emptyMaps(): Record<IntField, Map<number, number | null>> {
  return Object.fromEntries(INT_FIELDS.map((f) => [f, new Map<number, number | null>()])) as Record<IntField, Map<number, number | null>>;
}

export class IntOverflow {
  private readonly maps = emptyMaps();

  /** The Int32 code of `v` in column `field` of row `row`; a value the column cannot hold is kept here (code OUT). */
  code(row: number, field: IntField, v: number | null): number {
    if (v === null) return NULL;
    if ((v | 0) === v && v !== OUT && v !== NULL && !Object.is(v, -0)) return v;
    this.maps[field].set(row, v);
    return OUT;
  }

  /** The value of code `v` in column `field` of row `row`. */
  value(v: number, row: number, field: IntField): number | null {
    if (v === NULL) return null;
    return v !== OUT ? v : (this.maps[field].get(row) as number);
  }

  /** A copy holding the rows below `length`. */
  below(length: number): IntOverflow {
    const out = new IntOverflow();
    for (const f of INT_FIELDS) {
      for (const [row, v] of this.maps[f]) if (row < length) out.maps[f].set(row, v);
    }
    return out;
  }
}
