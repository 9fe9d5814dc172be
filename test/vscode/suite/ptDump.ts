// A miles .pt dump opened the way a user opens any file (explorer, Quick Open: `vscode.open`)
// shows as its read-only JSON Lines view (docs/pt.md), with the findings of the dump, and no
// binary editor or placeholder tab is left behind.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { codeOf, waitFor, wsUri } from './helpers';
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
  await waitFor(
    () => !vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === 'rolloutLens.ptDump')),
    'the placeholder tab to close',
  );
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.workspace.fs.delete(vscode.Uri.joinPath(dump, '..'), { recursive: true });
});
