// The server stays up: an internal error in one handler is logged and answered with an error,
// and the next request works; requests in odd orders and cancelled requests do no harm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CancellationTokenSource, ResponseError, type Hover } from 'vscode-languageserver-protocol';
import { GroupsByCauseRequest, RunStepsRequest } from '../../shared/protocol';
import { rolloutLines, tempWorkspace } from './fixtures';
import { inWorkspace } from './harness';

test('a handler that throws answers InternalError, logs the error, and the next request works', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('r.jsonl');
    await h.openAndWait(uri, `${rolloutLines().join('\n')}\n`);
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
  });
});

test('requests before didOpen, for unknown documents, and after close answer empty results', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('later.jsonl');
    assert.equal(await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } }), null);
    assert.deepEqual(await h.client.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }), []);
    await h.openAndWait(uri, `${rolloutLines().join('\n')}\n`);
    h.close(uri);
    assert.equal(await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 5, character: 0 } }), null);
  });
});

test('a hover cancelled while its document is being re-analysed answers RequestCancelled; the document still settles', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, { runtime: { debounceMs: 300 } }, async (h) => {
    const uri = ws.uri('c.jsonl');
    await h.openAndWait(uri, `${rolloutLines().join('\n')}\n`);
    h.change(uri, 2, `${rolloutLines('changed').join('\n')}\n`);
    // The hover waits for version 2's analysis (300 ms debounce); cancel it first.
    const source = new CancellationTokenSource();
    const pending = h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 5, character: 0 } }, source.token);
    source.cancel();
    await assert.rejects(pending, (e: unknown) => e instanceof ResponseError && e.code === -32800);
    await h.diagnostics(uri, (_d, p) => p.version === 2);
  });
});
