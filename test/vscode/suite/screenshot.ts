// A screenshot of the Rollout Lens views on the example run with the Problems panel, saved by the
// code-server host (docs/screenshot.png with ROLLOUT_LENS_UPDATE_SCREENSHOT=1, else test/.tmp/).
// Under desktop VS Code there is no host to take it, so the test only arranges the workbench.
// Runs before the quick-fix tests, so the eval findings are still there to see.
import { existsSync, rmSync } from 'node:fs';
import * as vscode from 'vscode';
import { api, openLog, waitFor, wsUri } from './helpers';
import { test } from './runner';

test('screenshot: the Rollout Lens views on the example run with the Problems panel', async () => {
  const a = await api();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  await vscode.commands.executeCommand('rolloutLens.inspect', wsUri());
  await openLog('rollout', 'rollout_1.jsonl');
  await vscode.commands.executeCommand('workbench.view.extension.rolloutLens');
  // Widen the side bar for readable labels: shrinking the focused editor gives the space to it.
  await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
  for (let i = 0; i < 5; i++) await vscode.commands.executeCommand('workbench.action.decreaseViewWidth');
  await waitFor(() => a.groups.roots.length > 3 && a.datasets.roots.length > 0, 'both views filled for the run');
  // A run's step lists its groups once its node is expanded (the folder's answer has counts only).
  const step1 = a.groups.find((n) => n.kind === 'file' && n.id.includes('rollout_1'))!;
  await a.groupsView.reveal(step1, { select: false, focus: false, expand: true });
  const group = await waitFor(() => a.groups.find((n) => n.kind === 'group' && n.label === 'group 3' && n.id.includes('rollout_1')), 'group 3 of step 1');
  await a.groupsView.reveal(group.children[0], { select: true, focus: false, expand: true });
  const cmd = group.children[0].command!;
  await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? [])); // the click: line 13 selected
  await vscode.commands.executeCommand('workbench.actions.view.problems');
  await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
  if (process.env.CODE_HOST !== '1') return; // desktop VS Code: no host to take the picture
  const out = process.env.ROLLOUT_LENS_SCREENSHOT ?? wsUri('screenshot.png').fsPath;
  rmSync(out, { force: true }); // wait for this run's picture, not an old one
  console.log(`[[code-host:screenshot ${out}]]`);
  await waitFor(() => existsSync(out), `the screenshot at ${out}`, 30_000);
});
