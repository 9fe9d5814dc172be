// The run view follows its run in the real VS Code: a step file that appears in the run folder, then
// grows, then goes draws the panel again (the client's file watcher, debounced), each time with the
// time of its data; "Refresh Views" and the page's Refresh button draw it again; miles and verl
// steps are two runs; a finding's place opens its sample view (a metrics log's line opens the line).
import * as assert from 'node:assert/strict';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { RunView } from '../../../shared/runViewModel';
import { api, waitFor, wsUri } from './helpers';
import { test } from './runner';

interface Shown {
  model: RunView;
}

test('run view: a new step file, its growth and its removal draw it again; Refresh Views and Refresh too', async () => {
  const a = await api();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const opened = await vscode.commands.executeCommand<Shown>('rolloutLens.openRunView', wsUri());
  assert.ok(opened, 'the run view opened');
  const milesSteps = (m: RunView) => m.steps.filter((s) => m.runs[s.run].framework === 'miles').map((s) => s.step);
  assert.deepEqual(milesSteps(opened.model), [1, 2, 3]);
  assert.deepEqual(
    opened.model.runs.map((r) => r.framework),
    ['miles', 'verl'],
  );
  assert.equal(opened.model.runs[0].headline, 'step 1: 6 of 8 groups dropped: 2 infrastructure aborts, 1 policy abort, 1 unknown, 2 zero-std');
  assert.ok(opened.model.readAt, 'the time of its data');
  let redrawn = 0;
  const sub = a.runView.onDidRedraw(() => redrawn++);
  const step4 = wsUri('rollout', 'rollout_4.jsonl').fsPath;
  const lines = readFileSync(wsUri('rollout', 'rollout_2.jsonl').fsPath, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.stringify({ ...JSON.parse(l), rollout_id: 4 }));
  try {
    // A new step file: drawn again with step 4, and a later data time.
    writeFileSync(step4, lines.slice(0, 8).join('\n') + '\n');
    const appeared = await waitFor(() => a.runView.state && milesSteps(a.runView.state.model).includes(4) && a.runView.state, 'step 4 drawn');
    assert.ok(redrawn > 0);
    assert.ok(appeared.model.readAt! >= opened.model.readAt!);
    const samplesAt = (m: RunView) => m.steps.find((s) => s.step === 4 && m.runs[s.run].framework === 'miles')?.samples;
    assert.equal(samplesAt(appeared.model), 8);
    // The file grows: drawn again with its new samples.
    appendFileSync(step4, lines.slice(8).join('\n') + '\n');
    const grown = await waitFor(() => a.runView.state && samplesAt(a.runView.state.model) === lines.length && a.runView.state, 'step 4 drawn grown');
    assert.equal(grown.target.toString(), wsUri().toString());
    await waitFor(() => a.runView.state?.rendered, 'the redrawn page to render');
    // "Refresh Views" draws it again (nothing changed: the same model, a new page).
    const before = redrawn;
    await vscode.commands.executeCommand('rolloutLens.refresh');
    await waitFor(() => redrawn > before, 'Refresh Views to draw the run view again');
    // The page's Refresh button.
    const beforeButton = redrawn;
    await a.runView.receive({ type: 'refresh' });
    await waitFor(() => redrawn > beforeButton, 'Refresh to draw the run view again');
  } finally {
    rmSync(step4, { force: true });
  }
  // The file goes: drawn again without it.
  await waitFor(() => a.runView.state && !milesSteps(a.runView.state.model).includes(4), 'step 4 gone');
  sub.dispose();
});

test('run view: a finding’s place opens its sample view; a metrics log’s line opens the line', async () => {
  const a = await api();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const shown = await vscode.commands.executeCommand<Shown>('rolloutLens.openRunView', wsUri());
  assert.ok(shown);
  const rows = shown.model.findingRows;
  const dropped = rows.find((f) => f.code === 'group-dropped' && f.file.endsWith('rollout_1.jsonl'))!;
  assert.ok(dropped, JSON.stringify(rows.map((f) => f.code)));
  assert.match(dropped.message, /^group dropped: /);
  await a.runView.receive({ type: 'sample', source: dropped.source, line: dropped.line });
  const sample = await waitFor(() => a.samplePanel.state?.line === dropped.line - 1 && a.samplePanel.state, 'the sample view of the finding');
  assert.ok(sample.uri.fsPath.endsWith('rollout_1.jsonl'));
  const mismatch = rows.find((f) => f.code === 'metric-mismatch');
  assert.ok(mismatch, 'metric-mismatch is listed');
  assert.equal(mismatch.severity, 'warning');
  await a.runView.receive({ type: 'sample', source: mismatch.source, line: mismatch.line });
  await waitFor(() => vscode.window.activeTextEditor?.document.uri.fsPath.endsWith('metrics.jsonl'), 'metrics.jsonl opened at the line');
  assert.equal(vscode.window.activeTextEditor?.selection.active.line, mismatch.line - 1);
});
