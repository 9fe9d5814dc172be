// zod schemas of each format's record, over the scanner's output (built scalars; `Skipped` for
// values that were validated but not built). Only the fields the analysis reads are checked;
// unknown fields pass. Python's NaN/Infinity are numbers here (zod's `number()` rejects them).
// `fastValidate.ts` checks the same rules by hand before zod runs: change both together
// (`test/unit/formats/fastPath.test.ts` compares them). The schemas are built, and zod loaded,
// the first time a record fails that check (core/lazyZod.ts says why).
import type { z as Z } from 'zod';

import { zod } from '../lazyZod';
import { Skipped } from '../reader/jsonRule';

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

  const opt = <T extends Z.ZodType>(t: T) => t.nullable().optional();

  /** `metadata`: a plain object (not an array or a skipped value) with these optional fields. */
  const metadataSchema = plainObject.pipe(
    z.object({
      exit_status: opt(text),
      dataset: opt(text),
      dataset_name: opt(text),
      instance_id: opt(idValue),
    }),
  );

  const milesSampleSchema = z.object({
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

  const milesTrajectorySchema = z.object({
    sample_index: integer,
    group_index: opt(integer),
    status: opt(status),
    reward: rewardValue.optional(),
    dataset: opt(text),
    data_source: opt(text),
    metadata: opt(metadataSchema),
  });

  const milesTrialsSchema = z.object({
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

  const milesMetricsSchema = z.object({
    step: opt(anyNumber),
    step_key: opt(text),
    metrics: plainObject,
  });

  const verlSchema = z.object({
    input: z.unknown().refine((v) => v !== undefined, { error: 'missing' }),
    output: anyString,
    score: opt(anyNumber),
    reward: opt(anyNumber),
    step: opt(anyNumber),
    uid: opt(idValue),
    data_source: opt(text),
  });

  /** The generic format's mapped fields, gathered into one object before validation. */
  const genericSchema = z.object({
    groupKey: idValue,
    index: opt(integer),
    status: opt(status),
    reward: rewardValue.optional(),
    cause: opt(text),
    dataset: opt(text),
    responseLength: opt(integer),
  });
  return { milesSampleSchema, milesTrajectorySchema, milesTrialsSchema, milesMetricsSchema, verlSchema, genericSchema };
}

let built: ReturnType<typeof build> | undefined;
const schemas = () => (built ??= build(zod()));

export const milesSampleSchema = () => schemas().milesSampleSchema;
export const milesTrajectorySchema = () => schemas().milesTrajectorySchema;
export const milesTrialsSchema = () => schemas().milesTrialsSchema;
export const milesMetricsSchema = () => schemas().milesMetricsSchema;
export const verlSchema = () => schemas().verlSchema;
export const genericSchema = () => schemas().genericSchema;
