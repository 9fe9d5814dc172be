// The checks the fast validation (fastChecks.ts, made from the member tables) is written in: one
// per `Check` of formats/members/checks.ts, plain (`is…`) and optional (`opt…`: missing and null
// pass, as `x.nullable().optional()` in the zod schemas of reference.ts).
import { Skipped } from '../../reader/jsonRule';
import { isPlainObject, SAMPLE_STATUSES } from '../members/checks';

const STATUS_SET: ReadonlySet<unknown> = new Set<string>(SAMPLE_STATUSES);

export const none = (v: unknown): boolean => v === undefined || v === null;
export const isInteger = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v);
export const optInteger = (v: unknown): boolean => none(v) || isInteger(v);
/** Any JSON number, NaN and ±Infinity included. */
export const isAnyNumber = (v: unknown): boolean => typeof v === 'number';
export const optAnyNumber = (v: unknown): boolean => none(v) || typeof v === 'number';
export const isText = (v: unknown): boolean => typeof v === 'string';
export const optText = (v: unknown): boolean => none(v) || typeof v === 'string';
export const isAnyString = (v: unknown): boolean => typeof v === 'string' || (v instanceof Skipped && v.kind === 'string');
export const optAnyString = (v: unknown): boolean => none(v) || isAnyString(v);
export const isId = (v: unknown): boolean => typeof v === 'string' || isInteger(v);
export const optId = (v: unknown): boolean => none(v) || isId(v);
export const isStatus = (v: unknown): boolean => STATUS_SET.has(v);
export const optStatus = (v: unknown): boolean => none(v) || STATUS_SET.has(v);
/** A reward: null is one of its values (`rewardValue.optional()`). */
export const isReward = (v: unknown): boolean => v === null || typeof v === 'number' || typeof v === 'boolean' || isPlainObject(v);
export const optReward = (v: unknown): boolean => v === undefined || isReward(v);
export const optObject = (v: unknown): boolean => none(v) || isPlainObject(v);
export const isPresent = (v: unknown): boolean => v !== undefined;
