// Plain-JS checks of exactly the rules in `schemas.ts`, run before zod: zod's cost per record
// (BENCHMARKS.md, "Design measurements") dominates `check` on files of many short lines. The schemas have no transforms or defaults
// (every check is a `custom`/enum/object whose output values are the input's), so a record that
// passes here normalises from its own fields exactly as from zod's output. A record that fails here
// goes to zod's `safeParse`, which stays the one source of `invalid-record` messages. These checks
// may be stricter than zod (then zod decides), never looser: `fastPath.test.ts` compares both paths.
import type { z } from 'zod';

import { Skipped } from '../reader/jsonRule';

import { isPlainObject, SAMPLE_STATUSES } from './schemas';

type Obj = Record<string, unknown>;

const STATUS_SET: ReadonlySet<unknown> = new Set<string>(SAMPLE_STATUSES);

// `opt(x)` in the schemas is `x.nullable().optional()`: missing (undefined) and null pass.
const none = (v: unknown): boolean => v === undefined || v === null;
const isInteger = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v);
const optInteger = (v: unknown): boolean => none(v) || isInteger(v);
const optText = (v: unknown): boolean => none(v) || typeof v === 'string';
const optNumber = (v: unknown): boolean => none(v) || typeof v === 'number';
const isId = (v: unknown): boolean => typeof v === 'string' || isInteger(v);
const optId = (v: unknown): boolean => none(v) || isId(v);
const optStatus = (v: unknown): boolean => none(v) || STATUS_SET.has(v);
/** `rewardValue.optional()`: missing, null, any number, a boolean, or a plain object. */
const optReward = (v: unknown): boolean => none(v) || typeof v === 'number' || typeof v === 'boolean' || isPlainObject(v);

/** `opt(metadataSchema)`. */
function optMetadata(v: unknown): boolean {
  if (none(v)) return true;
  if (!isPlainObject(v)) return false;
  return optText(v.exit_status) && optText(v.dataset) && optText(v.dataset_name) && optId(v.instance_id);
}

export function fastMilesSample(o: Obj): boolean {
  return (
    optInteger(o.group_index) &&
    optInteger(o.index) &&
    optInteger(o.rollout_id) &&
    optStatus(o.status) &&
    optReward(o.reward) &&
    optInteger(o.response_length) &&
    optText(o.dataset) &&
    optText(o.data_source) &&
    optMetadata(o.metadata)
  );
}

export function fastMilesTrajectory(o: Obj): boolean {
  return (
    isInteger(o.sample_index) &&
    optInteger(o.group_index) &&
    optStatus(o.status) &&
    optReward(o.reward) &&
    optText(o.dataset) &&
    optText(o.data_source) &&
    optMetadata(o.metadata)
  );
}

export function fastMilesTrials(o: Obj): boolean {
  return (
    isId(o.instance_id) &&
    optInteger(o.trial_idx) &&
    optInteger(o.status_code) &&
    optNumber(o.elapsed_sec) &&
    optReward(o.reward) &&
    optText(o.exit_status) &&
    optText(o.dataset) &&
    optText(o.data_source) &&
    optMetadata(o.metadata)
  );
}

export function fastMilesMetrics(o: Obj): boolean {
  return optNumber(o.step) && optText(o.step_key) && isPlainObject(o.metrics);
}

export function fastVerl(o: Obj): boolean {
  const output = o.output;
  return (
    o.input !== undefined &&
    (typeof output === 'string' || (output instanceof Skipped && output.kind === 'string')) &&
    optNumber(o.score) &&
    optNumber(o.reward) &&
    optNumber(o.step) &&
    optId(o.uid) &&
    optText(o.data_source)
  );
}

/** `genericSchema`, over the mapped fields gathered into one object. */
export function fastGeneric(v: Obj): boolean {
  return (
    isId(v.groupKey) &&
    optInteger(v.index) &&
    optStatus(v.status) &&
    optReward(v.reward) &&
    optText(v.cause) &&
    optText(v.dataset) &&
    optInteger(v.responseLength)
  );
}

/** `schema().safeParse(o)`, skipped when `fast(o)` vouches for the record (then the data is `o`; zod is not loaded). */
export function validate<S extends z.ZodType>(schema: () => S, fast: (o: Obj) => boolean, o: Obj, zodOnly = false): z.ZodSafeParseResult<z.output<S>> {
  if (!zodOnly && fast(o)) return { success: true, data: o as z.output<S> };
  return schema().safeParse(o);
}
