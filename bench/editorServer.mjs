// The editor bench's server: the built `dist/server.js --stdio` in its own process, driven through
// vscode-languageserver-protocol as an editor would; times are from sending a notification or
// request to receiving its answer. EDITOR_BENCH_NODE_ARGS adds node flags to the server process
// (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof').
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';

import { root, timedEnv } from './measure.mjs';

const BUNDLE = join(root, 'dist/server.js');

export function bounded(what, promise, ms = 60_000) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A server process and a client connection for the run folder `runDir`, answering
 * workspace/configuration with `settings`. `uri` is the log the bench edits, `metricsUri` the run's
 * metrics log; `published(version)` waits for that version's diagnostics of the log.
 */
export async function startServer({ runDir, settings, uri, metricsUri }) {
  const child = spawn(process.execPath, [...(process.env.EDITOR_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), BUNDLE, '--stdio'], {
    env: timedEnv,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const client = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting = new Map();
  const got = new Map();
  /** Every publishDiagnostics of the metrics log, in order; `metricsAfter(n)` waits for the (n+1)th. */
  const metrics = [];
  let metricsWaiter = null;
  client.onNotification('textDocument/publishDiagnostics', (p) => {
    if (p.uri === metricsUri) {
      metrics.push({ at: performance.now(), diagnostics: p.diagnostics });
      metricsWaiter?.();
      return;
    }
    if (p.uri !== uri || p.version === undefined) return;
    got.set(p.version, { at: performance.now(), diagnostics: p.diagnostics });
    waiting.get(p.version)?.();
  });
  client.onRequest('workspace/configuration', (p) => p.items.map(() => settings));
  client.onRequest('client/registerCapability', () => null);
  client.listen();
  await bounded(
    'initialize',
    client.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(runDir).href,
      capabilities: { workspace: { configuration: true }, textDocument: { hover: { contentFormat: ['markdown'] } } },
      workspaceFolders: [{ uri: pathToFileURL(runDir).href, name: 'run' }],
    }),
  );
  await client.sendNotification('initialized', {});
  const published = (version) =>
    bounded(
      `diagnostics of version ${version}`,
      new Promise((resolve) => {
        const done = () => resolve(got.get(version));
        if (got.has(version)) done();
        else waiting.set(version, done);
      }),
    );
  /** The first metrics-log publish after the first `seen` that `accept` takes. */
  const metricsAfter = (seen, accept = () => true) =>
    bounded(
      'the metrics log diagnostics',
      new Promise((resolve) => {
        const test = () => {
          for (let i = seen; i < metrics.length; i++) {
            if (accept(metrics[i].diagnostics)) {
              metricsWaiter = null;
              resolve(metrics[i]);
              return;
            }
          }
        };
        metricsWaiter = test;
        test();
      }),
      120_000,
    );
  const stop = async () => {
    await bounded('shutdown', client.sendRequest('shutdown')).catch(() => undefined);
    await client.sendNotification('exit').catch(() => undefined);
    await bounded('exit', exited, 10_000).catch(() => undefined);
    client.dispose();
    if (child.exitCode === null) child.kill();
  };
  return { client, uri, metricsUri, published, metrics, metricsAfter, stop };
}

/** didOpen of the log with `text` → its first diagnostics (ms, and the diagnostics). */
export async function openAndTime(server, text) {
  const t0 = performance.now();
  await server.client.sendNotification('textDocument/didOpen', { textDocument: { uri: server.uri, languageId: 'jsonl', version: 1, text } });
  const p = await server.published(1);
  return { ms: p.at - t0, diagnostics: p.diagnostics };
}

/** One edit of the log → the diagnostics published with its version (ms, and the diagnostics). */
export async function timedEdit(server, version, change) {
  const t0 = performance.now();
  await server.client.sendNotification('textDocument/didChange', { textDocument: { uri: server.uri, version }, contentChanges: [change] });
  const p = await server.published(version);
  return { ms: p.at - t0, diagnostics: p.diagnostics };
}

/**
 * The metrics log opened with `text`, and its run read: all `steps` mismatches shown (ms from
 * didOpen to its first diagnostics, and to those with every mismatch).
 */
export async function openMetricsLog(server, text, steps) {
  const t0 = performance.now();
  await server.client.sendNotification('textDocument/didOpen', { textDocument: { uri: server.metricsUri, languageId: 'jsonl', version: 1, text } });
  const first = await server.metricsAfter(0);
  const all = await server.metricsAfter(0, (d) => d.filter((x) => x.code === 'metric-mismatch').length === steps);
  return { firstMs: first.at - t0, allMs: all.at - t0, diagnostics: all.diagnostics };
}

/** Sends one edit; times its own diagnostics and the metrics log's republished diagnostics. */
export async function timedMetricEdit(server, version, change) {
  const seen = server.metrics.length;
  const before = JSON.stringify(server.metrics.at(-1)?.diagnostics);
  const t0 = performance.now();
  await server.client.sendNotification('textDocument/didChange', { textDocument: { uri: server.uri, version }, contentChanges: [change] });
  const own = await server.published(version);
  const republished = await server.metricsAfter(seen, (d) => JSON.stringify(d) !== before);
  return { ownMs: own.at - t0, metricsMs: republished.at - t0, diagnostics: republished.diagnostics };
}

/** A hover on `line` of the log (ms); throws when there is none. */
export async function timedHover(server, line) {
  const t0 = performance.now();
  const hover = await bounded(
    'hover',
    server.client.sendRequest('textDocument/hover', { textDocument: { uri: server.uri }, position: { line, character: 3 } }),
  );
  const ms = performance.now() - t0;
  if (!hover) throw new Error(`no hover on line ${line + 1}`);
  return ms;
}
