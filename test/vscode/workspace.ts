// The workspace the extension tests open: a temporary copy of the example run (tests edit its
// eval config and settings), with `.vscode/settings.json` carrying the run's
// settings (`examples/run/rollout-lens.yaml`, the CLI's `--config`) as `rolloutLens.*`.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './harness';

export interface TestWorkspace {
  folder: string;
  dispose(): void;
}

export function prepareWorkspace(): TestWorkspace {
  const base = mkdtempSync(join(tmpdir(), 'rollout-lens-ws-'));
  const folder = join(base, 'run');
  cpSync(join(repoRoot, 'examples/run'), folder, { recursive: true });
  const runSettings = parse(readFileSync(join(folder, 'rollout-lens.yaml'), 'utf8')) ?? {};
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(runSettings)) settings[`rolloutLens.${key}`] = value;
  mkdirSync(join(folder, '.vscode'));
  writeFileSync(join(folder, '.vscode/settings.json'), JSON.stringify(settings, null, 2));
  return { folder, dispose: () => rmSync(base, { recursive: true, force: true }) };
}
