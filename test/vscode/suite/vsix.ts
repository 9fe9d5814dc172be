// Runs with the packaged extension installed (not the repository under development): it must be
// the installed copy, activate on a JSON Lines log, start its bundled server and fill its views.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, codeOf, diagnostics, openLog, waitFor, wsUri, EXTENSION_ID } from './helpers';
import { runAll, test } from './runner';

test('the installed .vsix is the extension in use (not the repository)', () => {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, 'installed');
  assert.ok(!ext.extensionUri.fsPath.startsWith(process.env.ROLLOUT_LENS_REPO ?? '/nonexistent'), ext.extensionUri.fsPath);
  assert.match(ext.extensionUri.path, /\/rollout-lens\.rollout-lens-\d+\.\d+\.\d+\/?$/);
});

test('activates on a .jsonl log; its bundled server publishes diagnostics; views and status bar fill', async () => {
  const uri = wsUri('rollout', 'rollout_1.jsonl');
  await openLog('rollout', 'rollout_1.jsonl');
  const a = await api();
  assert.ok(vscode.extensions.getExtension(EXTENSION_ID)!.isActive);
  const ds = await diagnostics(uri, (d) => d.length >= 9, 'diagnostics from the packaged server');
  assert.ok(ds.some((d) => codeOf(d) === 'group-dropped'));
  await waitFor(() => a.groups.roots[0]?.kind === 'dropped', 'the groups view');
  assert.equal(a.groups.roots[0].description, '6 groups');
  const status = await waitFor(() => a.statusText(), 'the status bar');
  assert.equal(status, '$(filter) 6 groups dropped · 6 causes');
});

export function run(): Promise<void> {
  return runAll('rollout-lens (installed .vsix)');
}
