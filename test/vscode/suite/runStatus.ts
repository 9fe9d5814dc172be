// The run in the editor: Inspect on the run folder puts the run's findings in Problems for the
// files that are not open (an opened log keeps the server's own, never both), shows the run status
// item with the run model's counts and what configured the run, opens the run view on a click, and
// takes it all away when the inspection ends. A cause's per-step leaf opens that cause's first
// group in that step. Tooltips name paths relative to the workspace folder.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { api, codeOf, unescapeMarkdown, waitFor, wsUri } from './helpers';
import { test } from './runner';

function rollOutCodes(ds: readonly vscode.Diagnostic[] | undefined): string[] {
  return (ds ?? []).map((d) => codeOf(d)).sort();
}

test('Inspect a run: its findings in Problems, the run status item, removed when the inspection ends', async () => {
  const a = await api();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const folder = wsUri();
  await vscode.commands.executeCommand('rolloutLens.inspect', folder);
  // The run model's rollout steps (miles' 3, verl's 1): 14 of 28 groups; metrics.jsonl's 2 mismatches.
  // The hostile suite leaves hostile/rollout_7.jsonl behind: one more group, dropped (its sample aborted).
  const hostile = existsSync(wsUri('hostile', 'rollout_7.jsonl').fsPath);
  const want = `$(graph) run: ${hostile ? '15 of 29' : '14 of 28'} groups dropped · 2 metric mismatches`;
  // Waited for: an earlier suite's edits of the run (reverted) may still be counted for a moment.
  await waitFor(() => (a.runStatus.text === want ? true : undefined), want).catch((err: unknown) => {
    assert.equal(a.runStatus.text, want, String(err));
    throw err;
  });
  const metrics = wsUri('metrics.jsonl');
  // Files no earlier suite opens: their findings come from the run's collection alone.
  const verlRollout = wsUri('verl', 'rollout', '12.jsonl');
  const verlValidation = wsUri('verl', 'validation', '12.jsonl');
  const ours = (uri: vscode.Uri) => rollOutCodes(vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'rollout-lens'));
  assert.deepEqual(rollOutCodes(a.runStatus.problems.get(verlRollout.toString())), ['denominator-inflation', 'verl-not-recomputed']);
  assert.deepEqual(ours(verlRollout), ['denominator-inflation', 'verl-not-recomputed']);
  assert.equal(vscode.languages.getDiagnostics(verlRollout).find((d) => codeOf(d) === 'denominator-inflation')?.severity, vscode.DiagnosticSeverity.Warning);
  // metrics.jsonl's mismatches, compared with the run's files as check compares them: shown once,
  // from the run while it is not open, else from the server (an earlier suite may have left it open).
  await waitFor(() => (ours(metrics).join() === 'metric-mismatch,metric-mismatch' ? true : undefined), "metrics.jsonl's two mismatches, once");

  // The tooltip names the run, its settings file and eval config relative to the workspace; no absolute path.
  const tip = a.runStatus.tooltip;
  assert.ok(tip instanceof vscode.MarkdownString);
  const tipText = unescapeMarkdown(tip.value);
  assert.match(tipText, /\*\*Run:\*\* run\s/);
  assert.match(tipText, /\*\*Settings file:\*\* rollout-lens\.yaml\s/);
  assert.match(tipText, /\*\*Eval config:\*\* eval_config\.yaml\s/);
  assert.ok(!tipText.includes(folder.fsPath), tipText);

  // The Groups view's run root says the same.
  await vscode.commands.executeCommand('rolloutLens.inspect', wsUri('rollout'));
  const run = await waitFor(() => (a.groups.roots[0]?.kind === 'run' ? a.groups.roots[0] : undefined), 'the run root');
  const runTip = unescapeMarkdown((run.tooltip as vscode.MarkdownString).value);
  assert.match(runTip, /\*\*Run:\*\* rollout\s/);
  assert.match(runTip, /\*\*Settings file:\*\* rollout-lens\.yaml\s/);
  assert.ok(!runTip.includes(folder.fsPath), runTip);
  for (const n of a.groups.roots.slice(1))
    assert.ok(typeof n.tooltip === 'string' && !n.tooltip.includes(folder.fsPath) && n.tooltip.startsWith('rollout/'), String(n.tooltip));
  await waitFor(() => (a.runStatus.text === '$(graph) run: 14 of 24 groups dropped' ? true : undefined), 'the status of the rollout folder');

  // An opened log shows the server's diagnostics, not the run's copy as well.
  await vscode.commands.executeCommand('rolloutLens.inspect', folder);
  await waitFor(() => a.runStatus.problems.get(verlValidation.toString()), "verl/validation/12.jsonl's run diagnostics");
  assert.deepEqual(ours(verlValidation), ['denominator-inflation']);
  await vscode.window.showTextDocument(verlValidation, { preview: false });
  await waitFor(() => (a.runStatus.problems.has(verlValidation.toString()) ? undefined : true), 'the open log left to the server');
  await waitFor(() => (ours(verlValidation).join() === 'denominator-inflation' ? true : undefined), "the server's own finding on the open log, not two");

  // A click opens the run view of the run.
  const command = a.runStatus.command;
  assert.equal(command?.command, 'rolloutLens.openRunView');
  const state = await vscode.commands.executeCommand<{ model: { totals: { groups: number; dropped: number } } } | undefined>(
    command.command,
    ...(command.arguments ?? []),
  );
  assert.ok(state, 'the run view opened');

  // Ending the inspection takes the run's findings and its item away.
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('rolloutLens.followActiveEditor');
  await waitFor(() => (a.runStatus.text === undefined && a.runStatus.problems.size === 0 ? true : undefined), 'the run status gone');
  await waitFor(() => (ours(verlRollout).length === 0 ? true : undefined), 'no run diagnostics left on a log that was never open');
});

test("a cause's per-step leaf opens that cause's first group in that step, not line 1", async () => {
  const a = await api();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('rolloutLens.inspect', wsUri('rollout'));
  const leaf = await waitFor(
    () => a.groups.find((n) => n.kind === 'runStep' && n.parent?.label === 'group_has_aborted_ServerUnreachable' && n.label === 'step 2 · rollout_2.jsonl'),
    'the step 2 leaf of group_has_aborted_ServerUnreachable',
  );
  assert.equal(leaf.command?.command, 'rolloutLens.openCauseInStep');
  const went = await vscode.commands.executeCommand<{ uri: string; line: number }>(leaf.command.command, ...(leaf.command.arguments ?? []));
  // Group 9 of rollout_2.jsonl: its first member is on line 3 (0-based 2), its aborted ones further down.
  assert.deepEqual(went, { uri: wsUri('rollout', 'rollout_2.jsonl').toString(), line: 2 });
  const editor = await waitFor(
    () => (vscode.window.activeTextEditor?.document.uri.toString() === went.uri ? vscode.window.activeTextEditor : undefined),
    'rollout_2.jsonl',
  );
  assert.equal(editor.selection.active.line, 2);
  assert.equal((JSON.parse(editor.document.lineAt(2).text) as { group_index: number }).group_index, 9);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('rolloutLens.followActiveEditor');
});
