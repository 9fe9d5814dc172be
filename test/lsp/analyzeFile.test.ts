// `rolloutLens/analyzeFile` on a file bigger than VS Code ever syncs (52,428,800 UTF-16 chars):
// streamed from disk with `$/progress` reports, diagnostics pushed, cancellable; bad requests
// answered with errors.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ResponseError, type ProgressToken } from 'vscode-languageserver-protocol';
import { AnalyzeFileRequest, type AnalyzeFileResult } from '../../shared/protocol';
import { tempWorkspace, VSCODE_SYNC_LIMIT, writeBigRollout, type TempWorkspace } from './fixtures';
import { withHarness } from './harness';
import { DeflateThread } from '../../server/src/node/deflateThread';

let ws: TempWorkspace;
let big: { path: string; bytes: number; lines: number; groups: number };

before(() => {
  ws = tempWorkspace('rl-big-');
  const path = ws.path('rollout_big.jsonl');
  big = { path, ...writeBigRollout(path, VSCODE_SYNC_LIMIT + 1024 * 1024) };
});
after(() => ws.remove());

test('analyzeFile on a >52,428,800-byte log: begin/report/end progress on the client token, result counts, diagnostics pushed', async () => {
  assert.ok(big.bytes > VSCODE_SYNC_LIMIT);
  await withHarness({ workspaceFolders: [ws.dir] }, async (h) => {
    const uri = pathToFileURL(big.path).href;
    const token: ProgressToken = 'big-file-1';
    const started = process.hrtime.bigint();
    const result = (await h.client.sendRequest(AnalyzeFileRequest, { uri, workDoneToken: token })) as AnalyzeFileResult;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    console.log(
      `analyzeFile: ${(big.bytes / 1048576).toFixed(1)} MB, ${big.lines} lines in ${ms.toFixed(0)} ms; rss ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`,
    );
    assert.equal(result.uri, uri);
    assert.equal(result.records, big.lines);
    assert.equal(result.invalidLines, 0);
    const aborted = Math.floor((big.groups - 4) / 10) + 1; // groups 3, 13, 23, ...
    assert.equal(result.findings, aborted, 'one group-dropped per group with an aborted sample');

    const mine = h.progress.filter((p) => p.token === token).map((p) => p.value);
    await h.waitFor('progress end', () => (h.progress.some((p) => p.token === token && p.value.kind === 'end') ? true : undefined));
    const kinds = h.progress.filter((p) => p.token === token).map((p) => p.value.kind);
    assert.equal(kinds[0], 'begin');
    assert.equal(kinds.at(-1), 'end');
    const reports = mine.filter((v) => v.kind === 'report');
    assert.ok(reports.length >= 10, `expected progress reports while streaming, got ${reports.length}`);
    assert.ok(reports.length <= 101, 'at most one report per percent');
    const percents = reports.map((r) => r.percentage ?? 0);
    assert.deepEqual(
      percents,
      [...percents].sort((a, b) => a - b),
      'percentages never go back',
    );

    const diags = await h.diagnostics(uri, (d) => d.length > 0);
    assert.equal(diags.length, aborted);
    assert.ok(diags.every((d) => d.code === 'group-dropped' && d.source === 'rollout-lens'));
    assert.equal(diags[0].range.start.line, 14, 'group 3, third sample: line 15');
  });
});

test('analyzeFile is cancellable: $/cancelRequest after the first progress report ends it with RequestCancelled', async () => {
  await withHarness({ workspaceFolders: [ws.dir] }, async (h) => {
    const uri = pathToFileURL(big.path).href;
    const source = new (await import('vscode-languageserver-protocol')).CancellationTokenSource();
    const pending = h.client.sendRequest(AnalyzeFileRequest, { uri, workDoneToken: 'big-cancel' }, source.token);
    await h.waitFor('first progress report', () => (h.progress.some((p) => p.token === 'big-cancel' && p.value.kind === 'report') ? true : undefined));
    source.cancel();
    await assert.rejects(pending, (err: unknown) => err instanceof ResponseError && err.code === -32800);
    assert.equal(h.published.filter((p) => p.uri === uri).length, 0, 'nothing published for a cancelled analysis');
    // The server still answers.
    await assert.rejects(h.client.sendRequest(AnalyzeFileRequest, { uri: pathToFileURL(ws.path('missing.jsonl')).href }), /cannot read/);
  });
});

test('analyzeFile rejects bad params and folders with InvalidParams', async () => {
  await withHarness({ workspaceFolders: [ws.dir] }, async (h) => {
    await assert.rejects(h.client.sendRequest(AnalyzeFileRequest.method, { uri: 42 }), (e: unknown) => e instanceof ResponseError && e.code === -32602);
    await assert.rejects(h.client.sendRequest(AnalyzeFileRequest, { uri: pathToFileURL(ws.dir).href }), /is not a file/);
  });
});

test("analyzeFile with the runtime's deflate thread: has_repetition tails handed to it, the same result and diagnostics", async (t) => {
  // miles' own file of long responses (repetitive or not, near the ratio 10), as 20 steps' worth of groups.
  const lines = readFileSync(join(__dirname, '../../../test/fixtures/real/miles/rollout/rollout_5.jsonl'), 'utf8').trim().split('\n');
  const path = ws.path('rollout_long.jsonl');
  const copies = Array.from({ length: 20 }, (_, k) => lines.map((l) => JSON.stringify({ ...(JSON.parse(l) as object), group_index: k })));
  writeFileSync(path, copies.flat().join('\n') + '\n');
  const uri = pathToFileURL(path).href;
  const answer = async (runtime: { deflate?: DeflateThread }) =>
    withHarness({ workspaceFolders: [ws.dir], runtime }, async (h) => {
      const result = await h.client.sendRequest(AnalyzeFileRequest, { uri });
      return { result, diagnostics: await h.diagnostics(uri, (d) => d.length > 0) };
    });
  const thread = new DeflateThread({ script: join(__dirname, '../../server/src/node/deflateWorker.js') });
  t.after(() => thread.close());
  await thread.warmUp();
  const shared = await answer({ deflate: thread });
  // Handed over: compressed there, or taken back at the scan's end when the thread had not started them.
  assert.ok(thread.compressed + thread.compressedHere > 0, 'tails went to the thread');
  assert.deepEqual(shared, await answer({}));
});
