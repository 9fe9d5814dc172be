// The values the sample store's Int32 columns cannot hold (fractions, beyond int32, -0, and the two
// codes below themselves), kept by row in maps: rare, so the columns stay four bytes a row.
import { NULL, OUT } from './chunk';

export type IntField = 'index' | 'responseLength' | 'step' | 'rolloutId' | 'effectiveLength' | 'cachedTokens' | 'totalPromptTokens';
const INT_FIELDS: readonly IntField[] = ['index', 'responseLength', 'step', 'rolloutId', 'effectiveLength', 'cachedTokens', 'totalPromptTokens'];

export class IntOverflow {
  private readonly maps: Record<IntField, Map<number, number | null>> = {
    index: new Map(),
    responseLength: new Map(),
    step: new Map(),
    rolloutId: new Map(),
    effectiveLength: new Map(),
    cachedTokens: new Map(),
    totalPromptTokens: new Map(),
  };

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
