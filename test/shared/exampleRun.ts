// The example run (examples/run) copied for an editor test, and the edit the run-level tests make
// to its eval dump: check's findings for the copy, before and after that edit, are what every
// editor must show on the run's metrics log (docs/editors.md#run-level-findings).
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './repoRoot';
import { checkRun, findingLines } from './checkRun';

/** The eval dump's line (1-based) that the edit changes, and how: one gpqa attempt scored 1.0 instead of 0.0. */
export const EVAL_EDIT = { file: 'eval/eval_100.jsonl', line: 15, from: '"reward": 0.0', to: '"reward": 1.0' } as const;

/** The rollout settings of examples/run/rollout-lens.yaml, as a client sends them. */
export const EXAMPLE_ROLLOUT_SETTINGS = { nSamplesPerPrompt: 4, dynamicFilter: 'check_reward_nonzero_std' } as const;

/** The example run's rollout step files. */
export const EXAMPLE_ROLLOUT = join(repoRoot(), 'examples/run/rollout');

export function copyExampleRun(dir: string): string {
  cpSync(join(repoRoot(), 'examples/run'), dir, { recursive: true });
  return dir;
}

export function editedEvalDump(text: string): string {
  const lines = text.split('\n');
  const line = lines[EVAL_EDIT.line - 1];
  assert.ok(line.includes(EVAL_EDIT.from), `line ${EVAL_EDIT.line} of the eval dump changed: ${line.slice(0, 80)}`);
  lines[EVAL_EDIT.line - 1] = line.replace(EVAL_EDIT.from, EVAL_EDIT.to);
  return lines.join('\n');
}

/**
 * check's findings for `file` (a path inside `run`) on a copy of `run` made in `scratch` with the
 * eval dump edited (and `alsoEdit` applied to the copy), named as in `run`.
 */
export function findingsAfterEdit(run: string, scratch: string, file: string, alsoEdit?: (copy: string) => void): string[] {
  cpSync(run, scratch, { recursive: true });
  const dump = join(scratch, EVAL_EDIT.file);
  writeFileSync(dump, editedEvalDump(readFileSync(dump, 'utf8')));
  alsoEdit?.(scratch);
  const inCopy = join(scratch, file.slice(run.length));
  return findingLines(checkRun(scratch), inCopy).map((l) => l.split(scratch).join(run));
}
