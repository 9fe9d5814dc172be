// zod schemas of each format's record, over the scanner's output (built scalars; `Skipped` for
// values that were validated but not built). Only the fields the analysis reads are checked;
// unknown fields pass. Python's NaN/Infinity are numbers here (zod's `number()` rejects them).
// `fastValidate.ts` checks the same rules by hand before zod runs: change both together
// (`test/unit/formats/fastPath.test.ts` compares them).
import { z } from 'zod';

import { Skipped } from '../reader/jsonRule';

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Skipped);
}

/** Any JSON number, NaN and ±Infinity included. */
export const anyNumber = z.custom<number>((v) => typeof v === 'number', { error: 'expected a number' });
/** An integer literal of any size (group keys beyond 2^53 are kept by their text). */
export const integer = z.custom<number>((v) => typeof v === 'number' && Number.isInteger(v), { error: 'expected an integer' });
export const text = z.custom<string>((v) => typeof v === 'string', { error: 'expected a string (up to 1024 bytes)' });
/** A string of any length (long ones are skipped, not built). */
export const anyString = z.custom<string | Skipped>((v) => typeof v === 'string' || (v instanceof Skipped && v.kind === 'string'), {
  error: 'expected a string',
});
export const idValue = z.custom<string | number>((v) => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)), {
  error: 'expected a string or an integer',
});
/** A reward (docs/semantics.md#reward-value): a number, an object of named rewards, or null. */
export const rewardValue = z.custom<number | Record<string, unknown> | null>((v) => v === null || typeof v === 'number' || isPlainObject(v), {
  error: 'expected a number, an object of named rewards, or null',
});
export const plainObject = z.custom<Record<string, unknown>>(isPlainObject, { error: 'expected an object' });

export const STATUSES = ['pending', 'completed', 'truncated', 'aborted', 'failed'] as const;
const status = z.enum(STATUSES, { error: `expected one of ${STATUSES.join(', ')}` });

const opt = <T extends z.ZodType>(t: T) => t.nullable().optional();

/** `metadata`: a plain object (not an array or a skipped value) with these optional fields. */
export const metadataSchema = plainObject.pipe(
  z.object({
    exit_status: opt(text),
    dataset: opt(text),
    dataset_name: opt(text),
    instance_id: opt(idValue),
  }),
);

export const milesSampleSchema = z.object({
  group_index: opt(integer),
  index: opt(integer),
  rollout_id: opt(integer),
  status: opt(status),
  reward: rewardValue.optional(),
  response_length: opt(integer),
  dataset: opt(text),
  data_source: opt(text),
  metadata: opt(metadataSchema),
});

export const milesTrajectorySchema = z.object({
  sample_index: integer,
  group_index: opt(integer),
  status: opt(status),
  reward: rewardValue.optional(),
  dataset: opt(text),
  data_source: opt(text),
  metadata: opt(metadataSchema),
});

export const milesTrialsSchema = z.object({
  instance_id: idValue,
  trial_idx: opt(integer),
  status_code: opt(integer),
  elapsed_sec: opt(anyNumber),
  reward: rewardValue.optional(),
  exit_status: opt(text),
  dataset: opt(text),
  data_source: opt(text),
  metadata: opt(metadataSchema),
});

export const milesMetricsSchema = z.object({
  step: opt(anyNumber),
  step_key: opt(text),
  metrics: plainObject,
});

export const verlSchema = z.object({
  input: z.unknown().refine((v) => v !== undefined, { error: 'missing' }),
  output: anyString,
  score: opt(anyNumber),
  reward: opt(anyNumber),
  step: opt(anyNumber),
  uid: opt(idValue),
  data_source: opt(text),
});

/** The generic format's mapped fields, gathered into one object before validation. */
export const genericSchema = z.object({
  groupKey: idValue,
  index: opt(integer),
  status: opt(status),
  reward: rewardValue.optional(),
  cause: opt(text),
  dataset: opt(text),
  responseLength: opt(integer),
});
