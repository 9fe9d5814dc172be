// Real VS Code (code-server 1.139 here, desktop VS Code where it can be downloaded): the
// extension's suites run in the extension host through @vscode/test-electron's runTests.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot, runSuite } from './harness';
import { prepareWorkspace } from './workspace';
import { checkRun, findingLines } from '../shared/checkRun';
import { EVAL_EDIT, findingsAfterEdit } from '../shared/exampleRun';

test('real VS Code: diagnostics, hover, quick fix, views, status bar and huge logs on the example run', { timeout: 900_000 }, async () => {
  const ws = prepareWorkspace();
  const shots = join(repoRoot, 'test/.tmp');
  mkdirSync(shots, { recursive: true });
  process.env.ROLLOUT_LENS_REPO = repoRoot;
  // What suite/runLevel.ts must show on metrics.jsonl: check's findings before and after its edit.
  const metrics = join(ws.folder, 'metrics.jsonl');
  const scratch = mkdtempSync(join(tmpdir(), 'rollout-lens-edited-'));
  try {
    const expected = findingLines(checkRun(ws.folder), metrics);
    const after = findingsAfterEdit(ws.folder, join(scratch, 'run'), metrics);
    process.env.ROLLOUT_LENS_RUN_METRICS = JSON.stringify({ expected, after, edit: EVAL_EDIT });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  process.env.ROLLOUT_LENS_SCREENSHOT =
    process.env.ROLLOUT_LENS_UPDATE_SCREENSHOT === '1' ? join(repoRoot, 'docs/screenshot.png') : join(shots, 'screenshot.png');
  try {
    assert.equal(await runSuite({ suite: 'dev', folder: ws.folder }), 0);
  } finally {
    ws.dispose();
  }
});
