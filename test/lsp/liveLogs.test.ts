// Live logs: a file analysed through `analyzeFile` is tailed while it grows, on real files in a
// temp dir. Appends are read from where the last read stopped (counted through the FileAccess
// the server is handed), a line split across writes is neither an error nor lost, and after
// appends, truncation and replacement the server's groups equal a one-shot engine run on the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { analyzeFiles } from '../../server/src/core/engine';
import type { FileAccess } from '../../server/src/core/seams/fileAccess';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';
import { AnalyzeFileRequest, DEFAULT_SETTINGS, GroupsByCauseRequest, type GroupsByCauseResult } from '../../shared/protocol';
import { tempWorkspace } from './fixtures';
import { type Harness, inWorkspace } from './harness';
import { dropMetrics } from '../shared/dropMetrics';
import { groupLines } from '../reliability/helpers';
import { readThrough } from '../shared/readThrough';

/** nodeFileAccess that counts the bytes read per path. */
function countingAccess(): { access: FileAccess; bytesRead: Map<string, number> } {
  const bytesRead = new Map<string, number>();
  const access = readThrough(async (path, next) => {
    const n = await next();
    bytesRead.set(path, (bytesRead.get(path) ?? 0) + n);
    return n;
  });
  return { access, bytesRead };
}

type Summary = { dropped: number; kept: number; metrics: Record<string, number>; keys: string[] };

/** What a one-shot engine run (the CLI's path) says about the file as it is now. */
async function oneShot(path: string): Promise<Summary> {
  const report = await analyzeFiles([{ path, displayPath: path }], { access: nodeFileAccess, settings: DEFAULT_SETTINGS, keepDetail: true });
  const f = report.files[0];
  return { dropped: f.groups.dropped, kept: f.groups.kept, metrics: dropMetrics(f.metrics), keys: (f.detail?.groups ?? []).map((g) => g.key).sort() };
}

async function served(h: Harness, uri: string): Promise<Summary> {
  const result = (await h.client.sendRequest(GroupsByCauseRequest, { uri })) as GroupsByCauseResult;
  const f = result.files[0];
  const metrics: Record<string, number> = {};
  for (const b of f.buckets) if (b.metric) metrics[b.metric] = b.groups.length + (b.omitted ?? 0);
  return { dropped: f.dropped, kept: f.kept, metrics, keys: f.buckets.flatMap((b) => b.groups.map((g) => g.key)).sort() };
}

/** Waits until the server's view of the file equals the one-shot analysis: re-checked after each analysisChanged, bounded. */
async function settle(h: Harness, uri: string, path: string, expected: Summary): Promise<void> {
  const deadline = Date.now() + 15_000;
  let last: Summary | undefined;
  for (;;) {
    const seen = h.changes.length;
    last = await served(h, uri);
    if (isDeepStrictEqual(last, expected)) break;
    if (Date.now() > deadline) break;
    await h.waitFor(`a new analysis of ${path}`, () => (h.changes.length > seen ? true : undefined), Math.max(1, deadline - Date.now())).catch(() => undefined);
  }
  assert.deepEqual(last, expected);
}

function touched(h: Harness, uri: string): void {
  void h.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 2 }] });
}

test('append, a line split across writes, truncation and replacement: nothing lost or counted twice; appends resume', async () => {
  const ws = tempWorkspace('rl-live-');
  const { access, bytesRead } = countingAccess();
  await inWorkspace(ws, { runtime: { access } }, async (h) => {
    const path = ws.path('rollout_7.jsonl');
    const uri = pathToFileURL(path).href;
    // Groups 0-4 complete, and the first half of group 5's first line (still being written).
    const first = groupLines(0, 5);
    const nextLines = groupLines(5, 9);
    const half = Math.floor(nextLines[0].length / 2);
    writeFileSync(path, `${first.join('\n')}\n${nextLines[0].slice(0, half)}`);
    await h.client.sendRequest(AnalyzeFileRequest, { uri });
    const firstDiags = await h.diagnostics(uri, (d) => d.length > 0);
    const partial = firstDiags.find((d) => d.code === 'truncated-line');
    assert.ok(partial, 'the unfinished last line is reported as still being written');
    assert.equal(partial.severity, 3, 'information, not an error');
    assert.equal(firstDiags.filter((d) => d.severity === 1).length, 0);
    assert.deepEqual(await served(h, uri), await oneShot(path));

    // The writer finishes the line and adds more groups, in two writes.
    const readBefore = bytesRead.get(path) ?? 0;
    const rest = `${nextLines[0].slice(half)}\n${nextLines.slice(1, 6).join('\n')}\n`;
    appendFileSync(path, rest.slice(0, 1000));
    touched(h, uri);
    appendFileSync(path, rest.slice(1000));
    touched(h, uri);
    await settle(h, uri, path, await oneShot(path));
    const diags = await h.diagnostics(uri, (d) => !d.some((x) => x.code === 'truncated-line'));
    assert.ok(diags.every((d) => d.code === 'group-dropped'));
    const reread = (bytesRead.get(path) ?? 0) - readBefore;
    // Resumed: the appended bytes, the pending half line and a 256-byte check per update, not the whole file again.
    assert.ok(reread < Buffer.byteLength(rest) + 3 * (half + 1024), `re-read ${reread} bytes for a ${Buffer.byteLength(rest)}-byte append`);

    // Truncated in place to its first two groups: read again from the start.
    writeFileSync(path, `${groupLines(0, 2).join('\n')}\n`);
    touched(h, uri);
    await settle(h, uri, path, await oneShot(path));

    // Replaced by another file of the same name (new identity), bigger than before.
    const tmp = ws.write('incoming.tmp', `${groupLines(10, 17).join('\n')}\n`);
    renameSync(tmp, path);
    touched(h, uri);
    await settle(h, uri, path, await oneShot(path));
  });
});

test('poll fallback: without any watch event, a growing file is picked up by polling', async () => {
  const ws = tempWorkspace('rl-poll-');
  await inWorkspace(ws, { runtime: { pollIntervalMs: 25 } }, async (h) => {
    const path = ws.path('rollout_8.jsonl');
    const uri = pathToFileURL(path).href;
    writeFileSync(path, `${groupLines(0, 1).join('\n')}\n`);
    await h.client.sendRequest(AnalyzeFileRequest, { uri });
    appendFileSync(path, `${groupLines(1, 5).join('\n')}\n`);
    await settle(h, uri, path, await oneShot(path));
    const diags = await h.diagnostics(uri, (d) => d.length === 2);
    assert.deepEqual(
      diags.map((d) => d.code),
      ['group-dropped', 'group-dropped'],
    );
  });
});

test('a tailed file that is deleted stops being tailed and its diagnostics are cleared', async () => {
  const ws = tempWorkspace('rl-del-');
  await inWorkspace(ws, {}, async (h) => {
    const path = ws.path('rollout_9.jsonl');
    const uri = pathToFileURL(path).href;
    writeFileSync(path, `${groupLines(0, 3).join('\n')}\n`);
    await h.client.sendRequest(AnalyzeFileRequest, { uri });
    await h.diagnostics(uri, (d) => d.length > 0);
    const mark = h.published.length;
    unlinkSync(path);
    void h.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 3 }] });
    await h.diagnostics(uri, (d) => d.length === 0, mark);
    const result = (await h.client.sendRequest(GroupsByCauseRequest, {})) as GroupsByCauseResult;
    assert.deepEqual(result.files, [], 'no longer among the analysed files');
  });
});
