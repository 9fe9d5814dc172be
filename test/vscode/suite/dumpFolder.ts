// A miles `--dump-details` folder (written by miles' own writer: rollout_data/*.pt, trajectory
// sidecars, train_data of two ranks) opened the way a user opens it: the run view on the folder
// counts its steps once, and a `.pt` sample of a dropped group opens in the sample view with its
// conversation from the trajectory sidecar and the member the sidecar lacks shown as missing.
// Screenshots of both under the code-server host (docs/ with ROLLOUT_LENS_UPDATE_SCREENSHOT=1).
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { api, screenshot, waitFor, wsUri } from './helpers';
import { test } from './runner';

const REPO = join(__dirname, '../../../..');

test('miles dump folder: the run view counts it once; a .pt sample shows its conversation', async () => {
  const a = await api();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const folder = wsUri('dump');
  cpSync(join(REPO, 'test/fixtures/pt/dumpdir'), folder.fsPath, { recursive: true });
  try {
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.commands.executeCommand('rolloutLens.inspect', folder);
    await vscode.commands.executeCommand('workbench.view.extension.rolloutLens');
    await waitFor(() => a.groups.roots.some((n) => n.kind === 'run' || n.id.includes('dump')), 'the Groups view on the dump folder');
    const opened = await vscode.commands.executeCommand<unknown>('rolloutLens.openRunView', folder);
    assert.ok(opened, 'the run view opened');
    const state = await waitFor(() => a.runView.state?.rendered && a.runView.state, 'the run view page to render its charts');
    // One miles run of two rollout steps and one eval step: the sidecars and train_data annotate,
    // never add. The workspace's settings (the example run's dynamic filter) drop step 2's two
    // zero-std groups, as `check --config examples/run/rollout-lens.yaml` does.
    assert.deepEqual(
      state.model.runs.map((r) => [r.framework, r.root]),
      [['miles', 'dump']],
      'one miles run, named relative to the workspace',
    );
    assert.deepEqual(
      state.model.steps.map((s) => [s.step, s.groups, s.dropped]),
      [
        [1, 6, 4],
        [2, 3, 2],
      ],
    );
    assert.deepEqual([...new Set(state.model.eval.map((e) => e.step))], [2]);
    // Its train_data is read (as check reads it): both steps', neither holding the trainer's log_probs.
    assert.deepEqual(
      state.model.runs.map((r) => r.mismatch),
      // No tokenizer set, none saved in the folder, no dashboard naming one: nothing to say of it.
      [{ steps: [], stepsWithoutLogProbs: [1, 2], drift: null, tokenizer: null, tokenizerProblem: null }],
    );
    await screenshot('dump-run-view.png');

    // Sample 7 of rollout_data/1.pt (line 7): group 1, dropped for sample 6's ServerUnreachable,
    // which the trajectory sidecar lacks.
    const dump = vscode.Uri.joinPath(folder, 'rollout_data', '1.pt');
    await vscode.commands.executeCommand('vscode.open', dump);
    const editor = await waitFor(
      () => vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'rollout-lens-pt' && e.document.uri.query === dump.toString()),
      'the JSON Lines view of the dump',
    );
    await vscode.commands.executeCommand('workbench.action.closeOtherEditors');
    await vscode.commands.executeCommand('rolloutLens.openSample', editor.document.uri, 6);
    const sample = await waitFor(() => a.samplePanel.state?.line === 6 && a.samplePanel.state, 'the sample panel on sample 7');
    assert.equal(sample.model.title, 'dump/rollout_data/1.pt · sample 7');
    assert.equal(sample.model.verdict?.kind === 'rollout' && sample.model.verdict.reason, 'group_has_aborted_ServerUnreachable');
    assert.ok(sample.model.conversation.length > 0, 'the conversation from trajectory/1.jsonl');
    // Sample 7 (index 6) is in train_data/1_0.pt, which has no log-probs: the section says so, no Δ.
    assert.deepEqual([sample.model.trainMismatch?.files, sample.model.trainMismatch?.hasTrainLogProbs], [['dump/train_data/1_0.pt'], false]);
    await waitFor(() => a.samplePanel.state?.rendered, 'the sample page to render');
    await screenshot('dump-sample-view.png');
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(folder.fsPath, { recursive: true, force: true });
  }
  assert.ok(!existsSync(folder.fsPath));
});
