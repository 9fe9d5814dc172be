// What bench/runView.mjs and bench/runViewFollow.mjs share: the logs of a folder and what `check`
// says of them (the answers are checked against it), a built language server started on a folder
// over stdio (vscode-languageserver-protocol, as bench/editor.mjs drives it) and closed again, and
// a process's memory and CPU as /proc gives them.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';

import { root, timedEnv, warm } from './measure.mjs';

/** The logs under a folder (JSON Lines and `.pt` dumps), as paths relative to it, sorted. */
export const logsIn = (folder) =>
  readdirSync(folder, { recursive: true })
    .filter((f) => /\.(jsonl|pt)$/.test(f))
    .sort();

/** `check --format json` on a folder, cached next to it by its files' sizes and times. */
export function expected(folder) {
  const stamp = logsIn(folder)
    .map((f) => {
      const st = statSync(join(folder, f));
      return `${f}:${st.size}:${st.mtimeMs}`;
    })
    .join(',');
  const cache = join(root, 'bench/.data', `runview-expected-${folder.split('/').pop()}.json`);
  if (existsSync(cache)) {
    const c = JSON.parse(readFileSync(cache, 'utf8'));
    if (c.stamp === stamp) return c;
  }
  console.log(`check --format json ${folder} ...`);
  const r = spawnSync(process.execPath, [join(root, 'dist/cli.js'), 'check', '--format', 'json', '--exit-zero', folder], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(`check exited ${r.status}: ${r.stderr}`);
  const report = JSON.parse(r.stdout);
  const perFile = {};
  for (const f of report.files) perFile[pathToFileURL(f.path).href] = { kept: f.groups.kept, dropped: f.groups.dropped };
  // The run view's totals are its steps' (rollout files); an eval dump's samples are in its eval rows.
  const totals = { files: report.files.length, samples: 0, groups: 0, kept: 0, dropped: 0 };
  let evalSamples = 0;
  for (const f of report.files) {
    if (f.kind === 'eval') {
      evalSamples += f.records;
      continue;
    }
    totals.samples += f.records;
    totals.groups += f.groups.total;
    totals.kept += f.groups.kept;
    totals.dropped += f.groups.dropped;
  }
  const c = { stamp, totals, evalSamples, perFile };
  writeFileSync(cache, JSON.stringify(c));
  return c;
}

export function bounded(what, promise, ms) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** VmHWM / VmRSS of a process in MB. */
export function memOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 };
}

/** User + system CPU seconds of a process. */
export function cpuOf(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** The logs of a folder read through once: each request below starts with them in the page cache. */
export function warmFolder(folder) {
  warm(logsIn(folder).map((f) => join(folder, f)));
}

/**
 * The server bundle started with `nodeArgs` and initialised on `folder` (its one workspace folder):
 * the connection, the process, the folder's URI, and `close` (shutdown, exit, killed if it stays).
 */
export async function serverOn(bundle, folder, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, bundle, '--stdio'], { env: timedEnv, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((r) => child.on('exit', r));
  const client = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  client.onRequest('workspace/configuration', (p) => p.items.map(() => ({})));
  client.onRequest('client/registerCapability', () => null);
  client.onRequest('window/workDoneProgress/create', () => null);
  client.onNotification(() => undefined);
  client.listen();
  const uri = pathToFileURL(folder).href;
  await bounded(
    'initialize',
    client.sendRequest('initialize', {
      processId: process.pid,
      rootUri: uri,
      capabilities: { workspace: { configuration: true } },
      workspaceFolders: [{ uri, name: 'run' }],
    }),
    60_000,
  );
  await client.sendNotification('initialized', {});
  const close = async () => {
    await bounded('shutdown', client.sendRequest('shutdown'), 10_000).catch(() => undefined);
    await client.sendNotification('exit').catch(() => undefined);
    await bounded('exit', exited, 10_000).catch(() => undefined);
    client.dispose();
    if (child.exitCode === null) child.kill();
  };
  return { client, child, uri, close };
}

/** The 0-based line `n` of a file, found by counting newlines (the sample view's answer is checked against it). */
export function lineOf(path, n) {
  const fd = openSync(path, 'r');
  const buf = Buffer.alloc(1 << 20);
  let line = 0;
  let pos = 0;
  let start = -1;
  const parts = [];
  try {
    for (;;) {
      const got = readSync(fd, buf, 0, buf.length, pos);
      if (got === 0) throw new Error(`${path} has no line ${n}`);
      let from = 0;
      for (let i = 0; i < got; i++) {
        if (buf[i] !== 10) continue;
        if (line === n) {
          parts.push(Buffer.from(buf.subarray(start < 0 ? 0 : from, i)));
          return Buffer.concat(parts).toString('utf8');
        }
        line++;
        from = i + 1;
        if (line === n) start = from;
      }
      if (line === n) parts.push(Buffer.from(buf.subarray(start < 0 ? 0 : from, got)));
      start = -1;
      pos += got;
    }
  } finally {
    closeSync(fd);
  }
}
