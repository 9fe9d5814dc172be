// The runs the compare tests diff: the example miles run (examples/run, its rollout and eval
// JSON Lines) copied without its verl files and metrics log, and the edits that make a candidate
// differ from it by one thing; and a hostile pair (markup and a bidi override in a cause, a dataset
// name and a folder name).
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** Log text of a hostile pair of runs: a cause, a dataset name and a candidate folder name that hold markup and a bidi override. */
export const HOSTILE = {
  cause: '<script>window.__pwned=1</script>Sandbox',
  dataset: 'ds</script><b id=injected>x</b>',
  folder: 'c<b id=injected>\u202Eldnuj',
};

/** A step of 2 groups of 4 (one with an abort of a hostile cause when `abort`) and an eval of a hostile dataset. */
export function hostileRun(dir: string, abort: boolean): void {
  const lines: object[] = [];
  for (let g = 0; g < 2; g++) {
    for (let i = 0; i < 4; i++) {
      const aborted = abort && g === 0 && i === 1;
      lines.push({
        group_index: g,
        index: g * 4 + i,
        rollout_id: 5,
        prompt: `p${g}`,
        response: 'r',
        response_length: 3,
        reward: aborted ? null : i % 2,
        status: aborted ? 'aborted' : 'completed',
        metadata: aborted ? { exit_status: HOSTILE.cause } : {},
      });
    }
  }
  mkdirSync(join(dir, 'rollout'), { recursive: true });
  writeFileSync(join(dir, 'rollout', 'rollout_5.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const evalLines = [0, 1, 2, 3].map((i) => ({
    index: i,
    rollout_id: 5,
    prompt: 'q',
    response: 'a',
    reward: abort ? 0 : i % 2,
    status: 'completed',
    metadata: { dataset_name: HOSTILE.dataset },
  }));
  mkdirSync(join(dir, 'eval'), { recursive: true });
  writeFileSync(join(dir, 'eval', 'eval_5.jsonl'), evalLines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  writeFileSync(join(dir, 'rollout-lens.yaml'), 'nSamplesPerPrompt: 4\nnSamplesPerEvalPrompt: 2\n');
}
