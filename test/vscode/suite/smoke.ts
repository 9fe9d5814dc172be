// Trivial suite proving the harness: runs inside the real extension host.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { runAll, test } from './runner';

test('runs inside a real VS Code extension host', () => {
  assert.match(vscode.version, /^1\.\d+\.\d+/);
  assert.equal(typeof vscode.window.createTreeView, 'function');
});

test('the built-in jsonl language exists', async () => {
  const langs = await vscode.languages.getLanguages();
  assert.ok(langs.includes('jsonl'), `languages: ${langs.join(', ')}`);
});

export function run(): Promise<void> {
  return runAll('smoke');
}
