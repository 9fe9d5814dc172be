// The fast validation: plain-JS checks of exactly the rules of the zod schemas (`reference.ts`),
// both made from the same member table (the checks are generated: fastChecks.ts), run before zod: zod's cost per record (BENCHMARKS.md,
// "Design measurements") dominates `check` on files of many short lines. The schemas have no
// transforms or defaults (every check is a `custom`/enum/object whose output values are the
// input's), so a record that passes here normalises from its own fields exactly as from zod's
// output. A record that fails here goes to zod's `safeParse`, which stays the one source of
// `invalid-record` messages. test/unit/formats/fastPath.test.ts compares both paths.
import type { z } from 'zod';

import type { MemberTable, ValidatedOf } from '../members/checks';

import { FAST_CHECKS } from './fastChecks';
import { referenceSchema } from './reference';

type Obj = Record<string, unknown>;

/** The fast check of `table` (fastChecks.ts, made from the tables). */
export function fastCheck(table: MemberTable): (o: Obj) => boolean {
  const check = FAST_CHECKS[table.name];
  if (check === undefined) throw new Error(`no fast check of ${table.name}: run scripts/gen-fast-checks.mjs`);
  return check;
}

/** A format's validation: its table (for the reference schema) and the fast check made from it. */
export interface Validator<T> {
  readonly table: MemberTable;
  readonly fast: (o: Obj) => boolean;
  /** Only a type: what a valid record holds. */
  readonly valid?: T;
}

export function validator<T extends MemberTable>(table: T): Validator<ValidatedOf<T>> {
  return { table, fast: fastCheck(table) };
}

/**
 * The reference schema's `safeParse(o)`, skipped when the fast check vouches for the record (then
 * the data is `o`; zod is not loaded). `referenceOnly`: zod alone (the differential tests).
 */
export function validate<T>(v: Validator<T>, o: Obj, referenceOnly = false): z.ZodSafeParseResult<T> {
  if (!referenceOnly && v.fast(o)) return { success: true, data: o as T };
  return referenceSchema(v.table).safeParse(o) as z.ZodSafeParseResult<T>;
}
