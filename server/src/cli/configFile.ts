// `--config <file>`, and without it the run's own settings file: both read by the engine's one
// owner of settings files (core/locate/settingsFile.ts). Here only what is the CLI's: paths resolved
// against the working folder, and a bad file as a usage error naming it.
import { resolve } from 'node:path';

import type { RolloutLensSettings } from '../../../shared/protocol';
import { findSettingsFile, loadSettingsFile as loadFile, SettingsFileError } from '../core/locate/settingsFile';

import { UsageError } from './args';
import { cliFileAccess } from './fileAccess';

async function load(path: string, shownAs: string): Promise<Partial<RolloutLensSettings>> {
  try {
    const settings = await loadFile(resolve(path), cliFileAccess, process.cwd());
    if (settings.evalConfig) settings.evalConfig = resolve(settings.evalConfig);
    if (settings.tokenizer) settings.tokenizer = resolve(settings.tokenizer);
    return settings;
  } catch (err) {
    if (err instanceof SettingsFileError) throw new UsageError(`${shownAs}: ${err.reason}`);
    throw err;
  }
}

/** Reads and validates `--config`; a relative `evalConfig` or `tokenizer` resolves against the file's folder. */
export function loadSettingsFile(path: string): Promise<Partial<RolloutLensSettings>> {
  return load(path, `--config ${path}`);
}

/** The settings file nearest above `dir` (`rollout-lens.yaml`, `.yml` or `.json`), read; null when there is none. */
export async function findRunSettings(dir: string): Promise<{ path: string; settings: Partial<RolloutLensSettings> } | null> {
  const path = await findSettingsFile(resolve(dir), cliFileAccess);
  return path ? { path, settings: await load(path, path) } : null;
}
