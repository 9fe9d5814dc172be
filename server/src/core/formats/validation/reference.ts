// The reference validation: zod schemas of each format's record, built from its member table
// (formats/members/*.ts), over the scanner's output (built scalars; `Skipped` for values that were
// validated but not built). Only the members the analysis reads are checked; unknown members
// pass. Python's NaN/Infinity are numbers here (zod's `number()` rejects them). Its fast twin,
// `fast.ts`, checks the same rules in plain JS before zod runs; zod stays the one source of
// `invalid-record` messages. The schemas are built, and zod loaded, the first time a record fails
// the fast check (core/lazy/zod.ts says why).
import type { z as Z } from 'zod';

import { zod } from '../../lazy/zod';
import { Skipped } from '../../reader/jsonRule';
import { type Check, isPlainObject, type Member, type MemberTable, SAMPLE_STATUSES } from '../members/checks';

function build(z: typeof Z) {
  /** Any JSON number, NaN and ±Infinity included. */
  const anyNumber = z.custom<number>((v) => typeof v === 'number', { error: 'expected a number' });
  /** An integer literal of any size (group keys beyond 2^53 are kept by their text). */
  const integer = z.custom<number>((v) => typeof v === 'number' && Number.isInteger(v), { error: 'expected an integer' });
  const text = z.custom<string>((v) => typeof v === 'string', { error: 'expected a string (up to 1024 bytes)' });
  /** A string of any length (long ones are skipped, not built). */
  const anyString = z.custom<string | Skipped>((v) => typeof v === 'string' || (v instanceof Skipped && v.kind === 'string'), {
    error: 'expected a string',
  });
  const idValue = z.custom<string | number>((v) => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)), {
    error: 'expected a string or an integer',
  });
  /** A reward (docs/semantics.md#reward-value): a number, a boolean (Python's int), an object of named rewards, or null. */
  const rewardValue = z.custom<number | boolean | Record<string, unknown> | null>(
    (v) => v === null || typeof v === 'number' || typeof v === 'boolean' || isPlainObject(v),
    { error: 'expected a number, a boolean, an object of named rewards, or null' },
  );
  const plainObject = z.custom<Record<string, unknown>>(isPlainObject, { error: 'expected an object' });
  const status = z.enum(SAMPLE_STATUSES, { error: `expected one of ${SAMPLE_STATUSES.join(', ')}` });
  const present = z.unknown().refine((v) => v !== undefined, { error: 'missing' });

  const typeOf = (check: Exclude<Check, null>): Z.ZodType => {
    switch (check) {
      case 'integer':
        return integer;
      case 'number':
        return anyNumber;
      case 'text':
        return text;
      case 'anyString':
        return anyString;
      case 'id':
        return idValue;
      case 'status':
        return status;
      case 'reward':
        return rewardValue;
      case 'object':
        return plainObject;
      case 'present':
        return present;
      default:
        // A nested table: a plain object (not an array or a skipped value) with these members.
        return plainObject.pipe(object(check));
    }
  };
  const member = (m: Member): Z.ZodType => {
    const t = typeOf(m.check!);
    if (m.required === true) return t;
    // A reward's null is one of its values; other members take null as absent.
    return m.check === 'reward' ? t.optional() : t.nullable().optional();
  };
  const object = (table: MemberTable) => z.object(Object.fromEntries(table.members.filter((m) => m.check !== null).map((m) => [m.name, member(m)])));
  return object;
}

let objectOf: ReturnType<typeof build> | undefined;
const schemas = new Map<MemberTable, Z.ZodType>();

/** The zod schema of `table` (built once per table). */
export function referenceSchema(table: MemberTable): Z.ZodType {
  let s = schemas.get(table);
  if (s === undefined) {
    s = (objectOf ??= build(zod()))(table);
    schemas.set(table, s);
  }
  return s;
}
