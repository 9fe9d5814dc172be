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

test('untrusted workspace (limited support): analysis runs, but no quick fix is offered or applied', async () => {
  if (process.env.ROLLOUT_LENS_EXPECT_UNTRUSTED !== '1') return; // desktop runTests always disables trust
  assert.equal(vscode.workspace.isTrusted, false, 'restricted mode');
  const a = await api();
  const uri = wsUri('eval', 'eval_100.jsonl');
  await openLog('eval', 'eval_100.jsonl');
  const ds = await diagnostics(uri, (d) => d.some((x) => codeOf(x) === 'misgrouped-dataset'), 'the misgrouped-dataset diagnostic');
  const diag = ds.find((x) => codeOf(x) === 'misgrouped-dataset')!;
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
    'vscode.executeCodeActionProvider',
    uri,
    diag.range,
    vscode.CodeActionKind.QuickFix.value,
  );
  assert.deepEqual(
    actions.map((x) => x.title).filter((t) => t.includes('n_samples_per_eval_prompt')),
    [],
  );
  const item = await waitFor(() => a.datasets.find((n) => n.kind === 'finding' && n.label === 'misgrouped-dataset'), 'the finding item');
  const before = (await vscode.workspace.openTextDocument(wsUri('eval_config.yaml'))).getText();
  assert.equal(await vscode.commands.executeCommand('rolloutLens.applyFix', item, 'preferred'), undefined);
  assert.equal((await vscode.workspace.openTextDocument(wsUri('eval_config.yaml'))).getText(), before, 'eval_config.yaml unchanged');
});

export function run(): Promise<void> {
  return runAll('rollout-lens (installed .vsix)');
}
