// The built server process (`node dist/server.js --stdio`), as editors run it: garbage on the wire
// and requests before `initialize` do not end it; 20 000 rapid edits of one document leave its
// memory bounded (RSS read from /proc; the heap is capped so a leak would kill the process).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';

import { bounded, endServer, shutdownAndExit, startStdioServer } from '../shared/stdioServer';
import { groupLines, tempDir } from './helpers';

const HEAP_CAP_MB = 160;
const WAIT_MS = 30_000;

/** Reads Content-Length frames from the server's stdout; `next(id)` waits for the response with that id. */
function frames(child: ChildProcessWithoutNullStreams) {
  let buffer = Buffer.alloc(0);
  const messages: { id?: number; result?: unknown; error?: { code: number }; method?: string }[] = [];
  const waiters: (() => void)[] = [];
  child.stdout.on('data', (b: Buffer) => {
    buffer = Buffer.concat([buffer, b]);
    for (;;) {
      const head = buffer.indexOf('\r\n\r\n');
      if (head < 0) break;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, head).toString())?.[1]);
      if (buffer.length < head + 4 + length) break;
      messages.push(JSON.parse(buffer.subarray(head + 4, head + 4 + length).toString()));
      buffer = buffer.subarray(head + 4 + length);
    }
    for (const w of waiters.splice(0)) w();
  });
  const find = (id: number) => messages.find((m) => m.id === id);
  return {
    messages,
    next: (id: number) =>
      bounded(
        `response ${id}`,
        new Promise<(typeof messages)[number]>((resolve) => {
          const check = () => (find(id) ? resolve(find(id)!) : waiters.push(check));
          check();
        }),
        10_000,
      ),
  };
}

function frame(body: string): string {
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

test('stdio bundle: requests before initialize, a frame of invalid JSON, headers without or with a bad Content-Length, non-object messages → errors or log lines; the process answers everything after and exits 0 on shutdown/exit', async () => {
  const { child, exited, stderr } = startStdioServer();
  try {
    const rx = frames(child);
    const req = (id: number, method: string, params: unknown) => frame(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    child.stdin.write(req(1, 'textDocument/hover', { textDocument: { uri: 'file:///x.jsonl' }, position: { line: 0, character: 0 } }));
    assert.equal((await rx.next(1)).error?.code, -32002, 'a request before initialize is answered ServerNotInitialized');
    child.stdin.write(frame('{{{{ not json'));
    child.stdin.write(req(2, 'initialize', { processId: null, rootUri: null, capabilities: {} }));
    assert.ok((await rx.next(2)).result, 'initialize still works after an invalid frame');
    child.stdin.write(frame(JSON.stringify({ jsonrpc: '2.0', method: 'initialized', params: {} })));
    const symbols = (id: number) => req(id, 'textDocument/documentSymbol', { textDocument: { uri: 'file:///x.jsonl' } });
    // After a header block it rejects, vscode-jsonrpc's reader leaves the rest of that chunk in its
    // buffer until more bytes arrive: the request is not lost, it is answered once the client
    // sends anything more. A client that keeps talking is modelled by a harmless notification
    // every 50 ms until the answer comes (bounded by `next`).
    const nudge = setInterval(() => child.stdin.write(frame('{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": -1}}')), 50);
    try {
      child.stdin.write(`Garbage-Header: 1\r\n\r\n${symbols(3)}`);
      assert.deepEqual((await rx.next(3)).result, []);
      child.stdin.write(`Content-Length: abc\r\n\r\n${symbols(4)}`);
      assert.deepEqual((await rx.next(4)).result, []);
    } finally {
      clearInterval(nudge);
    }
    child.stdin.write(frame('[1, 2, 3]'));
    child.stdin.write(frame('"a string"'));
    child.stdin.write(frame('{"jsonrpc": "2.0", "id": 99}'));
    child.stdin.write(symbols(5));
    assert.deepEqual((await rx.next(5)).result, []);
    child.stdin.write(req(6, 'shutdown', null));
    await rx.next(6);
    child.stdin.write(frame(JSON.stringify({ jsonrpc: '2.0', method: 'exit' })));
    assert.equal(await bounded('exit', exited, WAIT_MS), 0, stderr());
  } finally {
    if (child.exitCode === null) child.kill();
  }
});

function memory(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

test(`stdio bundle, heap capped at ${HEAP_CAP_MB} MB: 2 × 10 000 rapid edits of one document (range edits, every 100th a full replace) → the last version is analysed each time and memory stays bounded`, async (t) => {
  const dir = tempDir(t);
  const { child, exited, stderr } = startStdioServer([`--max-old-space-size=${HEAP_CAP_MB}`]);
  const client = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const latest = new Map<string, PublishDiagnosticsParams>();
  const waiters: (() => void)[] = [];
  client.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    latest.set(p.uri, p);
    for (const w of waiters.splice(0)) w();
  });
  client.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  client.listen();
  const analysed = (uri: string, version: number) =>
    bounded(
      `diagnostics for version ${version}`,
      new Promise<PublishDiagnosticsParams>((resolve) => {
        const check = () => {
          const p = latest.get(uri);
          if (p && p.version === version) resolve(p);
          else waiters.push(check);
        };
        check();
      }),
      60_000,
    );
  try {
    await bounded(
      'initialize',
      client.sendRequest('initialize', {
        processId: null,
        rootUri: pathToFileURL(dir).href,
        capabilities: { workspace: { configuration: true }, textDocument: { publishDiagnostics: { versionSupport: true } } },
      }),
      WAIT_MS,
    );
    await client.sendNotification('initialized', {});
    const lines = groupLines(0, 50); // 200 samples, ~70 KB
    const text = `${lines.join('\n')}\n`;
    const uri = pathToFileURL(join(dir, 'edited.jsonl')).href;
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'jsonl', version: 1, text } });
    let version = 1;
    const burst = async (edits: number) => {
      const sent: Promise<void>[] = [];
      for (let i = 0; i < edits; i++) {
        version++;
        const contentChanges =
          version % 100 === 0
            ? [{ text }] // a full replace keeps the document from growing without bound
            : [{ range: { start: { line: i % lines.length, character: 0 }, end: { line: i % lines.length, character: 0 } }, text: ' ' }];
        sent.push(client.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges }));
      }
      await Promise.all(sent);
      const published = await analysed(uri, version);
      assert.ok(
        published.diagnostics.some((d) => d.code === 'group-dropped'),
        'the last version is analysed',
      );
      return memory(child.pid!);
    };
    const warm = await burst(1000);
    const first = await burst(10_000);
    const second = await burst(10_000);
    t.diagnostic(
      `RSS after warm-up ${warm.rssMb.toFixed(0)} MB, after 10 000 edits ${first.rssMb.toFixed(0)} MB, after 20 000 ${second.rssMb.toFixed(0)} MB; peak ${second.peakMb.toFixed(0)} MB`,
    );
    assert.equal(child.exitCode, null, `the server is alive: ${stderr()}`);
    assert.ok(second.peakMb < 400, `peak RSS ${second.peakMb} MB`);
    assert.ok(second.rssMb - warm.rssMb < 120, `RSS grew ${second.rssMb - warm.rssMb} MB over 20 000 edits`);
    assert.ok(second.rssMb - first.rssMb < 60, `RSS grew ${second.rssMb - first.rssMb} MB over the second 10 000 edits`);
    assert.equal(await shutdownAndExit(client, exited, WAIT_MS), 0);
  } finally {
    endServer(client, child);
  }
});
