// Real VS Code (code-server 1.139 here, desktop VS Code where it can be downloaded): the
// extension's suites run in the extension host through @vscode/test-electron's runTests.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot, runSuite } from './harness';
import { prepareWorkspace } from './workspace';

test('real VS Code: diagnostics, hover, quick fix, views, status bar and huge logs on the example run', { timeout: 900_000 }, async () => {
  const ws = prepareWorkspace();
  const shots = join(repoRoot, 'test/.tmp');
  mkdirSync(shots, { recursive: true });
  process.env.ROLLOUT_LENS_REPO = repoRoot;
  process.env.ROLLOUT_LENS_SCREENSHOT =
    process.env.ROLLOUT_LENS_UPDATE_SCREENSHOT === '1' ? join(repoRoot, 'docs/screenshot.png') : join(shots, 'screenshot.png');
  try {
    assert.equal(await runSuite({ suite: 'dev', folder: ws.folder }), 0);
  } finally {
    ws.dispose();
  }
});
