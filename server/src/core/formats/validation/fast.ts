// The fast validation: plain-JS checks of exactly the rules of the zod schemas (`reference.ts`),
// both built from the same member table, run before zod: zod's cost per record (BENCHMARKS.md,
// "Design measurements") dominates `check` on files of many short lines. The schemas have no
// transforms or defaults (every check is a `custom`/enum/object whose output values are the
// input's), so a record that passes here normalises from its own fields exactly as from zod's
// output. A record that fails here goes to zod's `safeParse`, which stays the one source of
// `invalid-record` messages. test/unit/formats/fastPath.test.ts compares both paths.
import type { z } from 'zod';

import { Skipped } from '../../reader/jsonRule';
import { type Check, isPlainObject, type Member, type MemberTable, SAMPLE_STATUSES, type ValidatedOf } from '../members/checks';

import { referenceSchema } from './reference';

type Obj = Record<string, unknown>;
type Test = (v: unknown) => boolean;

const STATUS_SET: ReadonlySet<unknown> = new Set<string>(SAMPLE_STATUSES);

const none = (v: unknown): boolean => v === undefined || v === null;
const isInteger = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v);
const isId = (v: unknown): boolean => typeof v === 'string' || isInteger(v);

function testOf(check: Exclude<Check, null>): Test {
  switch (check) {
    case 'integer':
      return isInteger;
    case 'number':
      return (v) => typeof v === 'number';
    case 'text':
      return (v) => typeof v === 'string';
    case 'anyString':
      return (v) => typeof v === 'string' || (v instanceof Skipped && v.kind === 'string');
    case 'id':
      return isId;
    case 'status':
      return (v) => STATUS_SET.has(v);
    case 'reward':
      return (v) => v === null || typeof v === 'number' || typeof v === 'boolean' || isPlainObject(v);
    case 'object':
      return isPlainObject;
    case 'present':
      return (v) => v !== undefined;
    default: {
      const members = fastCheck(check);
      return (v) => isPlainObject(v) && members(v);
    }
  }
}

function memberTest(m: Member): Test {
  const test = testOf(m.check!);
  if (m.required === true) return test;
  // `opt(x)` in the schemas is `x.nullable().optional()` (a reward takes null as one of its values).
  return (v) => none(v) || test(v);
}

/** The fast check of `table`'s members, made once from the table (a pure function). */
export function fastCheck(table: MemberTable): (o: Obj) => boolean {
  const checked = table.members.filter((m) => m.check !== null);
  const names = checked.map((m) => m.name);
  const tests = checked.map(memberTest);
  const n = names.length;
  return (o) => {
    for (let k = 0; k < n; k++) if (!tests[k](o[names[k]])) return false;
    return true;
  };
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
