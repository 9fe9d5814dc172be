// An empty window (no folder, no log): the harness itself, and the extension's welcome state.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api } from './helpers';
import { runAll, test } from './runner';

test('runs inside a real VS Code extension host with the built-in jsonl language', async () => {
  assert.match(vscode.version, /^1\.\d+\.\d+/);
  assert.equal(vscode.workspace.workspaceFolders, undefined);
  assert.ok((await vscode.languages.getLanguages()).includes('jsonl'));
});

test('no log open: both views are empty (the welcome view shows), no status bar item, commands registered', async () => {
  const a = await api();
  await a.refresh();
  assert.equal(a.target.current, undefined);
  assert.deepEqual([a.groups.roots.length, a.datasets.roots.length], [0, 0]);
  assert.equal(a.statusText(), undefined);
  const commands = await vscode.commands.getCommands(true);
  for (const c of ['rolloutLens.inspect', 'rolloutLens.restartServer', 'rolloutLens.showOutput', 'rolloutLens.refresh']) assert.ok(commands.includes(c), c);
});

export function run(): Promise<void> {
  return runAll('empty window');
}
