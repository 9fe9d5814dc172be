// The built bundle as editors run it: `node dist/server.js --stdio`, driven by
// vscode-languageserver-protocol over the child's stdin/stdout (built by `npm test` first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  type Hover,
  type MarkupContent,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { repoRoot } from '../lsp/fixtures';
import { bounded, BUNDLE, endServer, shutdownAndExit, startStdioServer } from '../shared/stdioServer';
import { EXAMPLE_ROLLOUT_SETTINGS } from '../shared/exampleRun';

const ROOT = repoRoot();
const LOG = join(ROOT, 'examples/run/rollout/rollout_1.jsonl');
const SETTINGS = EXAMPLE_ROLLOUT_SETTINGS;

const WAIT_MS = 15_000;
const within = <T>(what: string, promise: Promise<T>) => bounded(what, promise, WAIT_MS);

test('node dist/server.js --stdio: initialize, diagnostics of the example run step, hover, shutdown/exit with code 0', async () => {
  assert.ok(existsSync(BUNDLE), 'dist/server.js is built by npm test before the tests run');
  const { child, exited, stderr } = startStdioServer();
  const client = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  try {
    const uri = pathToFileURL(LOG).href;
    const diagnostics = new Promise<PublishDiagnosticsParams>((resolve) => {
      client.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
        if (p.uri === uri && p.diagnostics.length > 0) resolve(p);
      });
    });
    client.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => SETTINGS));
    client.onRequest('client/registerCapability', () => null);
    client.listen();
    const init = (await within(
      'initialize',
      client.sendRequest('initialize', {
        processId: process.pid,
        rootUri: pathToFileURL(ROOT).href,
        capabilities: { workspace: { configuration: true } },
        workspaceFolders: [{ uri: pathToFileURL(ROOT).href, name: 'repo' }],
      }),
    )) as { capabilities: { hoverProvider?: boolean }; serverInfo?: { name: string } };
    assert.equal(init.serverInfo?.name, 'rollout-lens');
    assert.equal(init.capabilities.hoverProvider, true);
    await client.sendNotification('initialized', {});
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'jsonl', version: 1, text: readFileSync(LOG, 'utf8') } });

    const published = await within('diagnostics', diagnostics);
    const codes = new Set(published.diagnostics.map((d) => d.code));
    for (const code of ['group-dropped', 'zero-std-group', 'abort-cause-unknown', 'infra-failure-scored', 'policy-failure-discarded']) {
      assert.ok(codes.has(code), `${code} in ${[...codes].join(', ')}`);
    }
    assert.ok(published.diagnostics.every((d) => d.source === 'rollout-lens'));

    const first = published.diagnostics.find((d) => d.code === 'group-dropped')!;
    const hover = (await within('hover', client.sendRequest('textDocument/hover', { textDocument: { uri }, position: first.range.start }))) as Hover;
    assert.match((hover.contents as MarkupContent).value, /^\*\*group `\d+` dropped: /);

    assert.equal(await shutdownAndExit(client, exited, WAIT_MS), 0, stderr());
  } finally {
    endServer(client, child);
  }
});

test('node dist/server.js --node-ipc: the same server over a Node IPC channel', async () => {
  const child = fork(BUNDLE, ['--node-ipc'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const client = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
  try {
    const uri = pathToFileURL(LOG).href;
    const diagnostics = new Promise<PublishDiagnosticsParams>((resolve) => {
      client.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
        if (p.uri === uri && p.diagnostics.length > 0) resolve(p);
      });
    });
    client.listen();
    await within('initialize', client.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} }));
    await client.sendNotification('initialized', {});
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'jsonl', version: 1, text: readFileSync(LOG, 'utf8') } });
    const published = await within('diagnostics', diagnostics);
    // No workspace root and no client settings: the run's rollout-lens.yaml, found upward from the
    // log, turns on its dynamic filter (zero-std drops) as `check` does.
    assert.ok(published.diagnostics.some((d) => d.code === 'group-dropped'));
    assert.ok(published.diagnostics.some((d) => d.code === 'zero-std-group'));
    assert.equal(await shutdownAndExit(client, exited, WAIT_MS), 0);
  } finally {
    endServer(client, child);
  }
});
