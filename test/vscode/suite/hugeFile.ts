// A log above VS Code's 50 MB sync limit: VS Code opens a tab but never syncs the document, so the
// extension notices the tab and has the server stream the file (rolloutLens/analyzeFile).
import * as assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import * as vscode from 'vscode';
import { SYNC_LIMIT } from '../../../client/src/hugeFiles';
import { api, waitFor, wsUri } from './helpers';
import { test } from './runner';

/**
 * Writes a miles rollout log just above the sync limit: groups of 4, in every 50th group one
 * sample aborted (ServerUnreachable). Returns the number of groups.
 */
function writeHugeLog(path: string, minBytes = SYNC_LIMIT + 1024 * 1024): number {
  const pad = Array.from({ length: 150 }, (_, i) => (i * 7919) % 32000).join(', ');
  const fd = openSync(path, 'w');
  try {
    let written = 0;
    let g = 0;
    for (; written <= minBytes; g++) {
      let chunk = '';
      for (let i = 0; i < 4; i++) {
        const aborted = g % 50 === 0 && i === 1;
        const row = `{"group_index": ${g}, "index": ${g * 4 + i}, "prompt": "task ${g}", "response": "${aborted ? '' : 'done'}", "reward": ${aborted ? 'null' : i % 2 === 0 ? '1.0' : '0.0'}, "status": "${aborted ? 'aborted' : 'completed'}", "metadata": {${aborted ? '"exit_status": "ServerUnreachable"' : ''}}, "tokens": [${pad}]}\n`;
        chunk += row;
      }
      written += writeSync(fd, chunk);
    }
    return g;
  } finally {
    closeSync(fd);
  }
}

test('a log above the 50 MB sync limit is noticed through its tab and analysed by rolloutLens/analyzeFile', async () => {
  const a = await api();
  const dir = wsUri('huge').fsPath;
  mkdirSync(dir, { recursive: true });
  const path = `${dir}/rollout_99.jsonl`;
  const groups = writeHugeLog(path);
  assert.ok(statSync(path).size > SYNC_LIMIT);
  const uri = vscode.Uri.file(path);
  await vscode.commands.executeCommand('vscode.open', uri);
  assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString()), 'VS Code does not sync it');
  const result = await waitFor(() => a.hugeFiles.results.get(uri.toString()), 'analyzeFile to finish', 120_000);
  assert.equal(result.records, groups * 4);
  assert.equal(result.invalidLines, 0);
  const dropped = Math.ceil(groups / 50); // groups 0, 50, 100, …
  const status = await waitFor(() => (a.statusText()?.includes('dropped') ? a.statusText() : undefined), 'the status for the huge log');
  assert.equal(status, `$(filter) ${dropped} groups dropped · 1 cause`);
  const bucket = await waitFor(
    () => a.groups.find((n) => n.kind === 'reason' && n.label === 'group_has_aborted_ServerUnreachable' && n.id.includes('rollout_99')),
    'the huge log in the groups view',
  );
  assert.equal(bucket.description?.startsWith(`${dropped} groups`), true);
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
}, 180_000);

test('a 12 MB log behind "Open Anyway" (code-server\'s 10 MB remote limit: a tab, no document) is read from disk too', async () => {
  if (process.env.CODE_HOST !== '1') return; // desktop VS Code opens local files this size normally
  const a = await api();
  const path = `${wsUri('huge').fsPath}/rollout_98.jsonl`;
  const groups = writeHugeLog(path, 12 * 1024 * 1024);
  const uri = vscode.Uri.file(path);
  await vscode.commands.executeCommand('vscode.open', uri);
  const result = await waitFor(() => a.hugeFiles.results.get(uri.toString()), 'analyzeFile for the 12 MB log', 120_000);
  assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString()), 'no document was synced');
  assert.equal(result.records, groups * 4);
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
}, 180_000);
