// "Compare with Run…" in the real VS Code (docs/editors.md#comparing-two-runs): the run view of
// the workspace's rollout folder compared with a baseline copy of it outside the workspace, one of
// whose kept groups has an injected SandboxUnavailable abort. The panel shows the server's diff
// (the flip back to kept, the gate passing, both runs named), the page draws it, each flipped
// prompt's links open that side's sample in the sample view, a redraw keeps the comparison, Clear
// Comparison and opening another run drop it, and a baseline that cannot be read leaves the panel
// as it was.
import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunViewPanelState } from '../../../client/src/runViewPanel';
import { INJECTED, injectSandboxAbort } from '../../shared/compareRun';
import { api, waitFor, wsUri } from './helpers';
import { test } from './runner';

test('compare with run: a baseline overlaid on the run view, its flipped prompt opening both samples, then cleared', async () => {
  const a = await api();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const dir = mkdtempSync(join(tmpdir(), 'rl-compare-'));
  try {
    // The baseline: the workspace's rollout steps and settings, with one abort in a kept group of step 2.
    cpSync(wsUri('rollout').fsPath, join(dir, 'rollout'), { recursive: true, filter: (src) => !/rollout_[4-9]\d*\.jsonl$/.test(src) });
    cpSync(wsUri('rollout-lens.yaml').fsPath, join(dir, 'rollout-lens.yaml'));
    injectSandboxAbort(dir);
    const baseline = vscode.Uri.file(join(dir, 'rollout'));
    const candidate = wsUri('rollout');

    const shown = await vscode.commands.executeCommand<RunViewPanelState>('rolloutLens.compareWithRun', baseline, candidate);
    assert.ok(shown, 'the command returns the panel state');
    assert.equal(shown.target.toString(), candidate.toString());
    assert.equal(shown.comparedWith?.fsPath, baseline.fsPath);
    const c = shown.model.comparison;
    assert.ok(c, 'the model carries the comparison');
    // Named as the run view names paths: relative to the workspace, else by name.
    assert.equal(c.baseline.name, 'rollout (outside the workspace)');
    assert.equal(c.candidate.name, 'rollout');
    // Only the injected abort differs: this run keeps the group the baseline dropped.
    assert.deepEqual(c.prompts.flips, { 'group_has_aborted_SandboxUnavailable → kept': 1 });
    assert.deepEqual(c.gate, { passed: true, failures: [] });
    const cause = c.causes.find((x) => x.reason === 'group_has_aborted_SandboxUnavailable');
    assert.equal(cause?.groups.delta, -1);
    assert.ok(c.steps.some((s) => s.kind === 'rollout' && s.baseline === 2 && (s.dropRate.delta ?? 0) < 0));
    const [flip] = c.prompts.listed;
    assert.equal(flip.baseline.label, `rollout_2.jsonl:${INJECTED.line}`);
    assert.match(flip.candidate.label, /^rollout_2\.jsonl:\d+$/);
    // The page drew it (its script posts `rendered` once everything, the comparison too, is drawn).
    await waitFor(() => a.runView.state?.rendered, 'the page with the comparison to render');

    // The flipped prompt's links: this run's sample, then the baseline's, in the sample view.
    const candidatePlace = c.places[flip.candidate.place];
    await a.runView.receive({ type: 'place', place: flip.candidate.place });
    const opened = await waitFor(
      () =>
        a.samplePanel.state?.uri.fsPath === wsUri('rollout', 'rollout_2.jsonl').fsPath &&
        a.samplePanel.state.line === candidatePlace.line - 1 &&
        a.samplePanel.state,
      'the candidate sample in the sample view',
    );
    assert.equal(opened.model.title.includes('rollout_2.jsonl'), true, opened.model.title);
    await a.runView.receive({ type: 'place', place: flip.baseline.place });
    await waitFor(
      () => a.samplePanel.state?.uri.fsPath === join(dir, INJECTED.file) && a.samplePanel.state.line === INJECTED.line - 1,
      'the baseline sample in the sample view',
    );
    // A number the comparison does not hold opens nothing.
    assert.equal(await a.runView.openPlace(c.places.length), false);
    assert.equal(a.samplePanel.state?.uri.fsPath, join(dir, INJECTED.file));

    // A redraw (the page's Refresh) makes the comparison again.
    let redrawn = 0;
    const sub = a.runView.onDidRedraw(() => redrawn++);
    await a.runView.receive({ type: 'refresh' });
    await waitFor(() => redrawn > 0, 'Refresh to draw the run view again');
    sub.dispose();
    assert.deepEqual(a.runView.state?.model.comparison?.prompts.flips, c.prompts.flips);

    // Clear Comparison: the run alone again.
    await vscode.commands.executeCommand('rolloutLens.clearComparison');
    assert.equal(a.runView.state?.comparedWith, undefined);
    assert.equal(a.runView.state?.model.comparison, undefined);

    // A baseline that cannot be read: the command fails, the panel stays as it was.
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('rolloutLens.compareWithRun', vscode.Uri.file(join(dir, 'nowhere')))));
    assert.equal(a.runView.state?.model.comparison, undefined);
    assert.equal(a.runView.state?.target.toString(), candidate.toString());

    // Another run in the panel drops the comparison made for this one.
    await vscode.commands.executeCommand('rolloutLens.compareWithRun', baseline);
    assert.ok(a.runView.state?.model.comparison);
    const other = await vscode.commands.executeCommand<RunViewPanelState>('rolloutLens.openRunView', wsUri());
    assert.equal(other.model.comparison, undefined);
    assert.equal(other.comparedWith, undefined);
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
