// Push diagnostics through a real in-process LSP connection: open a rollout log, get its findings
// as diagnostics with the full shape the issue asks for; edits re-analyse (debounced, stale
// versions never published after newer ones); close clears.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-protocol';
import { DOCS_BASE } from '../../shared/protocol';
import { rolloutLines, tempWorkspace } from './fixtures';
import { inWorkspace } from './harness';

function byCode(diags: Diagnostic[], code: string): Diagnostic[] {
  return diags.filter((d) => d.code === code);
}

test('didOpen → group-dropped diagnostic: source, code, docs href, severity, whole-line range, related members, data', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const text = `${rolloutLines().join('\n')}\n`;
    const uri = ws.uri('rollout_1.jsonl');
    ws.write('rollout_1.jsonl', text);
    const diags = await h.openAndWait(uri, text);
    const [dropped] = byCode(diags, 'group-dropped');
    assert.ok(dropped, `no group-dropped in ${JSON.stringify(diags.map((d) => d.code))}`);
    assert.equal(dropped.source, 'rollout-lens');
    assert.equal(dropped.codeDescription?.href, `${DOCS_BASE}#group-dropped`);
    assert.equal(dropped.severity, DiagnosticSeverity.Warning);
    assert.match(String(dropped.message), /^group dropped: group_has_aborted_ServerUnreachable/);
    // Line 6 (1-based) holds the aborted sample: range = that whole line.
    const line6 = text.split('\n')[5];
    assert.deepEqual(dropped.range, { start: { line: 5, character: 0 }, end: { line: 5, character: line6.length } });
    // The other three members of group 1 (lines 5, 7, 8) are related.
    assert.deepEqual(dropped.relatedInformation?.map((r) => r.location.range.start.line).sort(), [4, 6, 7]);
    for (const r of dropped.relatedInformation ?? []) {
      assert.equal(r.location.uri, uri);
      assert.match(r.message, /^member of group 1/);
    }
    assert.deepEqual(dropped.data, { fix: null, configUri: null, group: '1', dataset: null, globalValue: null });
    // The infrastructure cause was aborted: no infra-failure-scored; the version is the document's.
    assert.equal(byCode(diags, 'infra-failure-scored').length, 0);
    assert.equal(h.published.at(-1)?.version, 1);
  });
});

test('edits are debounced and stale analyses cancelled: published versions only increase and end at the last edit', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, { runtime: { debounceMs: 100 } }, async (h) => {
    const lines = rolloutLines();
    const uri = ws.uri('rollout_2.jsonl');
    await h.openAndWait(uri, `${lines.join('\n')}\n`);
    const before = h.published.length;
    // 20 quick edits: each removes the aborted sample or restores it; the last (v21) has no abort.
    for (let v = 2; v <= 21; v++) {
      const text = v % 2 === 1 ? lines.filter((_, i) => i !== 5).join('\n') : lines.join('\n');
      h.change(uri, v, `${text}\n`);
    }
    const final = await h.diagnostics(uri, (_d, p) => p.version === 21, before);
    assert.equal(byCode(final, 'group-dropped').length, 0, 'the last version has no aborted sample');
    const versions = h.published
      .slice(before)
      .filter((p) => p.uri === uri)
      .map((p) => p.version ?? 0);
    assert.deepEqual(
      versions,
      [...versions].sort((a, b) => a - b),
      `versions out of order: ${versions}`,
    );
    assert.ok(versions.length < 20, `debounce should coalesce 20 quick edits, published ${versions.length} times`);
  });
});

test('closing a document clears its diagnostics (push mode)', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('rollout_3.jsonl');
    await h.openAndWait(uri, `${rolloutLines().join('\n')}\n`);
    const before = h.published.length;
    h.close(uri);
    await h.diagnostics(uri, (d) => d.length === 0, before);
  });
});

test('a document that is not JSONL (by language id and extension) gets no analysis', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const other = ws.uri('notes.md');
    const log = ws.uri('rollout_4.jsonl');
    h.open(other, 'not a log', 1, 'markdown');
    await h.openAndWait(log, `${rolloutLines().join('\n')}\n`);
    assert.equal(h.published.filter((p) => p.uri === other).length, 0);
  });
});

test('a client that announces neither related information nor code descriptions gets diagnostics without them', async () => {
  const ws = tempWorkspace();
  await inWorkspace(
    ws,
    {
      capabilities: { textDocument: { publishDiagnostics: {} } },
      settings: () => ({ nSamplesPerPrompt: 4 }),
    },
    async (h) => {
      const uri = ws.uri('a.jsonl');
      const got = await h.openAndWait(uri, `${rolloutLines().join('\n')}\n`, (d) => d.some((x) => x.code === 'group-dropped'));
      assert.ok(got.every((d) => d.relatedInformation === undefined && d.codeDescription === undefined));
    },
  );
});
