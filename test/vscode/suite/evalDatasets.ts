// The example run's eval dump (examples/run/eval/eval_100.jsonl with eval_config.yaml and the
// global --n-samples-per-eval-prompt 2) in the real VS Code: the Eval datasets view, the quick
// fixes through vscode.executeCodeActionProvider, one applied from the view's item (it edits
// eval_config.yaml), one through the client command (it sets rolloutLens.nSamplesPerEvalPrompt).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FindingData } from '../../../client/src/datasetsTree';
import type { TreeNode } from '../../../client/src/treeNodes';
import { api, codeOf, diagnostics, openLog, quickFixes, waitFor, wsUri } from './helpers';
import { test } from './runner';

const EVAL = ['eval', 'eval_100.jsonl'];
const child = (n: TreeNode, label: string) => n.children.find((c) => c.label === label);

test("Eval datasets view: score, none ratio, pass@k by the dataset's own n and by the global n (docs/semantics.md#eval-metrics, #known-framework-bugs)", async () => {
  const a = await api();
  await vscode.commands.executeCommand('rolloutLens.followActiveEditor');
  await openLog(...EVAL);
  const roots = await waitFor(() => (a.datasets.roots.length === 3 ? a.datasets.roots : undefined), 'three datasets');
  assert.deepEqual(
    roots.map((n) => n.label),
    ['aime', 'gpqa', 'swe_verified'],
  );
  const [aime, gpqa, swe] = roots;
  assert.equal(child(aime, 'eval/aime')?.description, '0.3333'); // 4 significant digits; the tooltip is exact
  assert.match(child(aime, 'samples per prompt')?.description ?? '', /^4 \(from the dataset entry\) · 12 samples$/);
  assert.equal(child(aime, 'eval/aime-pass@1')?.description, '0.3333'); // same either way: no second value
  assert.equal(child(aime, 'eval/aime-pass@2')?.description, '0.6111 (grouped by 2: 0.5)');
  assert.match(
    String(child(aime, 'eval/aime-pass@2')?.tooltip),
    /^eval\/aime-pass@2 = 0\.611111111111111 with 4 samples per prompt; miles main \(31f1ca9\) groups by 2 and reports 0\.5$/,
  );
  assert.equal(child(aime, 'eval/aime-pass@4')?.description, '1');
  assert.equal(child(gpqa, 'eval/gpqa')?.description, '0.5833');
  assert.equal(child(gpqa, 'eval/gpqa-none_reward_ratio')?.description, '0.08333');
  assert.equal(child(swe, 'eval/swe_verified')?.description, '0');
  assert.equal(child(swe, 'eval/swe_verified-none_reward_ratio')?.description, '1');
  const misgrouped = child(gpqa, 'Findings')?.children.find((n) => n.label === 'misgrouped-dataset');
  assert.ok(misgrouped, 'gpqa has a misgrouped-dataset finding');
  assert.equal(misgrouped.contextValue, 'finding.fixable');
  assert.equal(misgrouped.description, 'dataset gpqa is misgrouped: prompts repeat 3 times in a row but n_samples_per_eval_prompt is 2, so …');
  const allAborted = child(swe, 'Findings')?.children.find((n) => n.label === 'eval-all-aborted');
  assert.equal(allAborted?.contextValue, 'finding', 'eval-all-aborted has no quick fix');
});

test('quick fix for misgrouped-dataset (vscode.executeCodeActionProvider), applied from the view item, edits eval_config.yaml', async () => {
  const a = await api();
  const uri = wsUri(...EVAL);
  await openLog(...EVAL);
  const actions = await quickFixes(uri, (x) => codeOf(x) === 'misgrouped-dataset', 'the misgrouped-dataset diagnostic');
  const fix = actions.find((x) => x.title === 'Set n_samples_per_eval_prompt of gpqa to 3 in eval_config.yaml');
  assert.ok(fix?.edit, `actions: ${actions.map((x) => x.title).join(' | ')}`);
  const config = wsUri('eval_config.yaml');
  assert.deepEqual(
    fix.edit.entries().map(([u]) => u.toString()),
    [config.toString()],
  );

  // The way a user does it: the inline action on the finding's item in the Eval datasets view.
  const item = await waitFor(() => a.datasets.find((n) => n.kind === 'finding' && (n.data as FindingData).code === 'misgrouped-dataset'), 'the finding item');
  const applied = await vscode.commands.executeCommand<string | undefined>('rolloutLens.applyFix', item, 'preferred');
  assert.equal(applied, fix.title);
  const doc = await vscode.workspace.openTextDocument(config);
  const gpqa = /- name: gpqa\n((?: {6}.*\n)*)/.exec(doc.getText())?.[1] ?? '';
  assert.match(gpqa, /^ {6}n_samples_per_eval_prompt: 3\b/m);
  assert.match(doc.getText(), /# SWE-bench Verified through the agent server\./, 'comments are kept');
  await doc.save();
  // The server re-analyses with the edited config: the finding goes away.
  await diagnostics(uri, (d) => !d.some((x) => codeOf(x) === 'misgrouped-dataset'), 'misgrouped-dataset to clear after the fix');
});

test('quick fix for passk-group-size-mismatch: the run settings file sets the global value, so the fix edits rollout-lens.yaml, not the editor setting', async () => {
  const uri = wsUri(...EVAL);
  await openLog(...EVAL);
  const actions = await quickFixes(uri, (x) => codeOf(x) === 'passk-group-size-mismatch' && /dataset aime/.test(x.message), "aime's pass@k mismatch");
  // The example run's rollout-lens.yaml sets nSamplesPerEvalPrompt and wins over the editor's
  // setting, so a client command changing the setting would change nothing: the file is edited.
  assert.ok(!actions.some((x) => x.command?.command === 'rolloutLens.setNSamplesPerEvalPrompt'), 'no ineffective setting command');
  const fix = actions.find((x) => x.title === 'Set nSamplesPerEvalPrompt to 4 in rollout-lens.yaml');
  assert.ok(fix?.edit, `actions: ${actions.map((x) => x.title).join(' | ')}`);
  const settingsFile = wsUri('rollout-lens.yaml');
  assert.deepEqual(
    fix.edit.entries().map(([u]) => u.toString()),
    [settingsFile.toString()],
  );
  assert.ok(await vscode.workspace.applyEdit(fix.edit));
  const doc = await vscode.workspace.openTextDocument(settingsFile);
  assert.match(doc.getText(), /^nSamplesPerEvalPrompt: 4$/m);
  assert.match(doc.getText(), /^# Run settings for the example run/m, 'comments are kept');
  await doc.save();
  await diagnostics(uri, (d) => !d.some((x) => codeOf(x) === 'passk-group-size-mismatch' && /dataset aime/.test(x.message)), "aime's mismatch to clear");
});
