// `--config <file>`: run settings in JSON or YAML with the editor settings' keys (`rewardKey`, or
// `rolloutLens.rewardKey`, or nested under `rolloutLens:`). Validated strictly: an unknown key or a
// wrong type is a usage error with the file, the key and what was expected.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';

import { parse as parseYaml } from 'yaml';
import { type z } from 'zod';

import type { RolloutLensSettings } from '../../../shared/protocol';
import { settingsFileSchema } from '../core/settingsSchema';

import { UsageError } from './args';

const PREFIX = 'rolloutLens.';

/** Accepts plain keys, `rolloutLens.`-prefixed keys (as in settings.json), or a `rolloutLens` mapping. */
function unwrap(doc: unknown): unknown {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return doc;
  const obj = doc as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 1 && keys[0] === 'rolloutLens') return obj.rolloutLens;
  const out: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(obj)) out[k.startsWith(PREFIX) ? k.slice(PREFIX.length) : k] = value;
  return out;
}

function issueText(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.join('.') : '(top level)';
  if (issue.code === 'unrecognized_keys')
    return `unknown setting${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}${where === '(top level)' ? '' : ` in ${where}`}`;
  return `${where}: ${issue.message.replace(/^Invalid input: /, '').replace(/^Invalid option: /, '')}`;
}

/** Reads and validates a settings file; relative `evalConfig` resolves against the file's folder. */
export async function loadSettingsFile(path: string): Promise<Partial<RolloutLensSettings>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`--config ${path}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let doc: unknown;
  try {
    // YAML is a superset of JSON, so one parser reads both.
    doc = text.trim() === '' ? {} : parseYaml(text);
  } catch (err) {
    throw new UsageError(`--config ${path}: not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  if (doc === null || doc === undefined) doc = {};
  const parsed = settingsFileSchema.safeParse(unwrap(doc));
  if (!parsed.success) {
    throw new UsageError(`--config ${path}: ${parsed.error.issues.slice(0, 5).map(issueText).join('; ')}`);
  }
  const settings = parsed.data as Partial<RolloutLensSettings>;
  if (settings.evalConfig && !isAbsolute(settings.evalConfig)) {
    const besideConfig = resolve(dirname(path), settings.evalConfig);
    // Relative to the config file (like tsconfig paths); a path relative to the working folder is accepted too.
    settings.evalConfig = existsSync(besideConfig) || !existsSync(settings.evalConfig) ? besideConfig : settings.evalConfig;
  }
  return settings;
}
