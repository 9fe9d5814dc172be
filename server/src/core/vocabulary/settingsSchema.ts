// The one schema of the run settings, field by field. The language server validates each field on
// its own (a bad value falls back to its default); the CLI's `--config` file is validated whole and
// strictly. Both read it from here, so the editor and CI accept exactly the same values. Editors
// validate what a client sends with `validateSettings`: a bad value falls back to its default with
// a readable message, the good ones are kept.
import type { z as Z } from 'zod';

import { zod } from '../lazy/zod';
import { DEFAULT_SETTINGS, type RolloutLensSettings } from './settings';

type FieldSchemas = { [K in keyof RolloutLensSettings]: Z.ZodType<RolloutLensSettings[K]> };

function build(z: typeof Z) {
  const jsonPointer = z.string().regex(/^(\/([^~/]|~[01])*)*$/, 'must be a JSON pointer such as /meta/group');
  const nullableKey = z.string().min(1, 'must not be empty').nullable();
  const sampleCount = z.number().int('must be a whole number').min(1, 'must be at least 1').nullable();
  const fields: FieldSchemas = {
    rewardKey: nullableKey,
    evalRewardKey: nullableKey,
    nSamplesPerPrompt: sampleCount,
    nSamplesPerEvalPrompt: sampleCount,
    dynamicFilter: z.enum(['none', 'check_reward_nonzero_std']),
    framework: z.enum(['auto', 'miles', 'slime', 'verl']),
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
    tokenizer: z.string().min(1, 'must not be empty').nullable(),
    maxProblems: z.number().int('must be a whole number').min(1, 'must be at least 1').max(100_000, 'must be at most 100000'),
  };
  /** A settings file: any subset of the keys, nothing else. */
  const file = z.object(fields).partial().strict();
  return { fields, file };
}

// Built, and zod loaded, on first use (core/lazy/zod.ts says why).
let built: ReturnType<typeof build> | undefined;
const schemas = () => (built ??= build(zod()));

/** Each setting's schema. */
const settingsFieldSchemas = (): FieldSchemas => schemas().fields;

/** A settings file: any subset of the keys, nothing else. */
export const settingsFileSchema = () => schemas().file;

export interface ValidatedSettings {
  settings: RolloutLensSettings;
  /** One readable line per rejected field, e.g. `rolloutLens.maxProblems: must be at least 1 (got -3)`. */
  problems: string[];
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/**
 * Validates what the client sent for the section. Missing keys and `undefined` take defaults
 * silently (the user did not set them); present but invalid keys take defaults and are reported.
 */
export function validateSettings(raw: unknown): ValidatedSettings {
  const settings: RolloutLensSettings = { ...DEFAULT_SETTINGS, fields: { ...DEFAULT_SETTINGS.fields } };
  const problems: string[] = [];
  if (raw === null || raw === undefined) return { settings, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { settings, problems: [`rolloutLens: expected an object of settings, got ${describe(raw)}; using defaults`] };
  }
  const input = raw as Record<string, unknown>;
  const fieldSchemas = settingsFieldSchemas();
  for (const key of Object.keys(fieldSchemas) as (keyof RolloutLensSettings)[]) {
    if (input[key] === undefined) continue;
    const result = fieldSchemas[key].safeParse(input[key]);
    if (result.success) {
      (settings as unknown as Record<string, unknown>)[key] = result.data;
    } else {
      const why = result.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
      problems.push(`rolloutLens.${key}: ${why} (got ${describe(input[key])}); using the default ${describe(DEFAULT_SETTINGS[key])}`);
    }
  }
  return { settings, problems };
}
