// The server stays up: an internal error in one handler is logged and answered with an error,
// and the next request works; requests in odd orders and cancelled requests do no harm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CancellationTokenSource, ResponseError, type Hover } from 'vscode-languageserver-protocol';
import { GroupsByCauseRequest, RunStepsRequest } from '../../shared/protocol';
import { rolloutLines, tempWorkspace } from './fixtures';
import { startHarness } from './harness';

test('a handler that throws answers InternalError, logs the error, and the next request works', async () => {
  const ws = tempWorkspace();
  const h = await startHarness({ workspaceFolders: [ws.dir] });
  try {
    const uri = ws.uri('r.jsonl');
    h.open(uri, `${rolloutLines().join('\n')}\n`);
    await h.diagnostics(uri, (d) => d.length > 0);
    // Malformed params make the hover handler throw (no textDocument).
    await assert.rejects(
      h.client.sendRequest('textDocument/hover', { position: { line: 0, character: 0 } }),
      (e: unknown) => e instanceof ResponseError && e.code === -32603 && /hover failed/.test(e.message),
    );
    await h.waitFor('the error in the log', () => h.logs.find((l) => l.type === 1 && l.message.startsWith('rollout-lens: hover failed: TypeError')));
    await assert.rejects(h.client.sendRequest(RunStepsRequest.method, {}), (e: unknown) => e instanceof ResponseError && e.code === -32602);
    await assert.rejects(h.client.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: null, context: null }), ResponseError);
    const hover = (await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 5, character: 0 } })) as Hover;
    assert.ok(hover, 'the next hover works');
    const groups = await h.client.sendRequest(GroupsByCauseRequest, { uri: ws.uri('missing.jsonl') }).catch((e: unknown) => e);
    assert.ok(groups instanceof ResponseError, 'a missing file is an error answer, not a crash');
    assert.ok((await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } })) !== null);
  } finally {
    await h.stop();
    ws.remove();
  }
});

test('requests before didOpen, for unknown documents, and after close answer empty results', async () => {
  const ws = tempWorkspace();
  const h = await startHarness({ workspaceFolders: [ws.dir] });
  try {
    const uri = ws.uri('later.jsonl');
    assert.equal(await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } }), null);
    assert.deepEqual(await h.client.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }), []);
    h.open(uri, `${rolloutLines().join('\n')}\n`);
    await h.diagnostics(uri, (d) => d.length > 0);
    h.close(uri);
    assert.equal(await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 5, character: 0 } }), null);
  } finally {
    await h.stop();
    ws.remove();
  }
});

test('a hover cancelled while its document is being re-analysed answers RequestCancelled; the document still settles', async () => {
  const ws = tempWorkspace();
  const h = await startHarness({ workspaceFolders: [ws.dir], runtime: { debounceMs: 300 } });
  try {
    const uri = ws.uri('c.jsonl');
    h.open(uri, `${rolloutLines().join('\n')}\n`);
    await h.diagnostics(uri, (d) => d.length > 0);
    h.change(uri, 2, `${rolloutLines('changed').join('\n')}\n`);
    // The hover waits for version 2's analysis (300 ms debounce); cancel it first.
    const source = new CancellationTokenSource();
    const pending = h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 5, character: 0 } }, source.token);
    source.cancel();
    await assert.rejects(pending, (e: unknown) => e instanceof ResponseError && e.code === -32800);
    await h.diagnostics(uri, (_d, p) => p.version === 2);
  } finally {
    await h.stop();
    ws.remove();
  }
});
