// The one schema of the run settings, field by field. The language server validates each field on
// its own (a bad value falls back to its default); the CLI's `--config` file is validated whole and
// strictly. Both read it from here, so the editor and CI accept exactly the same values.
import { z } from 'zod';
import type { RolloutLensSettings } from '../../../shared/protocol';

const jsonPointer = z.string().regex(/^(\/([^~/]|~[01])*)*$/, 'must be a JSON pointer such as /meta/group');
const nullableKey = z.string().min(1, 'must not be empty').nullable();
const sampleCount = z.number().int('must be a whole number').min(1, 'must be at least 1').nullable();

export const SETTINGS_FIELD_SCHEMAS: { [K in keyof RolloutLensSettings]: z.ZodType<RolloutLensSettings[K]> } = {
  rewardKey: nullableKey,
  evalRewardKey: nullableKey,
  nSamplesPerPrompt: sampleCount,
  nSamplesPerEvalPrompt: sampleCount,
  dynamicFilter: z.enum(['none', 'check_reward_nonzero_std']),
  framework: z.enum(['auto', 'miles', 'verl']),
  evalConfig: z.string().min(1, 'must not be empty').nullable(),
  infraCauses: z.array(z.string().min(1, 'must not be empty')),
  policyCauses: z.array(z.string().min(1, 'must not be empty')),
  fields: z
    .object({
      groupKey: jsonPointer,
      index: jsonPointer,
      status: jsonPointer,
      reward: jsonPointer,
      cause: jsonPointer,
      dataset: jsonPointer,
      prompt: jsonPointer,
      responseLength: jsonPointer,
    })
    .partial()
    .strict(),
  maxProblems: z.number().int('must be a whole number').min(1, 'must be at least 1').max(100_000, 'must be at most 100000'),
};

/** A settings file: any subset of the keys, nothing else. */
export const settingsFileSchema = z.object(SETTINGS_FIELD_SCHEMAS).partial().strict();
