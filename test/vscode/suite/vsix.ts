// Runs with the packaged extension installed (not the repository under development): it must be
// the installed copy, activate on a JSON Lines log, start its bundled server and fill its views.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RolloutLensApi } from '../../../client/src/api';
import { EvalDatasetsRequest, type EvalDatasetsResult, GroupsByCauseRequest, type GroupsByCauseResult } from '../../../shared/protocol';
import { codeOf, diagnostics, openLog, quickFixes, wsUri, EXTENSION_ID } from './helpers';
import { runAll, test } from './runner';

test('the installed .vsix is the extension in use (not the repository)', () => {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, 'installed');
  assert.ok(!ext.extensionUri.fsPath.startsWith(process.env.ROLLOUT_LENS_REPO ?? '/nonexistent'), ext.extensionUri.fsPath);
  assert.match(ext.extensionUri.path, /\/rollout-lens\.rollout-lens-\d+\.\d+\.\d+\/?$/);
});

/** The installed package's exports: the public API only (client/src/api.ts). */
async function publicApi(): Promise<RolloutLensApi> {
  const ext = vscode.extensions.getExtension<RolloutLensApi>(EXTENSION_ID)!;
  const a = await ext.activate();
  await a.ready;
  return a;
}

test("activates on a .jsonl log; its bundled server publishes diagnostics and answers the views' requests", async () => {
  const uri = wsUri('rollout', 'rollout_1.jsonl');
  await openLog('rollout', 'rollout_1.jsonl');
  const a = await publicApi();
  assert.ok(vscode.extensions.getExtension(EXTENSION_ID)!.isActive);
  // An installed extension hands other extensions its public API, none of its own parts.
  assert.deepEqual(Object.keys(a).sort(), ['client', 'ready', 'refresh']);
  const ds = await diagnostics(uri, (d) => d.length >= 9, 'diagnostics from the packaged server');
  assert.ok(ds.some((d) => codeOf(d) === 'group-dropped'));
  // By method name: a RequestType object from another copy of the protocol library is not the
  // bundled client's (its parameter-structure check compares identities).
  const groups = await a.client()!.sendRequest<GroupsByCauseResult>(GroupsByCauseRequest.method, { uri: uri.toString() });
  const file = groups.files.find((f) => f.uri === uri.toString());
  assert.ok(file, "the log in the server's groups");
  assert.equal(file.dropped, 6);
  await a.refresh(); // the views' refresh is public and fills them from the packaged server
});

test('untrusted workspace (limited support): analysis runs, but no quick fix is offered or applied', async () => {
  if (process.env.ROLLOUT_LENS_EXPECT_UNTRUSTED !== '1') return; // desktop runTests always disables trust
  assert.equal(vscode.workspace.isTrusted, false, 'restricted mode');
  const a = await publicApi();
  const uri = wsUri('eval', 'eval_100.jsonl');
  await openLog('eval', 'eval_100.jsonl');
  const actions = await quickFixes(uri, (x) => codeOf(x) === 'misgrouped-dataset', 'the misgrouped-dataset diagnostic');
  assert.deepEqual(
    actions.map((x) => x.title).filter((t) => t.includes('n_samples_per_eval_prompt')),
    [],
  );
  // The Eval view's finding item carries this finding: applying its fix is refused too.
  const { datasets } = await a.client()!.sendRequest<EvalDatasetsResult>(EvalDatasetsRequest.method, { uri: uri.toString() });
  const owner = datasets.find((d) => d.findings.some((f) => f.code === 'misgrouped-dataset'))!;
  const finding = owner.findings.find((f) => f.code === 'misgrouped-dataset')!;
  assert.equal(finding.fixable, true, 'the finding has a fix, which restricted mode withholds');
  const before = (await vscode.workspace.openTextDocument(wsUri('eval_config.yaml'))).getText();
  const item = { uri: owner.uri, dataset: owner.name, ...finding };
  assert.equal(await vscode.commands.executeCommand('rolloutLens.applyFix', item, 'preferred'), undefined);
  assert.equal((await vscode.workspace.openTextDocument(wsUri('eval_config.yaml'))).getText(), before, 'eval_config.yaml unchanged');
});

export function run(): Promise<void> {
  return runAll('rollout-lens (installed .vsix)');
}
