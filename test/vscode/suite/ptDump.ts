// A miles .pt dump opened the way a user opens any file (explorer, Quick Open: `vscode.open`)
// shows as its read-only JSON Lines view (docs/pt.md), with the findings of the dump, and no
// binary editor or placeholder tab is left behind.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { api, codeOf, hoverText, waitFor, wsUri } from './helpers';
import { test } from './runner';

const REPO = join(__dirname, '../../../..');

test('opening a .pt dump shows its samples as a read-only JSON Lines view with its findings', async () => {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const dump = wsUri('rollout_data', '1.pt');
  await vscode.workspace.fs.copy(vscode.Uri.file(join(REPO, 'test/fixtures/pt/run/rollout_data/1.pt')), dump, { overwrite: true });
  await vscode.commands.executeCommand('vscode.open', dump);
  const editor = await waitFor(
    () => vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'rollout-lens-pt' && e.document.uri.query === dump.toString()),
    'the JSON Lines view of the dump',
  );
  const doc = editor.document;
  assert.equal(doc.languageId, 'jsonl');
  assert.ok(doc.lineCount >= 2, `${doc.lineCount} lines`);
  const first = JSON.parse(doc.lineAt(0).text) as Record<string, unknown>;
  assert.ok('status' in first && 'reward' in first, `keys: ${Object.keys(first).join(', ')}`);
  const diags = await waitFor(() => {
    const d = vscode.languages.getDiagnostics(doc.uri);
    return d.some((x) => codeOf(x) === 'group-dropped') ? d : undefined;
  }, "the dump's group-dropped findings");
  assert.ok(diags.every((d) => d.range.start.line < doc.lineCount));
  // Sample 6 (aborted, ServerUnreachable) is read from the dump itself: hover and sample view.
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(5, 2));
  const hover = hoverText(hovers);
  assert.match(hover, /ServerUnreachable/);
  assert.doesNotMatch(hover, /unavailable/);
  const a = await api();
  await vscode.commands.executeCommand('rolloutLens.openSample', doc.uri, 5);
  const state = await waitFor(() => a.samplePanel.state?.line === 5 && a.samplePanel.state, 'the sample panel on sample 6');
  assert.equal(state.model.title, 'rollout_data/1.pt · sample 6');
  assert.equal(state.model.unavailable, null);
  assert.equal(state.model.response?.text, 'answer 5');
  assert.deepEqual(
    state.model.prompt.map((m) => m.content?.text),
    ['Solve problem 1: 2 + 1 = ?'],
  );
  assert.ok(!state.html.includes('rollout-lens-pt') && !state.html.includes('%3A'), 'no internal URI in the page');
  await waitFor(() => a.samplePanel.state?.rendered, 'the sample page to render');
  await waitFor(
    () => !vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === 'rolloutLens.ptDump')),
    'the placeholder tab to close',
  );
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.workspace.fs.delete(vscode.Uri.joinPath(dump, '..'), { recursive: true });
});
