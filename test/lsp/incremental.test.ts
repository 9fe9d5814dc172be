// Incremental edits through a real LSP connection: the server asks for incremental sync and
// re-scans only the lines an edit touched. After each edit its diagnostics (and a hover) must equal
// those of a fresh server opened on the edited text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic, Hover, TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { milesSample, rolloutLines, tempWorkspace } from './fixtures';
import { withHarness } from './harness';
import { EXAMPLE_ROLLOUT_SETTINGS } from '../shared/exampleRun';

const SETTINGS = EXAMPLE_ROLLOUT_SETTINGS;

/** Edits named for what they do to the analysis; each is one incremental change. */
function edits(doc: TextDocument): { name: string; change: (d: TextDocument) => TextDocumentContentChangeEvent }[] {
  const at = (d: TextDocument, line: number, needle: string) =>
    d.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).indexOf(needle);
  void doc;
  return [
    {
      name: 'status of line 1 completed → aborted (its group is dropped)',
      change: (d) => {
        const c = at(d, 0, '"completed"') + 1;
        return { range: { start: { line: 0, character: c }, end: { line: 0, character: c + 9 } }, text: 'aborted' };
      },
    },
    {
      name: 'group key of line 9 changed (group 2 loses a member)',
      change: (d) => {
        const c = at(d, 8, '"group_index": 2') + 15;
        return { range: { start: { line: 8, character: c }, end: { line: 8, character: c + 1 } }, text: '7' };
      },
    },
    { name: 'line 3 made invalid JSON', change: () => ({ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 1 } }, text: '[' }) },
    { name: 'line 3 mended', change: () => ({ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 1 } }, text: '{' }) },
    {
      name: 'two lines inserted before line 5 (lines after shift)',
      change: () => ({
        range: { start: { line: 4, character: 0 }, end: { line: 4, character: 0 } },
        text: `${milesSample({ group: 5, index: 50 })}\n${milesSample({ group: 5, index: 51, status: 'aborted', exitStatus: 'SandboxUnavailable' })}\n`,
      }),
    },
    { name: 'lines 2-3 deleted', change: () => ({ range: { start: { line: 1, character: 0 }, end: { line: 3, character: 0 } }, text: '' }) },
    {
      name: 'last line cut short without its newline (a line still being written)',
      change: (d) => {
        const last = d.lineCount - 1;
        return { range: { start: { line: last - 1, character: d.getText().split('\n')[last - 1].length - 10 }, end: { line: last, character: 0 } }, text: '' };
      },
    },
  ];
}

async function freshDiagnostics(dir: string, uri: string, text: string, version: number): Promise<{ diags: Diagnostic[]; hover: Hover | null }> {
  return withHarness({ workspaceFolders: [dir], settings: () => SETTINGS }, async (h) => {
    h.open(uri, text, version);
    const diags = await h.diagnostics(uri, (_d, p) => p.version === version);
    const hover = (await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 2 } })) as Hover | null;
    return { diags, hover };
  });
}

test('incremental sync: after each one-line edit the diagnostics and hover equal a fresh full analysis of the edited text', async () => {
  const ws = tempWorkspace();
  const uri = ws.uri('rollout_1.jsonl');
  const text = `${rolloutLines().join('\n')}\n`;
  await withHarness({ workspaceFolders: [ws.dir], settings: () => SETTINGS }, async (h) => {
    assert.equal((h.init.capabilities.textDocumentSync as { change?: number }).change, 2, 'the server asks for incremental changes');
    const mirror = TextDocument.create(uri, 'jsonl', 1, text);
    h.open(uri, text, 1);
    const initial = await h.diagnostics(uri, (_d, p) => p.version === 1);
    let previous = JSON.stringify(initial.map((d) => [d.code, d.range.start.line]));
    let version = 1;
    for (const edit of edits(mirror)) {
      const change = edit.change(mirror);
      version++;
      TextDocument.update(mirror, [change], version);
      const since = h.published.length;
      await h.client.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
      const diags = await h.diagnostics(uri, (_d, p) => p.version === version, since);
      const hover = (await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 2 } })) as Hover | null;
      const fresh = await freshDiagnostics(ws.dir, uri, mirror.getText(), version);
      assert.deepEqual(diags, fresh.diags, edit.name);
      assert.deepEqual(hover, fresh.hover, `hover after: ${edit.name}`);
      // Each edit changed the findings or where they are (else the comparison would prove little).
      const now = JSON.stringify(diags.map((d) => [d.code, d.range.start.line]));
      assert.notEqual(now, previous, `${edit.name} changed the diagnostics`);
      previous = now;
    }
  });
});
