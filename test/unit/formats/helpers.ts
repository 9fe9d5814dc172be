// Scans fixture files (or text written to a temp file) through the real engine entry `scanFile`,
// or, for the differential tests, through `scanLineFile` with the reference paths asked for.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { scanFile } from '../../../server/src/core/engine';
import type { ReferencePaths } from '../../../server/src/core/formats/referencePaths';
import { scanLineFile } from '../../../server/src/core/scan/lineFileScan';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { tempDir as sharedTempDir, type AfterHook } from '../../shared/tempDir';

export const FIXTURES = join(__dirname, '../../../../test/fixtures/formats');

export function settings(over: Partial<RolloutLensSettings> = {}): RolloutLensSettings {
  return { ...DEFAULT_SETTINGS, ...over };
}

export async function scanPath(path: string, over: Partial<RolloutLensSettings> = {}, reference?: ReferencePaths) {
  const options = { access: nodeFileAccess, settings: settings(over) };
  return reference === undefined ? scanFile({ path, displayPath: path }, options) : scanLineFile({ path, displayPath: path }, options, undefined, reference);
}

export function fixture(name: string): string {
  return join(FIXTURES, name);
}

export const tempDir = (t: AfterHook): string => sharedTempDir(t, 'rl-formats-');

/** Writes `lines` (joined by \n, with a final \n) to `dir/rel`. */
export function writeLines(dir: string, rel: string, lines: string[]): string {
  const path = join(dir, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.map((l) => `${l}\n`).join(''));
  return path;
}

export function copyFixture(dir: string, name: string, rel: string): string {
  const path = join(dir, rel);
  mkdirSync(dirname(path), { recursive: true });
  copyFileSync(fixture(name), path);
  return path;
}
