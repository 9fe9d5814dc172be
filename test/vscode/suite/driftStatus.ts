// A run whose train–inference mismatch drifts (test/fixtures/real/miles/drift, miles' own writers;
// the trainer's log-probs noisier from step 6 on), with the tokenizer miles saves in its dump folder
// (D/tokenizer/, here a subset of Qwen3's real tokenizer.json): the run status item names the drift
// step, a click opens the run view at that step with its worst tokens' text, and a worst token's
// place opens its sample's view.
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { api, unescapeMarkdown, waitFor, wsUri } from './helpers';
import { test } from './runner';

const REPO = join(__dirname, '../../../..');

test('the run status names the drift step; a click opens the run view there, a worst token its sample', async () => {
  const a = await api();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const folder = wsUri('drift');
  cpSync(join(REPO, 'test/fixtures/real/miles/drift'), folder.fsPath, { recursive: true });
  mkdirSync(join(folder.fsPath, 'tokenizer'));
  cpSync(join(REPO, 'test/fixtures/real/tokenizers/qwen3/tokenizer.json'), join(folder.fsPath, 'tokenizer', 'tokenizer.json'));
  try {
    await vscode.commands.executeCommand('rolloutLens.inspect', folder);
    const text = await waitFor(() => (a.runStatus.text?.endsWith(' · drift from step 6') ? a.runStatus.text : undefined), 'the run status naming the drift');
    assert.match(text, /^\$\(graph\) run: .+ · drift from step 6$/);
    assert.equal(a.runStatus.status?.drift?.step, 6);
    const tip = unescapeMarkdown((a.runStatus.tooltip as vscode.MarkdownString).value);
    assert.ok(tip.includes(`**Log-prob drift:** ${a.runStatus.status?.drift?.message.slice(0, 60)}`), tip);
    assert.match(tip, /Click to open the run view at step 6\.$/);

    // The click: the run view of the run, at step 6's mismatch.
    const command = a.runStatus.command;
    assert.equal(command?.command, 'rolloutLens.openRunView');
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    const state = await waitFor(() => a.runView.state?.rendered && a.runView.state, 'the run view page to render');
    assert.equal(state.target.toString(), folder.toString());
    assert.equal(state.model.focusMismatchStep, 6);
    const m = state.model.runs.find((r) => r.mismatch !== null)?.mismatch;
    assert.equal(m?.drift?.step, 6);
    assert.deepEqual([m?.tokenizer?.from, m?.tokenizer?.file], ['dump', 'drift/tokenizer/tokenizer.json']);
    const at6 = m!.steps.find((s) => s.step === 6)!;
    assert.ok(at6.worstTokens.length > 0 && at6.worstTokens.every((t) => typeof t.text === 'string' && t.text !== ''), 'the worst tokens have their text');

    // A redraw (the page's Refresh; the inspection's own results arrive the same way) stays at step 6.
    let redrawn = 0;
    const sub = a.runView.onDidRedraw(() => redrawn++);
    await a.runView.receive({ type: 'refresh' });
    await waitFor(() => redrawn > 0, 'Refresh to draw the run view again');
    sub.dispose();
    assert.equal(a.runView.state?.model.focusMismatchStep, 6);

    // A worst token's place, as the page sends it: its sample's view, where the same token has the same text.
    const w = at6.worstTokens[0];
    const line = w.line;
    assert.ok(w.source !== null && line !== null);
    await a.runView.receive({ type: 'sample', source: w.source, line });
    const sample = await waitFor(() => a.samplePanel.state?.line === line - 1 && a.samplePanel.state, `the sample view of line ${line}`);
    assert.equal(sample.model.index, w.sample);
    assert.equal(sample.model.trainMismatch?.tokenTexts?.[w.position], w.text);
    assert.equal(sample.model.trainMismatch?.tokenizer?.from, 'dump');
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('rolloutLens.followActiveEditor');
    rmSync(folder.fsPath, { recursive: true, force: true });
  }
  assert.ok(!existsSync(folder.fsPath));
});
