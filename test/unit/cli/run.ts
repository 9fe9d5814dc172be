// Runs the built CLI bundle (`dist/cli.js`, built by `npm test` before the tests) as a child process.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir as sharedTempDir, type AfterHook } from '../../shared/tempDir';

export const CLI = join(__dirname, '../../../../dist/cli.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], cwd?: string): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export const tempDir = (t: AfterHook): string => sharedTempDir(t, 'rl-cli-');

export const GOOD =
  '{"group_index": 0, "index": 0, "prompt": "p", "tokens": [1], "response": "r", "response_length": 1, "status": "completed", "reward": 1.0, "metadata": {"exit_status": "Submitted"}}';
export const GOOD2 =
  '{"group_index": 0, "index": 1, "prompt": "p", "tokens": [1], "response": "s", "response_length": 1, "status": "completed", "reward": 0.0, "metadata": {"exit_status": "Submitted"}}';
