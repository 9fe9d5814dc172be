// First, before any log is opened: the run folder alone activates the extension, and with no log
// open both views are empty, which shows their welcome content (and no status bar item).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, api, waitFor } from './helpers';
import { test } from './runner';

test('a workspace holding *.jsonl logs activates the extension (workspaceContains), in VS Code 1.139 with built-in jsonl', async () => {
  assert.match(vscode.version, /^1\.\d+\.\d+/);
  assert.ok((await vscode.languages.getLanguages()).includes('jsonl'));
  await waitFor(() => vscode.extensions.getExtension(EXTENSION_ID)?.isActive, 'activation without any editor');
  assert.equal(vscode.window.activeTextEditor, undefined);
});

test('no log open: both views are empty (their welcome content shows), no status bar item, commands registered', async () => {
  const a = await api();
  await a.refresh();
  assert.equal(a.target.current, undefined);
  assert.deepEqual([a.groups.roots.length, a.datasets.roots.length], [0, 0]);
  assert.equal(a.statusText(), undefined);
  const commands = await vscode.commands.getCommands(true);
  for (const c of ['rolloutLens.inspect', 'rolloutLens.followActiveEditor', 'rolloutLens.restartServer', 'rolloutLens.showOutput', 'rolloutLens.refresh']) {
    assert.ok(commands.includes(c), c);
  }
});
