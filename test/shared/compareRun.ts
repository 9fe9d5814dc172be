// The runs the compare tests diff: the example miles run (examples/run, its rollout and eval
// JSON Lines) copied without its verl files and metrics log, and the edits that make a candidate
// differ from it by one thing.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from './repoRoot';

/** Copies the example miles run (rollout steps 1–3, eval step 100; its metrics log on request) to `dir`. */
export function copyMilesRun(dir: string, withMetricsLog = false): string {
  cpSync(join(repoRoot(), 'examples/run'), dir, { recursive: true });
  rmSync(join(dir, 'verl'), { recursive: true, force: true });
  if (!withMetricsLog) rmSync(join(dir, 'metrics.jsonl'), { force: true });
  return dir;
}

/** The sample the abort is injected into: rollout step 2, group 8 (rewards 1, 1, 0, 0: kept), index 34. */
export const INJECTED = { file: 'rollout/rollout_2.jsonl', line: 7 } as const;

function editLine(path: string, line: number, edit: (text: string) => string): void {
  const lines = readFileSync(path, 'utf8').split('\n');
  const before = lines[line - 1];
  lines[line - 1] = edit(before);
  assert.notEqual(lines[line - 1], before, `${path}:${line} did not change`);
  writeFileSync(path, lines.join('\n'));
}

/** One `SandboxUnavailable` abort in a kept group of step 2. */
export function injectSandboxAbort(run: string): void {
  editLine(join(run, INJECTED.file), INJECTED.line, (t) =>
    t.replace('"status": "completed"', '"status": "aborted"').replace('"exit_status": "Submitted"', '"exit_status": "SandboxUnavailable"'),
  );
}

const EVAL = 'eval/eval_100.jsonl';

/** Every aime attempt (lines 1–12 of the eval dump) scored 0.0: pass@k and score regress on every prompt. */
export function regressAime(run: string): void {
  for (const line of [1, 2, 8, 10]) editLine(join(run, EVAL), line, (t) => t.replace('"reward": 1.0', '"reward": 0.0'));
}

/** One gpqa attempt (line 14) scored 0.0 instead of 1.0: noise. */
export function flipOneGpqa(run: string): void {
  editLine(join(run, EVAL), 14, (t) => t.replace('"reward": 1.0', '"reward": 0.0'));
}

/** One gpqa attempt (line 13) without a reward: the dataset's denominator shrinks. */
export function dropOneGpqaReward(run: string): void {
  editLine(join(run, EVAL), 13, (t) => t.replace('"reward": 1.0', '"reward": null'));
}
