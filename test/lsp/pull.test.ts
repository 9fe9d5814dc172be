// Pull diagnostics (`textDocument/diagnostic`) for clients that support them: the server
// announces a diagnostic provider, answers pulls (waiting for the debounced analysis), reports
// `unchanged` for the same result, never pushes for pulled documents, and asks for a refresh
// when results change without an edit (settings).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DocumentDiagnosticReport, FullDocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { milesSample, rolloutLines, tempWorkspace } from './fixtures';
import { type Harness, inWorkspace, PULL_CAPS, withHarness } from './harness';

function pull(h: Harness, uri: string, previousResultId?: string): Promise<DocumentDiagnosticReport> {
  return h.client.sendRequest('textDocument/diagnostic', { textDocument: { uri }, previousResultId }) as Promise<DocumentDiagnosticReport>;
}

test('pull: provider announced; a pull right after didOpen waits for the analysis; same result → unchanged; no push', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, { capabilities: PULL_CAPS, runtime: { debounceMs: 50 } }, async (h) => {
    assert.deepEqual(h.init.capabilities.diagnosticProvider, { identifier: 'rollout-lens', interFileDependencies: true, workspaceDiagnostics: false });
    const uri = ws.uri('rollout_1.jsonl');
    h.open(uri, `${rolloutLines().join('\n')}\n`);
    const first = (await pull(h, uri)) as FullDocumentDiagnosticReport;
    assert.equal(first.kind, 'full');
    assert.ok(first.items.some((d) => d.code === 'group-dropped' && d.source === 'rollout-lens'));
    assert.ok(first.resultId);
    const again = await pull(h, uri, first.resultId);
    assert.deepEqual(again, { kind: 'unchanged', resultId: first.resultId });
    // An edit: the next pull answers for the new version.
    h.change(
      uri,
      2,
      `${rolloutLines()
        .filter((_, i) => i !== 5)
        .join('\n')}\n`,
    );
    const second = (await pull(h, uri, first.resultId)) as FullDocumentDiagnosticReport;
    assert.equal(second.kind, 'full');
    assert.ok(!second.items.some((d) => d.code === 'group-dropped'));
    assert.equal(h.published.filter((p) => p.uri === uri).length, 0, 'a pulling client gets no push for its documents');
  });
});

test('pull: a settings change re-analyses and asks the client to refresh (workspace/diagnostic/refresh)', async () => {
  const ws = tempWorkspace();
  let settings: Record<string, unknown> = {};
  await inWorkspace(ws, { capabilities: PULL_CAPS, settings: () => settings }, async (h) => {
    const uri = ws.uri('rollout_z.jsonl');
    // One group of equal rewards: dropped only when the dynamic filter is on.
    const lines = [0, 1, 2, 3].map((i) => milesSample({ group: 0, index: i, reward: '1.0' }));
    h.open(uri, `${lines.join('\n')}\n`);
    const before = (await pull(h, uri)) as FullDocumentDiagnosticReport;
    assert.ok(!before.items.some((d) => d.code === 'zero-std-group'));
    settings = { dynamicFilter: 'check_reward_nonzero_std' };
    const refreshes = h.refreshes;
    void h.client.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await h.waitFor('a diagnostic refresh', () => (h.refreshes > refreshes ? true : undefined));
    const after = (await pull(h, uri, before.resultId)) as FullDocumentDiagnosticReport;
    assert.equal(after.kind, 'full');
    const zero = after.items.find((d) => d.code === 'zero-std-group');
    assert.ok(zero, 'zero-std-group after the dynamic filter is switched on');
    assert.match(String(zero.message), /^group dropped: zero_std_1\.0/);
  });
});

test('pull for a document that is not open, or not a log, answers an empty full report', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, { capabilities: PULL_CAPS }, async (h) => {
    assert.deepEqual(await pull(h, ws.uri('never-opened.jsonl')), { kind: 'full', items: [] });
    h.open(ws.uri('notes.txt'), 'hello', 1, 'plaintext');
    assert.deepEqual(await pull(h, ws.uri('notes.txt')), { kind: 'full', items: [] });
  });
});

test('push clients do not get a diagnostic provider', async () => {
  await withHarness({}, async (h) => {
    assert.equal(h.init.capabilities.diagnosticProvider, undefined);
  });
});
