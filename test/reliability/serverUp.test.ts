// The language server stays up, through the real protocol (in-process connection, real framing):
// bogus parameters for every request and notification, requests for unknown documents and
// out-of-range positions, edits to documents never opened, a cancellation storm, a client whose
// configuration answer fails, and an internal error inside a handler (an injected FileAccess that
// throws) — each answered or ignored, errors logged, and the next request works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { CancellationTokenSource, ResponseError, type Hover, type MarkupContent } from 'vscode-languageserver-protocol';

import type { FileAccess } from '../../server/src/core/seams/fileAccess';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';
import { AnalyzeFileRequest, EvalDatasetsRequest, GroupsByCauseRequest, RunStepsRequest, type GroupsByCauseResult } from '../../shared/protocol';
import { type Harness, PULL_CAPS, startHarness, withHarness } from '../lsp/harness';
import { groupLines, tempDir, write } from './helpers';

const TEXT = `${groupLines(0, 6).join('\n')}\n`;

/** 'ok' or the error code of the answer; fails if the request is not answered within 10 s. */
async function answered(h: Harness, method: string, params: unknown, source?: CancellationTokenSource): Promise<'ok' | number> {
  // No `undefined` token argument: the client would send it as a second positional parameter.
  const request = source ? h.client.sendRequest(method, params, source.token) : h.client.sendRequest(method, params);
  const pending = request.then(
    () => 'ok' as const,
    (e: unknown) => {
      assert.ok(e instanceof ResponseError, `${method}: answered with a protocol error, not ${String(e)}`);
      return e.code;
    },
  );
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${method} ${JSON.stringify(params)?.slice(0, 80)}`)), 10_000);
  });
  try {
    return await Promise.race([pending, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The server still works: a hover on a dropped group's line in a fresh document. */
async function stillWorks(h: Harness, dir: string, name: string): Promise<void> {
  const uri = pathToFileURL(`${dir}/${name}`).href;
  h.open(uri, TEXT);
  if (h.init.capabilities.diagnosticProvider) {
    const report = (await h.client.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as { items: { code: string }[] };
    assert.ok(report.items.some((x) => x.code === 'group-dropped'));
  } else {
    await h.diagnostics(uri, (d) => d.some((x) => x.code === 'group-dropped'));
  }
  const hover = (await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 4, character: 1 } })) as Hover;
  assert.match((hover.contents as MarkupContent).value, /^\*\*group `\d+` dropped: /);
}

const BOGUS: unknown[] = [
  null,
  42,
  'text',
  [],
  [1, 2],
  {},
  { textDocument: null },
  { textDocument: { uri: 5 } },
  { textDocument: { uri: 'not a uri' } },
  { textDocument: { uri: 'untitled:Untitled-1' }, position: { line: 0, character: 0 } },
  { textDocument: { uri: 'file:///nonexistent/x.jsonl' }, position: { line: -1, character: -1 } },
  { textDocument: { uri: 'file:///nonexistent/x.jsonl' }, position: { line: 1e12, character: 1e12 } },
  { textDocument: { uri: 'file:///etc/passwd' }, position: { line: 0, character: 0 }, range: { start: 5, end: 'x' }, context: { diagnostics: 'no' } },
  { uri: 7 },
  { uri: 'file:///nonexistent/dir/' },
  { folderUri: null },
  { folderUri: 'file:///proc/self' },
  { uri: 'file:///dev/zero' },
];

test('bogus params for every request (18 shapes × 8 methods) and odd notifications: each request answered (result or error), nothing hangs, the server keeps working', async (t) => {
  const dir = tempDir(t);
  // `/proc/self` leads to this process's working directory (`cwd`): run from an empty one, so the
  // answer does not depend on what sits in the checkout (after `npm run bench`, gigabytes of logs
  // under bench/.data, which a run-folder request then rightly analyses for longer than the bound).
  const cwd = process.cwd();
  process.chdir(dir);
  t.after(() => process.chdir(cwd));
  await withHarness({ workspaceFolders: [dir], capabilities: PULL_CAPS }, async (h) => {
    const methods = [
      'textDocument/hover',
      'textDocument/codeAction',
      'textDocument/documentSymbol',
      'textDocument/diagnostic',
      AnalyzeFileRequest.method,
      GroupsByCauseRequest.method,
      EvalDatasetsRequest.method,
      RunStepsRequest.method,
    ];
    let count = 0;
    for (const method of methods) {
      for (const params of BOGUS) {
        if (method === AnalyzeFileRequest.method && JSON.stringify(params)?.includes('/dev/zero')) continue; // a char device: stat says "not a file"; covered below
        const outcome = await answered(h, method, params);
        assert.ok(outcome === 'ok' || typeof outcome === 'number', `${method}`);
        count++;
      }
    }
    assert.equal(await answered(h, AnalyzeFileRequest.method, { uri: 'file:///dev/zero' }), -32602, '/dev/zero is not analysed (it never ends)');
    assert.equal(await answered(h, 'rolloutLens/noSuchRequest', {}), -32601, 'unknown request: MethodNotFound');
    assert.ok(count >= 140);

    // Notifications the server must survive: edits and closes of documents never opened, an open
    // without text, a range edit far outside the document, garbage watch events and settings.
    const ghost = pathToFileURL(`${dir}/ghost.jsonl`).href;
    void h.client.sendNotification('textDocument/didChange', { textDocument: { uri: ghost, version: 9 }, contentChanges: [{ text: 'x' }] });
    void h.client.sendNotification('textDocument/didClose', { textDocument: { uri: ghost } });
    void h.client.sendNotification('textDocument/didOpen', {
      textDocument: { uri: pathToFileURL(`${dir}/notext.jsonl`).href, languageId: 'jsonl', version: 1 },
    });
    void h.client.sendNotification('textDocument/didOpen', null);
    const open = pathToFileURL(`${dir}/open.jsonl`).href;
    h.open(open, TEXT);
    void h.client.sendNotification('textDocument/didChange', {
      textDocument: { uri: open, version: 2 },
      contentChanges: [{ range: { start: { line: 1e6, character: 1e6 }, end: { line: -4, character: 0 } }, text: '{"group_index": 1}\n' }],
    });
    void h.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: 5, type: 'x' }, null] });
    void h.client.sendNotification('workspace/didChangeWatchedFiles', { changes: 'none' });
    void h.client.sendNotification('workspace/didChangeConfiguration', {
      settings: { rolloutLens: { maxProblems: -5, fields: 3, dynamicFilter: 'everything' } },
    });
    void h.client.sendNotification('workspace/didChangeConfiguration', null);
    void h.client.sendNotification('$/cancelRequest', { id: 'nobody' });
    void h.client.sendNotification('$/setTrace', { value: 'verbose' });
    void h.client.sendNotification('rolloutLens/unknownNotification', { x: 1 });
    await stillWorks(h, dir, 'after-bogus.jsonl');
  });
});

test('a cancellation storm: 2000 requests cancelled at once or a tick later, interleaved with 300 edits → every request answered, the final version analysed, hover works', async (t) => {
  const dir = tempDir(t);
  await withHarness({ workspaceFolders: [dir], runtime: { debounceMs: 5 } }, async (h) => {
    const uri = pathToFileURL(`${dir}/storm.jsonl`).href;
    h.open(uri, TEXT);
    await h.diagnostics(uri, (d) => d.length > 0);
    const methods = ['textDocument/hover', 'textDocument/documentSymbol', GroupsByCauseRequest.method, 'textDocument/codeAction'];
    const pending: Promise<'ok' | number>[] = [];
    let version = 1;
    for (let i = 0; i < 2000; i++) {
      if (i % 7 === 0) h.change(uri, ++version, TEXT.replace(`"index": ${i % 24},`, `"index": ${i % 24}, "note": ${i},`));
      const source = new CancellationTokenSource();
      const method = methods[i % methods.length];
      const params =
        method === GroupsByCauseRequest.method
          ? { uri }
          : {
              textDocument: { uri },
              position: { line: i % 24, character: 2 },
              range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } },
              context: { diagnostics: [] },
            };
      pending.push(
        h.client.sendRequest(method, params, source.token).then(
          () => 'ok' as const,
          (e: ResponseError<unknown>) => e.code,
        ),
      );
      if (i % 2 === 0) source.cancel();
      else setImmediate(() => source.cancel());
    }
    const outcomes = await Promise.all(pending);
    const codes = new Set(outcomes.filter((o) => o !== 'ok'));
    for (const c of codes) assert.ok([-32800, -32802, -32801].includes(c as number), `only cancellation-type errors, got ${c}`);
    assert.ok(outcomes.filter((o) => o === -32800).length > 100, 'most were cancelled');
    await h.diagnostics(uri, (_d, p) => p.version === version);
    const hover = (await h.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 4, character: 1 } })) as Hover;
    assert.match((hover.contents as MarkupContent).value, /dropped/);
    assert.equal(h.logs.filter((l) => l.type === 1).length, 0, `no error logged: ${h.logs.map((l) => l.message).join('\n')}`);
  });
});

test('analyzeFile cancelled 8 times mid-read on a 16 MB log, then run to the end: each cancelled one answers RequestCancelled, the last one completes', async (t) => {
  const dir = tempDir(t);
  const lines = groupLines(0, 400);
  const block = `${lines.join('\n')}\n`;
  const path = write(dir, 'big.jsonl', block.repeat(Math.ceil((16 << 20) / block.length)));
  await withHarness({ workspaceFolders: [dir] }, async (h) => {
    const uri = pathToFileURL(path).href;
    for (let i = 0; i < 8; i++) {
      const source = new CancellationTokenSource();
      const pending = h.client.sendRequest(AnalyzeFileRequest, { uri }, source.token);
      const seen = h.progress.length;
      await h.waitFor('progress', () => (h.progress.length > seen + 1 ? true : undefined)).catch(() => undefined);
      source.cancel();
      await pending.then(
        () => undefined, // finished before the cancel arrived: allowed
        (e: ResponseError<unknown>) => assert.equal(e.code, -32800),
      );
    }
    const done = (await h.client.sendRequest(AnalyzeFileRequest, { uri })) as { records: number };
    assert.equal(done.records % lines.length, 0);
    assert.ok(done.records >= (16 << 20) / (block.length / lines.length) - lines.length);
  });
});

test('an internal error inside a handler (FileAccess throws a TypeError for one file) is logged and answered InternalError; the next request works', async (t) => {
  const dir = tempDir(t);
  const bad = write(dir, 'explode.jsonl', TEXT);
  const good = write(dir, 'fine.jsonl', TEXT);
  const access: FileAccess = {
    ...nodeFileAccess,
    async open(path) {
      if (path === bad) throw new TypeError('injected failure: cannot read property of undefined');
      return nodeFileAccess.open(path);
    },
  };
  await withHarness({ workspaceFolders: [dir], runtime: { access } }, async (h) => {
    for (const method of [GroupsByCauseRequest.method, AnalyzeFileRequest.method, EvalDatasetsRequest.method]) {
      const code = await answered(h, method, { uri: pathToFileURL(bad).href });
      assert.equal(code, -32603, `${method}: InternalError`);
      await h
        .waitFor(
          `${method} error logged`,
          () => h.logs.find((l) => l.type === 1 && l.message.includes('injected failure') && l.message.includes(method.split('/').pop()!)),
          2000,
        )
        .catch((e: Error) => assert.fail(`${e.message}; logs: ${JSON.stringify(h.logs.map((l) => [l.type, l.message.slice(0, 120)]))}`));
      const next = (await h.client.sendRequest(GroupsByCauseRequest, { uri: pathToFileURL(good).href })) as GroupsByCauseResult;
      assert.equal(next.files[0].dropped, 2, 'the next request works');
    }
    // A folder holding the failing file: the run view still lists the readable steps.
    const steps = await h.client.sendRequest(RunStepsRequest, { folderUri: pathToFileURL(dir).href }).then(
      (r) => r as { steps: { uri: string }[] },
      (e: ResponseError<unknown>) => e,
    );
    assert.ok(
      !(steps instanceof ResponseError),
      `runSteps over a folder with one unreadable file answers: ${steps instanceof ResponseError ? steps.message : ''}`,
    );
    assert.deepEqual(
      steps.steps.map((s) => s.uri),
      [pathToFileURL(good).href],
    );
    await stillWorks(h, dir, 'after-error.jsonl');
  });
});

test('a client whose workspace/configuration answer fails: analysis runs with defaults, the problem is logged once, the server keeps working', async (t) => {
  const dir = tempDir(t);
  const h = await startHarness({
    workspaceFolders: [dir],
    settings: () => {
      throw new Error('client-side failure');
    },
  });
  try {
    await stillWorks(h, dir, 'no-settings.jsonl');
    await h.waitFor('the settings problem logged', () => h.logs.find((l) => /could not read settings/.test(l.message)));
    h.setSettings(() => ({ dynamicFilter: 'check_reward_nonzero_std' }));
    void h.client.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await stillWorks(h, dir, 'with-settings.jsonl');
  } finally {
    await h.stop();
  }
});
