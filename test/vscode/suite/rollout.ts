// The example run's rollout steps in the real VS Code: diagnostics, hover, the Groups by cause
// view (through the provider the extension exposes), reveal, and the status bar.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TreeNode } from '../../../client/src/treeNodes';
import { api, codeOf, diagnostics, hoverText, openLog, unescapeMarkdown, waitFor, wsUri } from './helpers';
import { test } from './runner';

const STEP1 = ['rollout', 'rollout_1.jsonl'];
const labels = (nodes: readonly TreeNode[]) => nodes.map((n) => n.label);

test('activates on the built-in jsonl language (no second JSONL language registered)', async () => {
  const ext = vscode.extensions.getExtension('rollout-lens.rollout-lens')!;
  assert.ok(ext.packageJSON.activationEvents.includes('onLanguage:jsonl'));
  assert.equal(ext.packageJSON.contributes.languages, undefined);
  const editor = await openLog(...STEP1);
  assert.equal(editor.document.languageId, 'jsonl');
  await api();
  assert.ok(ext.isActive);
});

test('diagnostics: aborted-group and zero-std drops of sync step 1 on their lines (vscode.languages.getDiagnostics)', async () => {
  const uri = wsUri(...STEP1);
  await openLog(...STEP1);
  const ds = await diagnostics(uri, (d) => d.length >= 9, 'the 9 findings of rollout_1.jsonl');
  const got = ds.map((d) => `${d.range.start.line + 1} ${codeOf(d)}`).sort();
  assert.deepEqual(got, [
    '13 group-dropped',
    '18 abort-cause-unknown',
    '18 group-dropped',
    '22 infra-failure-scored',
    '26 group-dropped',
    '26 policy-failure-discarded',
    '29 zero-std-group',
    '7 group-dropped',
    '9 zero-std-group',
  ]);
  const first = ds.find((d) => d.range.start.line === 12)!;
  assert.match(first.message, /^group dropped: group_has_aborted_SandboxUnavailable/);
  assert.equal(first.severity, vscode.DiagnosticSeverity.Warning);
});

test('hover on an aborted sample names its group, reason and drop metric (vscode.executeHoverProvider)', async () => {
  const uri = wsUri(...STEP1);
  await openLog(...STEP1);
  await diagnostics(uri, (d) => d.length >= 9, 'diagnostics before hovering');
  // Line 7 (0-based 6) is group 1's aborted ServerUnreachable sample.
  const hovers = await waitFor(async () => {
    const h = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(6, 3));
    return h && h.length > 0 && hoverText(h).includes('group_has_aborted') ? h : undefined;
  }, 'a hover on line 7');
  const text = hoverText(hovers);
  assert.match(text, /group_has_aborted_ServerUnreachable/);
  assert.match(text, /rollout\/dynamic_filter\/drop_group_has_aborted_ServerUnreachable/);
  // VS Code asks for markdown: identifiers and values are code spans, never backslash-escaped.
  assert.match(text, /`metadata\.exit_status`/);
  assert.doesNotMatch(text.replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, ''), /\\[._]/);
});

test('Groups by cause view: Dropped → reason → group → samples, Kept, with counts (step 1)', async () => {
  const a = await api();
  await openLog(...STEP1);
  const roots = await waitFor(
    () => (a.groups.roots.length === 2 && a.groups.roots[0].kind === 'dropped' ? a.groups.roots : undefined),
    'the groups view for rollout_1.jsonl',
  );
  const [dropped, kept] = roots;
  assert.deepEqual([dropped.label, dropped.description, kept.label, kept.description], ['Dropped', '6 groups', 'Kept', '2 groups']);
  assert.deepEqual(labels(dropped.children).sort(), [
    'group_has_aborted_SandboxUnavailable',
    'group_has_aborted_ServerUnreachable',
    'group_has_aborted_TimeLimitExceeded',
    'group_has_aborted_unknown',
    'zero_std_0.0',
    'zero_std_1.0',
  ]);
  const sandbox = dropped.children.find((n) => n.label === 'group_has_aborted_SandboxUnavailable')!;
  assert.equal(sandbox.description, '1 group');
  const group = sandbox.children[0];
  assert.equal(group.label, 'group 3');
  assert.equal(group.children.length, 4);
  assert.deepEqual(labels(group.children), ['line 13', 'line 14', 'line 15', 'line 16']);
  assert.match(group.children[0].description ?? '', /^aborted · SandboxUnavailable · reward null$/);
  const tip = group.tooltip as vscode.MarkdownString;
  assert.equal(tip.isTrusted, false);
  assert.equal(tip.supportHtml, false);
  const shown = unescapeMarkdown(tip.value); // appendText escaped the log text
  assert.match(shown, /\*\*Dropped:\*\* group_has_aborted_SandboxUnavailable/);
  assert.match(shown, /\*\*Samples:\*\* 4 \(2 aborted, 2 completed\)/);
  assert.match(shown, /\*\*Exit statuses:\*\* 1 SandboxUnavailable, 2 Submitted, 1 ServerUnreachable/);
  assert.deepEqual(labels(kept.children), ['group 0', 'group 5']);
  // getParent chains back to the root, so reveal works.
  const sample = group.children[2];
  assert.equal(a.groups.getParent(sample), group);
  assert.equal(a.groups.getParent(group), sandbox);
  assert.equal(a.groups.getParent(sandbox), dropped);
  assert.equal(a.groups.getParent(dropped), undefined);
});

test('clicking a sample reveals its line; TreeView.reveal finds the node through getParent', async () => {
  const a = await api();
  await openLog(...STEP1);
  const sample = await waitFor(() => a.groups.find((n) => n.kind === 'sample' && n.label === 'line 16'), 'sample line 16');
  await vscode.commands.executeCommand('workbench.view.extension.rolloutLens');
  await a.groupsView.reveal(sample, { select: true, focus: false, expand: true });
  assert.deepEqual(
    a.groupsView.selection.map((n) => n.id),
    [sample.id],
  );
  const cmd = sample.command!;
  await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? []));
  const editor = await waitFor(() => {
    const e = vscode.window.activeTextEditor;
    return e && e.document.uri.path.endsWith('rollout_1.jsonl') && e.selection.active.line === 15 ? e : undefined;
  }, 'the editor at line 16');
  assert.equal(editor.selection.active.line, 15);
});

test('status bar for the active log: "6 groups dropped · 6 causes"', async () => {
  const a = await api();
  await openLog(...STEP1);
  const text = await waitFor(() => (a.statusText()?.includes('dropped') ? a.statusText() : undefined), 'the status bar text');
  assert.equal(text, '$(filter) 6 groups dropped · 6 causes');
});

test('run folder: per-cause drops over the steps, then each step (rolloutLens.inspect)', async () => {
  const a = await api();
  await vscode.commands.executeCommand('rolloutLens.inspect', wsUri('rollout'));
  const roots = await waitFor(() => (a.groups.roots[0]?.kind === 'run' ? a.groups.roots : undefined), 'the run view');
  assert.deepEqual(labels(roots), ['Run · rollout', 'step 1 · rollout_1.jsonl', 'step 2 · rollout_2.jsonl', 'step 3 · rollout_3.jsonl']);
  assert.equal(roots[0].description, '3 steps · 14 dropped');
  const server = roots[0].children.find((n) => n.label === 'group_has_aborted_ServerUnreachable')!;
  assert.equal(server.description, '2 groups');
  assert.deepEqual(
    server.children.map((n) => `${n.label}: ${n.description}`),
    ['step 1 · rollout_1.jsonl: 1', 'step 2 · rollout_2.jsonl: 1'],
  );
  assert.deepEqual(
    roots.slice(1).map((n) => n.description),
    ['6 dropped · 2 kept', '3 dropped · 5 kept', '5 dropped · 3 kept'],
  );
  const zero1 = a.groups.find((n) => n.kind === 'reason' && n.label === 'zero_std_1' && n.id.includes('rollout_2'));
  assert.ok(zero1, 'step 2 has zero_std_1 (an int reward stays an int, docs/semantics.md#zero-std-filter)');
  // A folder's answer has each file's causes and counts, no groups: a step's groups are asked for
  // when its node is first expanded.
  const step1 = roots[1];
  const bucketsOf = (file: typeof step1) => file.children.find((n) => n.kind === 'dropped')!.children;
  assert.ok(step1.load, 'the step is fetched when expanded');
  assert.deepEqual(
    bucketsOf(step1).map((n) => [n.label, n.description, n.children.length]),
    [
      ['group_has_aborted_SandboxUnavailable', '1 group', 0],
      ['group_has_aborted_ServerUnreachable', '1 group', 0],
      ['group_has_aborted_TimeLimitExceeded', '1 group', 0],
      ['group_has_aborted_unknown', '1 group', 0],
      ['zero_std_0.0', '1 group', 0],
      ['zero_std_1.0', '1 group', 0],
    ],
  );
  await vscode.commands.executeCommand('rolloutLens.groups.focus');
  await a.groupsView.reveal(step1, { expand: true });
  const loaded = await waitFor(() => (a.groups.roots[1].load === undefined ? a.groups.roots[1] : undefined), 'the step expanded and its groups fetched');
  assert.equal(loaded.id, step1.id);
  assert.deepEqual(
    bucketsOf(loaded).map((n) => [n.label, n.description, n.children.length]),
    bucketsOf(step1).map((n) => [n.label, n.description, 1]),
  );
  assert.ok(a.groups.find((n) => n.kind === 'sample' && n.id.includes('rollout_1') && n.label === 'line 13'));
  // Opening a log outside the folder follows that log again.
  await openLog('eval', 'eval_100.jsonl');
  await waitFor(() => a.target.inspected === undefined, 'the inspection to end');
});

test('Restart Server: a new server comes up; diagnostics and views come back; Show Output works', async () => {
  const a = await api();
  const before = a.client();
  await vscode.commands.executeCommand('rolloutLens.restartServer');
  assert.ok(a.client()?.isRunning());
  assert.equal(a.client(), before, 'the same client object, restarted');
  const uri = wsUri(...STEP1);
  await openLog(...STEP1);
  await diagnostics(uri, (d) => d.length >= 9, 'diagnostics after the restart');
  await waitFor(() => a.groups.roots[0]?.kind === 'dropped', 'the groups view after the restart');
  await vscode.commands.executeCommand('rolloutLens.showOutput');
});
