// Run-level findings in the editor (docs/editors.md#run-level-findings): an open metrics log is
// compared with what the other files of its run recompute, as `check <run folder>` does. Opened
// alone it gets check's metric-mismatch findings; editing the eval dump (unsaved) or changing it on
// disk gives the findings check gives for the edited run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver';
import { checkRun, diagnosticLines, findingLines } from '../shared/checkRun';
import { repoRoot, tempWorkspace } from './fixtures';
import type { FileAccess } from '../../server/src/core/seams/fileAccess';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';
import { copyExampleRun, editedEvalDump, findingsAfterEdit } from '../shared/exampleRun';
import { type Harness, inWorkspace, PULL_CAPS } from './harness';

function expectedAfterEdit(ws: { path(name: string): string }, run: string): string[] {
  return findingsAfterEdit(run, ws.path('edited'), join(run, 'metrics.jsonl'));
}

function same(expected: string[]): (d: Diagnostic[]) => boolean {
  return (d) => JSON.stringify(diagnosticLines(d)) === JSON.stringify(expected);
}

/** The diagnostics published for `uri` once they equal `expected` (or the last ones, compared, on a timeout). */
async function publishedAs(h: Harness, uri: string, expected: string[], since = 0): Promise<string[]> {
  try {
    return diagnosticLines(await h.diagnostics(uri, same(expected), since));
  } catch (err) {
    const last = h.published.filter((p) => p.uri === uri).at(-1);
    assert.deepEqual(diagnosticLines(last?.diagnostics ?? []), expected, String(err));
    throw err;
  }
}

test("an open metrics log gets check's metric-mismatch findings; unsaved edits of the eval dump or of the log change them as check says", async () => {
  const ws = tempWorkspace('rl-runlevel-');
  const run = copyExampleRun(ws.path('run'));
  await inWorkspace(ws, { workspaceFolders: [], settings: () => ({}) }, async (h) => {
    const metrics = join(run, 'metrics.jsonl');
    const metricsUri = pathToFileURL(metrics).href;
    const expected = findingLines(checkRun(run), metrics);
    assert.ok(expected.length >= 2 && expected.every((l) => l.startsWith('metric-mismatch\t0\t')), expected.join('\n'));
    h.open(metricsUri, readFileSync(metrics, 'utf8'));
    assert.deepEqual(await publishedAs(h, metricsUri, expected), expected);
    const diags = h.published.filter((p) => p.uri === metricsUri).at(-1)!.diagnostics;
    const related = diags.flatMap((d) => d.relatedInformation ?? []).map((r) => r.location.uri);
    assert.ok(related.includes(pathToFileURL(join(run, 'eval/eval_100.jsonl')).href), related.join(', '));

    // The eval dump opened, then edited without saving: the metrics log follows the document.
    const dump = join(run, 'eval/eval_100.jsonl');
    const dumpUri = pathToFileURL(dump).href;
    const text = readFileSync(dump, 'utf8');
    await h.openAndWait(dumpUri, text);
    const after = expectedAfterEdit(ws, run);
    assert.notDeepEqual(after, expected, 'the edit changes what check finds');
    const before = h.published.length;
    h.change(dumpUri, 2, editedEvalDump(text));
    assert.deepEqual(await publishedAs(h, metricsUri, after, before), after);

    // Closed without saving: the file on disk counts again.
    const beforeClose = h.published.length;
    h.close(dumpUri);
    assert.deepEqual(await publishedAs(h, metricsUri, expected, beforeClose), expected);

    // The metrics log itself edited: a record of another step inserted above moves its findings down.
    const logged = readFileSync(metrics, 'utf8');
    const moved = `${logged.split('\n')[0].replace('"step": 100', '"step": 99')}\n${logged}`;
    const copy = copyExampleRun(ws.path('moved'));
    writeFileSync(join(copy, 'metrics.jsonl'), moved);
    const expectedMoved = findingLines(checkRun(copy), join(copy, 'metrics.jsonl')).map((l) => l.split(copy).join(run));
    assert.ok(expectedMoved.length === expected.length && expectedMoved.every((l) => l.startsWith('metric-mismatch\t1\t')), expectedMoved.join('\n'));
    const beforeMove = h.published.length;
    h.change(metricsUri, 2, moved);
    assert.deepEqual(await publishedAs(h, metricsUri, expectedMoved, beforeMove), expectedMoved);
  });
});

test('a pulling client: the metrics log is refreshed when the eval dump changes on disk (watched-file event)', async () => {
  const ws = tempWorkspace('rl-runlevel-');
  const run = copyExampleRun(ws.path('run'));
  await inWorkspace(ws, { workspaceFolders: [], capabilities: PULL_CAPS, settings: () => ({}) }, async (h) => {
    const metrics = join(run, 'metrics.jsonl');
    const uri = pathToFileURL(metrics).href;
    const expected = findingLines(checkRun(run), metrics);
    const after = expectedAfterEdit(ws, run);
    h.open(uri, readFileSync(metrics, 'utf8'));
    const pull = async () => {
      const r = (await h.client.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as { items: Diagnostic[] };
      return diagnosticLines(r.items);
    };
    // Pulled until it shows `want`: the run's other files are read after the log itself, and each
    // new result for the same version comes with a refresh request.
    const pullUntil = async (want: string[]) => {
      for (;;) {
        const seen = h.refreshes;
        const got = await pull();
        if (JSON.stringify(got) === JSON.stringify(want)) return got;
        try {
          await h.waitFor('a diagnostic refresh', () => (h.refreshes > seen ? true : undefined));
        } catch (err) {
          assert.deepEqual(got, want, String(err));
          throw err;
        }
      }
    };
    assert.deepEqual(await pullUntil(expected), expected);

    const dump = join(run, 'eval/eval_100.jsonl');
    writeFileSync(dump, editedEvalDump(readFileSync(dump, 'utf8')));
    void h.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(dump).href, type: 2 }] });
    const got = await pullUntil(after);
    assert.deepEqual(got, after);
  });
});

test('members are read once and cached: an edit of the metrics log does not read the eval dump again; its change on disk does, once; deleted and created files count', async () => {
  const ws = tempWorkspace('rl-runlevel-');
  const run = copyExampleRun(ws.path('run'));
  const opened = new Map<string, number>();
  const access: FileAccess = {
    ...nodeFileAccess,
    open(path) {
      opened.set(path, (opened.get(path) ?? 0) + 1);
      return nodeFileAccess.open(path);
    },
  };
  await inWorkspace(ws, { workspaceFolders: [], settings: () => ({}), runtime: { access } }, async (h) => {
    const metrics = join(run, 'metrics.jsonl');
    const uri = pathToFileURL(metrics).href;
    const dump = join(run, 'eval/eval_100.jsonl');
    const expected = findingLines(checkRun(run), metrics);
    const text = readFileSync(metrics, 'utf8');
    h.open(uri, text);
    await publishedAs(h, uri, expected);
    // One read of a file opens it a few times (format sniff, lines, tail hash): a read's count.
    // The dump's figures are in the diagnostics, so its read is over (other files may still be
    // read in the background: their counts are not looked at).
    const once = opened.get(dump) ?? 0;
    assert.ok(once > 0, 'the eval dump was read');

    const before = h.published.length;
    h.change(uri, 2, `${text}\n`);
    await h.diagnostics(uri, (_d, p) => p.version === 2, before);
    assert.deepEqual(diagnosticLines(h.published.at(-1)!.diagnostics), expected);
    assert.equal(opened.get(dump), once, 'an edit of the metrics log does not read the eval dump again');

    const after = expectedAfterEdit(ws, run);
    writeFileSync(dump, editedEvalDump(readFileSync(dump, 'utf8')));
    void h.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(dump).href, type: 2 }] });
    assert.deepEqual(await publishedAs(h, uri, after, h.published.length), after);
    assert.equal(opened.get(dump), 2 * once, 'the changed file is read again, once');

    // Deleted, then created again: the run is listed again each time.
    const saved = readFileSync(dump, 'utf8');
    rmSync(dump);
    const without = findingLines(checkRun(run), metrics);
    assert.notDeepEqual(without, after);
    void h.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(dump).href, type: 3 }] });
    assert.deepEqual(await publishedAs(h, uri, without, h.published.length), without);
    writeFileSync(dump, saved);
    void h.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(dump).href, type: 1 }] });
    assert.deepEqual(await publishedAs(h, uri, after, h.published.length), after);
  });
});

test("a trajectory sidecar shows check's findings from its step's .pt, and follows the .pt on disk", async () => {
  const ws = tempWorkspace('rl-runlevel-');
  const run = ws.path('run');
  cpSync(join(repoRoot(), 'test/fixtures/pt/run'), run, { recursive: true });
  await inWorkspace(ws, { workspaceFolders: [], settings: () => ({}) }, async (h) => {
    const sidecar = join(run, 'trajectory/1.jsonl');
    const uri = pathToFileURL(sidecar).href;
    // The sidecar checked alone (in the folder it only annotates its step, core/run/plan.ts): its
    // verdicts come from the .pt on disk, as the editor's do.
    const expected = findingLines(checkRun(sidecar), sidecar);
    assert.ok(expected.some((l) => l.startsWith('trajectory-verdicts-from-pt\t')));
    assert.deepEqual(findingLines(checkRun(run), sidecar), [], 'in its folder the sidecar is not read as a step');
    h.open(uri, readFileSync(sidecar, 'utf8'));
    assert.deepEqual(await publishedAs(h, uri, expected), expected);

    // The .pt removed: the sidecar is analysed alone, as check then does.
    const pt = join(run, 'rollout_data/1.pt');
    rmSync(pt);
    const alone = findingLines(checkRun(run), sidecar);
    assert.ok(!alone.some((l) => l.startsWith('trajectory-verdicts-from-pt\t')));
    assert.ok(
      alone.some((l) => l.startsWith('partial-step\t0\t3\t')),
      alone.join('\n'),
    );
    const before = h.published.length;
    void h.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(pt).href, type: 3 }] });
    assert.deepEqual(await publishedAs(h, uri, alone, before), alone);
  });
});
