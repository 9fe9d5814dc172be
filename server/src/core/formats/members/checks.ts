// The vocabulary of the member tables (formats/members/*.ts): how a member's value is checked,
// which the zod schemas (formats/validation/reference.ts) and the fast validation
// (formats/validation/fast.ts) both build from, and the record fields each member feeds.
import { Skipped } from '../../reader/jsonRule';
import type { SampleStatus } from '../../vocabulary/types';

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Skipped);
}

export const SAMPLE_STATUSES = ['pending', 'completed', 'truncated', 'aborted', 'failed'] as const;

/**
 * Whether a sample of this status counts as aborted where the status decides it (miles and the
 * generic format; docs/semantics.md#aborted-group-filter): each reader of those formats asks here.
 */
export function abortedByStatus(status: string | null): boolean {
  return status === 'aborted';
}

/**
 * How a member's value is checked. Each is optional and may be null unless the member is
 * `required`, except `reward` (null is one of its values) and `present`.
 * - `integer`: a number that is an integer (any size: big group keys are kept by their text);
 * - `number`: any JSON number, NaN and ±Infinity included;
 * - `text`: a short string (up to 1024 bytes: built by the scanner);
 * - `anyString`: a string of any length (long ones are skipped, not built);
 * - `id`: a string or an integer;
 * - `status`: one of SAMPLE_STATUSES;
 * - `reward`: a number, a boolean (Python's int), an object of named rewards, or null (docs/semantics.md#reward-value);
 * - `object`: a plain object, any members;
 * - `present`: any value, but the member must be there;
 * - a table: a plain object whose members are checked by that table;
 * - null: not checked (read by the format's own rules, see `feeds`).
 */
export type Check = 'integer' | 'number' | 'text' | 'anyString' | 'id' | 'status' | 'reward' | 'object' | 'present' | MemberTable | null;

/** The fields of a sample record (core/vocabulary/types.ts `SampleRecord`, `MilesSampleFields`) a member feeds. */
export type RecordField =
  | 'groupKey'
  | 'index'
  | 'dataset'
  | 'promptKey'
  | 'status'
  | 'aborted'
  | 'reward'
  | 'cause'
  | 'responseLength'
  | 'step'
  | 'rolloutId'
  | 'vars'
  | 'session'
  | 'output'
  | 'miles.effectiveLength'
  | 'miles.weightVersions'
  | 'miles.cachedTokens'
  | 'miles.totalPromptTokens'
  | 'miles.repetition'
  | 'metrics';

/**
 * What the full scan (reader/ruleParse.ts) builds of a member's value besides the short scalars it
 * builds of every record (formats/rule.ts gathers these into the one rule of every format):
 * - 'hash': the hash of its JSON text (a prompt's identity), not the value;
 * - 'sum': the sum of a numeric array (miles' `loss_mask`);
 * - 'list': a short array of scalars (miles' `weight_versions`);
 * - 'tail': a string, its end kept when it is too long to build (miles' `response`);
 * - 'scalars': an object's scalar members; when its check is a table, that table's members are
 *   built as their own `build` says.
 */
export type BuildKind = 'hash' | 'sum' | 'list' | 'tail' | 'scalars';

/**
 * How the fast twins of a miles sample (milesSample/lineMembers.ts for line.ts, scan/ptSampleRecord.ts)
 * read a member's value into its slot; each twin has one reader per kind, and the record is made
 * from the slots by the format's rules there:
 * - 'groupKey': an integer, kept as the group's key (its literal's text);
 * - 'integer': an integer;
 * - 'reward': a number, and whether it was written as an int (an object reward: the full path);
 * - 'status': one of SAMPLE_STATUSES;
 * - 'shortText': a short string of few distinct values (remembered between lines);
 * - 'id': a short string or an integer, as text (mostly unique: not remembered);
 * - 'table': an object read by its check's table, into that table's slots;
 * - 'promptHash': any value whose JSON text is hashed when it keys the prompt;
 * - 'sum', 'list', 'scalars', 'tail': the value as the full scan builds it under that `build`;
 * - 'skip': not read by the twins (only the full scan builds it).
 */
export type ReadKind =
  'groupKey' | 'integer' | 'reward' | 'status' | 'shortText' | 'id' | 'table' | 'promptHash' | 'sum' | 'list' | 'scalars' | 'tail' | 'skip';

export interface Member {
  readonly name: string;
  readonly check: Check;
  /** Must be there (and not null, but for `present`). */
  readonly required?: true;
  /** The record fields it feeds (the store's columns hold them: store/row.ts). */
  readonly feeds: readonly RecordField[];
  /** What the full scan builds of it beyond a short scalar (formats/rule.ts); none: a scalar or skipped. */
  readonly build?: BuildKind;
  /** How the fast twins read it (MILES_SAMPLE and MILES_METADATA, whose every member names one). */
  readonly read?: ReadKind;
}

/** One record shape of a format, its members in the order zod reports them. */
export interface MemberTable {
  readonly name: string;
  readonly members: readonly Member[];
}

/** The value a member of `check` has once validated (a member that may be absent adds null and undefined). */
type CheckValue<C> = C extends 'integer' | 'number'
  ? number
  : C extends 'text'
    ? string
    : C extends 'anyString'
      ? string | Skipped
      : C extends 'id'
        ? string | number
        : C extends 'status'
          ? SampleStatus
          : C extends 'reward'
            ? number | boolean | Record<string, unknown> | null
            : C extends 'object'
              ? Record<string, unknown>
              : C extends 'present'
                ? unknown
                : C extends { readonly members: infer Ms extends readonly Member[] }
                  ? Validated<Ms>
                  : never;

/** A record's checked members once validated, typed from its table (declared `as const`). */
export type Validated<Ms extends readonly Member[]> = {
  [M in Ms[number] as M['check'] extends null ? never : M['name']]: M['required'] extends true
    ? CheckValue<M['check']>
    : CheckValue<M['check']> | null | undefined;
};

/** The validated record of `table`. */
export type ValidatedOf<T extends { readonly members: readonly Member[] }> = Validated<T['members']>;

/** The position of member `name` in `table` (the per-line and `.pt` readers switch on positions). */
export function position(table: MemberTable, name: string): number {
  const at = table.members.findIndex((m) => m.name === name);
  if (at < 0) throw new Error(`${table.name} has no member ${name}`);
  return at;
}

/** The names of `table`'s members, by position. */
export function memberNames(table: MemberTable): readonly string[] {
  return table.members.map((m) => m.name);
}
