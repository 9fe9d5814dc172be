// The sample view and the run view in the real VS Code: "Open Sample" from a hover's
// link and from a Groups view sample, a step to a sibling, "Open Run View" on the run folder and a
// click on a chart bar (a real click in the webview under the code-server host) that reveals that
// step's cause in the Groups view. Screenshots of both panels under the code-server host.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as vscode from 'vscode';
import { api, hoverText, openLog, screenshot, shotPath, waitFor, withoutAutoSave, wsUri } from './helpers';
import { test } from './runner';

const STEP1 = ['rollout', 'rollout_1.jsonl'];

test('sample view: opened from the hover link on an aborted sample, with its dropped group', async () => {
  const a = await api();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const uri = wsUri(...STEP1);
  await openLog(...STEP1);
  // Line 13 (0-based 12): group 3's aborted SandboxUnavailable sample.
  const hovers = await waitFor(async () => {
    const h = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(12, 3));
    return h && hoverText(h).includes('command:rolloutLens.openSample') ? h : undefined;
  }, 'a hover with the Open Sample link');
  const link = /\(command:rolloutLens\.openSample\?([^ )]+)/.exec(hoverText(hovers))!;
  const args = JSON.parse(decodeURIComponent(link[1])) as [string, number];
  assert.deepEqual(args, [uri.toString(), 12]);
  const trusted = hovers
    .flatMap((h) => h.contents)
    .find((c) => typeof c !== 'string' && 'value' in c && c.value.includes('openSample')) as vscode.MarkdownString;
  assert.deepEqual(trusted.isTrusted, { enabledCommands: ['rolloutLens.openSample'] });
  await vscode.commands.executeCommand('rolloutLens.openSample', ...args);
  const state = await waitFor(() => a.samplePanel.state?.line === 12 && a.samplePanel.state, 'the sample panel on line 13');
  assert.equal(state.model.verdict?.kind, 'rollout');
  assert.deepEqual([state.model.status, state.model.cause?.name, state.model.cause?.class], ['aborted', 'SandboxUnavailable', 'infrastructure']);
  assert.equal(state.model.verdict?.kind === 'rollout' && state.model.verdict.reason, 'group_has_aborted_SandboxUnavailable');
  assert.match(state.html, /Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;nonce-/);
  // The page's script ran under the panel's CSP and drew the sample.
  await waitFor(() => a.samplePanel.state?.rendered, 'the sample page to render');
  await screenshot('sample-view.png');
});

test('sample view: a sample of the Groups view opens it; stepping goes to the next sibling', async () => {
  const a = await api();
  await vscode.commands.executeCommand('rolloutLens.inspect', wsUri(...STEP1));
  const sample = await waitFor(
    () => a.groups.find((n) => n.kind === 'sample' && n.location?.line === 16 && n.id.includes('rollout_1')),
    'line 17 in the Groups view',
  );
  assert.equal(sample.contextValue, 'sample');
  // rollout_1.jsonl's finished attempts record exit_status Submitted: no cause, so not in their descriptions.
  assert.equal(
    a.groups.find((n) => n.kind === 'sample' && String(n.description ?? '').includes('Submitted')),
    undefined,
    'a sample described with Submitted',
  );
  await vscode.commands.executeCommand('rolloutLens.openSample', sample);
  const state = await waitFor(() => a.samplePanel.state?.line === 16 && a.samplePanel.state, 'the sample panel on line 17');
  const here = state.model.siblings.findIndex((s) => s.current);
  const next = state.model.siblings[here + 1];
  assert.ok(next?.line, 'a next sibling');
  const nextLine = next.line;
  await a.samplePanel.step(1);
  const stepped = await waitFor(() => a.samplePanel.state?.line === nextLine - 1 && a.samplePanel.state, `the sibling on line ${nextLine}`);
  assert.equal(stepped.model.group, state.model.group);
  assert.equal(vscode.window.activeTextEditor?.selection.active.line, nextLine - 1);
});

test('sample view: next/previous failed sample and dropped group step through the log, revealing each line', async () => {
  const a = await api();
  await openLog(...STEP1);
  await vscode.commands.executeCommand('rolloutLens.openSample', wsUri(...STEP1), 12);
  const start = await waitFor(() => a.samplePanel.state?.line === 12 && a.samplePanel.state, 'the sample panel on line 13');
  assert.ok(start.model.aborted, 'line 13 is an aborted sample');
  await vscode.commands.executeCommand('rolloutLens.nextFailedSample');
  const next = await waitFor(() => (a.samplePanel.state && a.samplePanel.state.line > 12 ? a.samplePanel.state : undefined), 'the next failed sample');
  assert.ok(next.model.aborted || next.model.status === 'failed' || next.model.cause !== null, `line ${next.line + 1} failed`);
  assert.equal(vscode.window.activeTextEditor?.selection.active.line, next.line);
  await vscode.commands.executeCommand('rolloutLens.previousFailedSample');
  await waitFor(() => a.samplePanel.state?.line === 12, 'back to line 13');
  await vscode.commands.executeCommand('rolloutLens.nextDroppedGroup');
  const dropped = await waitFor(() => (a.samplePanel.state && a.samplePanel.state.line !== 12 ? a.samplePanel.state : undefined), 'the next dropped group');
  assert.equal(dropped.model.verdict?.kind === 'rollout' && dropped.model.verdict.kept, false, 'its group was dropped');
  assert.notEqual(dropped.model.group, start.model.group);
  const titled = vscode.window.tabGroups.activeTabGroup.tabs.some((t) => t.label === dropped.model.title);
  assert.ok(titled || vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label === dropped.model.title)), 'the panel is titled by file and line');
});

test('run view: opened on the run folder; a click on a bar reveals that step and cause in the Groups view', async () => {
  const a = await api();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('rolloutLens.inspect', wsUri());
  const state = await vscode.commands.executeCommand<{ model: { steps: { step: number | null }[]; reasons: { reason: string; causeClass: string | null }[] } }>(
    'rolloutLens.openRunView',
    wsUri(),
  );
  assert.ok(state, 'the run view opened');
  assert.deepEqual(
    state.model.steps.map((s) => s.step).filter((s) => s !== null && s <= 3),
    [1, 2, 3],
  );
  await waitFor(() => a.groups.roots.length > 3, 'the Groups view filled for the run');
  // The first infrastructure cause by name gets the first infrastructure colour (#d1242f).
  const first = state.model.reasons.find((r) => r.causeClass === 'infrastructure')!;
  assert.equal(first.reason, 'group_has_aborted_AgentSetupFailed');
  let revealed: string | undefined;
  const sub = a.runView.onDidReveal((n) => (revealed = n.id));
  await waitFor(() => a.runView.state?.rendered, 'the run view page to render its charts');
  if (process.env.CODE_HOST === '1') {
    await screenshot('run-view.png');
    const done = shotPath('click-bar.done');
    rmSync(done, { force: true });
    console.log(`[[code-host:click-canvas chart-drops #d1242f ${done}]]`);
    await waitFor(() => existsSync(done), 'the host to click the bar', 30_000);
    assert.equal(readFileSync(done, 'utf8'), 'ok');
  } else {
    const step3 = state.model.steps.find((s) => s.step === 3) as unknown as { sources: string[] };
    await a.runView.receive({ type: 'reveal', step: 3, reason: first.reason, sources: step3.sources });
  }
  const id = await waitFor(() => revealed, 'the bar click to reveal a node');
  sub.dispose();
  assert.ok(id.endsWith(`rollout_3.jsonl|reason|${first.reason}`), id);
  assert.equal(a.groupsView.selection[0]?.id, id);
});

test('run view: an edit to the log it shows draws it again in place', async () => {
  const a = await api();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const uri = wsUri(...STEP1);
  const editor = await openLog(...STEP1);
  const before = await vscode.commands.executeCommand<{ model: { totals: { samples: number } } }>('rolloutLens.openRunView', uri);
  assert.ok(before, 'the run view opened');
  let redrawn = 0;
  const sub = a.runView.onDidRedraw(() => redrawn++);
  await withoutAutoSave(async () => {
    try {
      // Delete line 13 (an aborted sample) without saving: the server analyses the edited text.
      const edit = new vscode.WorkspaceEdit();
      edit.delete(uri, new vscode.Range(12, 0, 13, 0));
      assert.ok(await vscode.workspace.applyEdit(edit));
      const after = await waitFor(
        () => redrawn > 0 && a.runView.state && a.runView.state.model.totals.samples !== before.model.totals.samples && a.runView.state,
        'the run view drawn again after the edit',
      );
      assert.equal(after.model.totals.samples, before.model.totals.samples - 1);
      assert.equal(after.target.toString(), uri.toString());
      await waitFor(() => a.runView.state?.rendered, 'the redrawn page to render');
    } finally {
      sub.dispose();
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });
});
