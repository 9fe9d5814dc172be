// Editor latency through the real protocol: spawns the built `dist/server.js --stdio`, drives it
// with vscode-languageserver-protocol as an editor would, and times (1) didOpen of a 40 MB miles
// rollout log → its first publishDiagnostics, (2) a one-line incremental didChange → the
// publishDiagnostics carrying that version, (3) an edit that changes the log's recomputed metrics
// → its own diagnostics and the republished diagnostics of the run's open metrics log, (4) hover
// on random sample lines. The log is one step of a run folder with 20 other step files and a
// metrics log (docs/editors.md#run-level-findings), and that metrics log is open throughout.
// Correctness first: after the edits, the log's diagnostics must equal a fresh server's on the
// edited text, and the metrics log's must equal `check`'s on the run with the edited text.
// Writes its table into BENCHMARKS.md between the editor markers (the throughput section stays).
//   node bench/editor.mjs [--mb 40] [--other-mb 4] [--runs 20] [--edits 30] [--metric-edits 10] [--hovers 50] [--no-write]
//   EDITOR_BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server processes.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';

import { generateMilesRollout, rng } from './generate.mjs';

const root = new URL('..', import.meta.url).pathname;
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const MB = Number(arg('mb', '40'));
const RUNS = Number(arg('runs', '20'));
const EDITS = Number(arg('edits', '30'));
const OTHER_MB = Number(arg('other-mb', '4'));
const OTHER_STEPS = 20;
const METRIC_EDITS = Number(arg('metric-edits', '10'));
const HOVERS = Number(arg('hovers', '50'));
const SEED = 42;
const SETTINGS = { nSamplesPerPrompt: 8, dynamicFilter: 'check_reward_nonzero_std' };
const TARGET = { open: 1500, edit: 100, hover: 20, metricsLog: null };
const BUNDLE = join(root, 'dist/server.js');

const dataDir = join(root, 'bench/.data');
mkdirSync(dataDir, { recursive: true });
const dataFile = join(dataDir, `miles-rollout-${MB}m-seed${SEED}.jsonl`);
if (!existsSync(dataFile) || statSync(dataFile).size < MB * 1e6) {
  console.log(`generating ${dataFile} (${MB} MB, seed ${SEED}) ...`);
  generateMilesRollout(dataFile, MB * 1e6, SEED);
}
const TEXT = readFileSync(dataFile, 'utf8');

/**
 * The run folder: the 40 MB log as step 21 (a hard link to the data file), 20 other steps of
 * OTHER_MB each, the run settings, and a metrics log whose `rollout/response_len/mean` is off by
 * one at every step (what `check` recomputes, from its JSON report), so each step has a finding.
 */
const runDir = join(dataDir, `run-${MB}m-${OTHER_STEPS}x${OTHER_MB}m-seed${SEED}`);
const STEP = OTHER_STEPS + 1;
const LOG = join(runDir, `rollout/rollout_${STEP}.jsonl`);
const METRICS = join(runDir, 'metrics.jsonl');
function checkJson(folder) {
  const r = spawnSync(process.execPath, [join(root, 'dist/cli.js'), 'check', '--format', 'json', '--exit-zero', folder], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`check ${folder} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}
function writeMetricsLog(folder) {
  const report = checkJson(join(folder, 'rollout'));
  const lines = report.files.map((f) => {
    const step = Number(/rollout_(\d+)\.jsonl$/.exec(f.path)[1]);
    const metrics = { 'rollout/step': step, ...f.metrics, 'rollout/response_len/mean': f.metrics['rollout/response_len/mean'] + 1 };
    return { step, line: JSON.stringify({ ts: 1718198400 + step, step_key: 'rollout/step', step, metrics }) };
  });
  writeFileSync(
    join(folder, 'metrics.jsonl'),
    `${lines
      .sort((a, b) => a.step - b.step)
      .map((l) => l.line)
      .join('\n')}\n`,
  );
}
if (!existsSync(METRICS)) {
  console.log(`building the run folder ${runDir} ...`);
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(join(runDir, 'rollout'), { recursive: true });
  writeFileSync(
    join(runDir, 'rollout-lens.yaml'),
    Object.entries(SETTINGS)
      .map(([k, v]) => `${k}: ${v}\n`)
      .join(''),
  );
  for (let step = 1; step <= OTHER_STEPS; step++) generateMilesRollout(join(runDir, `rollout/rollout_${step}.jsonl`), OTHER_MB * 1e6, SEED + step);
  try {
    linkSync(dataFile, LOG);
  } catch {
    cpSync(dataFile, LOG);
  }
  writeMetricsLog(runDir);
}
const URI = pathToFileURL(LOG).href;
const METRICS_URI = pathToFileURL(METRICS).href;
const METRICS_TEXT = readFileSync(METRICS, 'utf8');

function bounded(what, promise, ms = 60_000) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A server process and a client connection; `published(version)` waits for that version's diagnostics. */
async function startServer() {
  const child = spawn(process.execPath, [...(process.env.EDITOR_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), BUNDLE, '--stdio'], {
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
    if (p.uri === METRICS_URI) {
      metrics.push({ at: performance.now(), diagnostics: p.diagnostics });
      metricsWaiter?.();
      return;
    }
    if (p.uri !== URI || p.version === undefined) return;
    got.set(p.version, { at: performance.now(), diagnostics: p.diagnostics });
    waiting.get(p.version)?.();
  });
  client.onRequest('workspace/configuration', (p) => p.items.map(() => SETTINGS));
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
  return { client, published, metrics, metricsAfter, stop };
}

/** The metrics log opened, and its run read: every step's mismatch is shown (ms from didOpen). */
async function openMetricsLog(server) {
  const t0 = performance.now();
  await server.client.sendNotification('textDocument/didOpen', { textDocument: { uri: METRICS_URI, languageId: 'jsonl', version: 1, text: METRICS_TEXT } });
  const first = await server.metricsAfter(0);
  const all = await server.metricsAfter(0, (d) => d.filter((x) => x.code === 'metric-mismatch').length === STEP);
  return { firstMs: first.at - t0, allMs: all.at - t0, diagnostics: all.diagnostics };
}

/**
 * Edits that change the log's recomputed metrics: one completed sample made truncated each (its
 * `rollout/truncated_ratio` moves; the same length of text, so positions stay as they were).
 */
function metricEdits(text, count, rand) {
  const starts = lineStarts(text);
  const chosen = new Set();
  const edits = [];
  let current = text;
  while (edits.length < count) {
    const line = Math.floor(rand() * (starts.length - 1));
    const lineText = text.slice(starts[line], starts[line + 1] - 1);
    const c = lineText.indexOf('"status": "completed"') + 11;
    if (c < 11 || chosen.has(line)) continue;
    chosen.add(line);
    edits.push({ range: { start: { line, character: c }, end: { line, character: c + 9 } }, text: 'truncated' });
    const at = starts[line] + c;
    current = current.slice(0, at) + 'truncated' + current.slice(at + 9);
  }
  return { edits, finalText: current };
}

/** Sends one edit; times its own diagnostics and the metrics log's republished diagnostics. */
async function timedMetricEdit(server, version, change) {
  const seen = server.metrics.length;
  const before = JSON.stringify(server.metrics.at(-1)?.diagnostics);
  const t0 = performance.now();
  await server.client.sendNotification('textDocument/didChange', { textDocument: { uri: URI, version }, contentChanges: [change] });
  const own = await server.published(version);
  const republished = await server.metricsAfter(seen, (d) => JSON.stringify(d) !== before);
  return { ownMs: own.at - t0, metricsMs: republished.at - t0, diagnostics: republished.diagnostics };
}

/** Line starts (UTF-16 offsets) of a text. */
function lineStarts(text) {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * The edits: one line each, applied as incremental changes (what VS Code sends for the server's
 * `Incremental` sync): flip a status, change a group key, break a line's JSON and mend it, insert
 * a copied line, delete a line. Returns the changes and applies them to a text copy.
 */
function makeEdits(text, count, rand) {
  const edits = [];
  let current = text;
  for (let k = 0; k < count; k++) {
    const starts = lineStarts(current);
    const lineCount = starts.length - 1; // the text ends with '\n'
    const line = Math.floor(rand() * lineCount);
    const lineText = current.slice(starts[line], starts[line + 1] - 1);
    const kind = k % 5;
    let change;
    const at = (needle) => lineText.indexOf(needle);
    const pos = (col) => ({ line, character: col });
    if (kind === 0 && at('"status": "') >= 0) {
      const c = at('"status": "') + 11;
      const end = lineText.indexOf('"', c);
      const next = lineText.slice(c, end) === 'aborted' ? 'completed' : 'aborted';
      change = { range: { start: pos(c), end: pos(end) }, text: next };
    } else if (kind === 1) {
      const c = at('"group_index": ') + 15;
      const end = lineText.indexOf(',', c);
      change = { range: { start: pos(c), end: pos(end) }, text: String(Number(lineText.slice(c, end)) + 1) };
    } else if (kind === 2) {
      change = { range: { start: pos(0), end: pos(1) }, text: '[' }; // invalid JSON ...
    } else if (kind === 3) {
      change = { range: { start: { line: line + 1, character: 0 }, end: { line: line + 1, character: 0 } }, text: `${lineText}\n` };
    } else {
      change = { range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, text: '' };
    }
    const s = starts[change.range.start.line] + change.range.start.character;
    const e = starts[change.range.end.line] + change.range.end.character;
    current = current.slice(0, s) + change.text + current.slice(e);
    edits.push(change);
    if (kind === 2) {
      // ... and mended by the next edit
      edits.push({ range: { start: pos(0), end: pos(1) }, text: '{' });
      current = current.slice(0, s) + '{' + current.slice(s + 1);
      k++;
    }
  }
  return { edits, finalText: current };
}

const pct = (xs, p) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const strip = (diags) => JSON.stringify(diags);

async function openAndTime(server, text) {
  const t0 = performance.now();
  await server.client.sendNotification('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'jsonl', version: 1, text } });
  const p = await server.published(1);
  return { ms: p.at - t0, diagnostics: p.diagnostics };
}

async function correctness() {
  const { edits, finalText } = makeEdits(TEXT, 12, rng(7));
  const server = await startServer();
  await openAndTime(server, TEXT);
  let version = 1;
  for (const change of edits) {
    version++;
    await server.client.sendNotification('textDocument/didChange', { textDocument: { uri: URI, version }, contentChanges: [change] });
    await server.published(version);
  }
  const incremental = (await server.published(version)).diagnostics;
  await server.stop();
  const fresh = await startServer();
  const full = (await openAndTime(fresh, finalText)).diagnostics;
  await fresh.stop();
  if (strip(incremental) !== strip(full)) throw new Error(`after ${edits.length} edits the diagnostics differ from a fresh analysis of the edited text`);
  const run = await runLevelCorrectness();
  return { edits: edits.length, diagnostics: full.length, ...run };
}

const lineOf = (d) => `${d.code}\t${d.range.start.line}\t${d.message}`;
const checkLines = (findings, file, from, to) =>
  findings
    .filter((f) => f.file === file)
    .map((f) => `${f.code}\t${f.line - 1}\t${f.message.split(from).join(to)}`)
    .sort();

/** The metrics log's diagnostics equal check's on the run, before and after metric edits of the log. */
async function runLevelCorrectness() {
  const server = await startServer();
  const opened = await openMetricsLog(server);
  const expected = checkLines(checkJson(runDir).findings, METRICS, runDir, runDir);
  if (strip(opened.diagnostics.map(lineOf).sort()) !== strip(expected)) throw new Error('the metrics log diagnostics differ from check on the run folder');
  await openAndTime(server, TEXT);
  const { edits, finalText } = metricEdits(TEXT, 3, rng(9));
  let last;
  for (const [i, change] of edits.entries()) last = await timedMetricEdit(server, i + 2, change);
  await server.stop();
  // check on a copy of the run with the edited text (the other files hard-linked).
  const copy = join(dataDir, 'run-edited');
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(join(copy, 'rollout'), { recursive: true });
  for (const name of ['rollout-lens.yaml', 'metrics.jsonl']) cpSync(join(runDir, name), join(copy, name));
  for (let step = 1; step <= OTHER_STEPS; step++) linkSync(join(runDir, `rollout/rollout_${step}.jsonl`), join(copy, `rollout/rollout_${step}.jsonl`));
  writeFileSync(join(copy, `rollout/rollout_${STEP}.jsonl`), finalText);
  const after = checkLines(checkJson(copy).findings, join(copy, 'metrics.jsonl'), copy, runDir);
  rmSync(copy, { recursive: true, force: true });
  if (strip(last.diagnostics.map(lineOf).sort()) !== strip(after))
    throw new Error('after the edits the metrics log diagnostics differ from check on the edited run');
  if (strip(after) === strip(expected)) throw new Error('the metric edits changed nothing check reports');
  return { mismatches: expected.length };
}

/**
 * One fresh server: the metrics log opened first (`withRun`), or not at all (the baseline: no
 * run-level work; interleaved with the others, the machine being shared), then the 40 MB log.
 */
async function timedRun(run, withRun = true) {
  const server = await startServer();
  const metricsOpen = withRun ? await openMetricsLog(server) : null;
  const open = await openAndTime(server, TEXT);
  let version = 1;
  const metricEditMs = [];
  const republishMs = [];
  for (const change of metricEdits(TEXT, METRIC_EDITS, rng(300 + run)).edits) {
    version++;
    if (withRun) {
      const r = await timedMetricEdit(server, version, change);
      metricEditMs.push(r.ownMs);
      republishMs.push(r.metricsMs);
    } else {
      const t0 = performance.now();
      await server.client.sendNotification('textDocument/didChange', { textDocument: { uri: URI, version }, contentChanges: [change] });
      metricEditMs.push((await server.published(version)).at - t0);
    }
  }
  // The other edits start from the text as the metric edits left it.
  const { edits } = makeEdits(metricEdits(TEXT, METRIC_EDITS, rng(300 + run)).finalText, EDITS, rng(100 + run));
  const editMs = [];
  for (const change of edits) {
    version++;
    const t0 = performance.now();
    await server.client.sendNotification('textDocument/didChange', { textDocument: { uri: URI, version }, contentChanges: [change] });
    editMs.push((await server.published(version)).at - t0);
  }
  const rand = rng(200 + run);
  const hoverMs = [];
  const lines = lineStarts(TEXT).length - 1;
  for (let i = 0; i < (withRun ? HOVERS : 0); i++) {
    const line = Math.floor(rand() * (lines - 20));
    const t0 = performance.now();
    const hover = await bounded('hover', server.client.sendRequest('textDocument/hover', { textDocument: { uri: URI }, position: { line, character: 3 } }));
    hoverMs.push(performance.now() - t0);
    if (!hover) throw new Error(`no hover on line ${line + 1}`);
  }
  await server.stop();
  return { openMs: open.ms, editMs, hoverMs, metricEditMs, republishMs, metricsOpenMs: metricsOpen?.firstMs ?? 0, metricsRunMs: metricsOpen?.allMs ?? 0 };
}

/** What the client itself spends turning the didOpen into bytes (VS Code's client does the same). */
function clientSerializationMs() {
  const t0 = performance.now();
  const json = JSON.stringify({
    jsonrpc: '2.0',
    method: 'textDocument/didOpen',
    params: { textDocument: { uri: URI, languageId: 'jsonl', version: 1, text: TEXT } },
  });
  Buffer.from(json, 'utf8');
  return performance.now() - t0;
}

/** What any JSON-RPC server does with those bytes before its handler runs: join the chunks, decode, parse. */
function messageReceiveMs() {
  const bytes = Buffer.from(
    JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: URI, languageId: 'jsonl', version: 1, text: TEXT } } }),
    'utf8',
  );
  const chunks = [];
  for (let i = 0; i < bytes.length; i += 65536) chunks.push(Buffer.from(bytes.subarray(i, i + 65536)));
  const t0 = performance.now();
  JSON.parse(Buffer.concat(chunks).toString('utf8'));
  return performance.now() - t0;
}

const loadBefore = loadavg()
  .map((x) => x.toFixed(1))
  .join(' ');
console.log(`editor bench: ${(TEXT.length / 1e6).toFixed(1)} MB, ${lineStarts(TEXT).length - 1} lines`);
const check = await correctness();
console.log(`correctness: after ${check.edits} edits the diagnostics (${check.diagnostics}) equal a fresh analysis of the edited text`);
const opens = [];
const editsMs = [];
const hoversMs = [];
const metricEditsMs = [];
const republishesMs = [];
const metricsOpensMs = [];
const metricsRunsMs = [];
const baseline = { opens: [], edits: [], metricEdits: [] };
for (let run = 0; run < RUNS; run++) {
  // Interleaved: the baseline (no metrics log open) before the full run on even runs, after on odd.
  const base = run % 2 === 0 ? await timedRun(run, false) : null;
  const r = await timedRun(run);
  const b = base ?? (await timedRun(run, false));
  baseline.opens.push(b.openMs);
  baseline.edits.push(...b.editMs);
  baseline.metricEdits.push(...b.metricEditMs);
  opens.push(r.openMs);
  editsMs.push(...r.editMs);
  hoversMs.push(...r.hoverMs);
  metricEditsMs.push(...r.metricEditMs);
  republishesMs.push(...r.republishMs);
  metricsOpensMs.push(r.metricsOpenMs);
  metricsRunsMs.push(r.metricsRunMs);
  console.log(
    `run ${run + 1}: metrics log open ${r.metricsOpenMs.toFixed(0)} ms, run read ${r.metricsRunMs.toFixed(0)} ms; didOpen→diagnostics ${r.openMs.toFixed(0)} ms; edit p50 ${pct(r.editMs, 50).toFixed(1)} ms; metric edit p50 ${pct(r.metricEditMs, 50).toFixed(1)} ms, metrics log p50 ${pct(r.republishMs, 50).toFixed(1)} ms; hover p50 ${pct(r.hoverMs, 50).toFixed(1)} ms`,
  );
}
const serializeMs = [];
const receiveMs = [];
for (let i = 0; i < 3; i++) {
  serializeMs.push(clientSerializationMs());
  receiveMs.push(messageReceiveMs());
}
const loadAfter = loadavg()
  .map((x) => x.toFixed(1))
  .join(' ');

const row = (what, xs, target, n) => {
  const p50 = pct(xs, 50);
  const p95 = pct(xs, 95);
  if (target === null) return `| ${what} | ${n} | ${p50.toFixed(1)} | ${p95.toFixed(1)} | — | no target set |`;
  const verdict =
    p95 <= target
      ? 'met (p95)'
      : p50 <= target
        ? `p50 met; p95 over by ${(p95 - target).toFixed(0)} ms`
        : `missed: p50 over by ${(p50 - target).toFixed(0)} ms`;
  return `| ${what} | ${n} | ${p50.toFixed(1)} | ${p95.toFixed(1)} | ${target} | ${verdict} |`;
};
const table = [
  '| measure | samples | p50 (ms) | p95 (ms) | target (ms) | verdict |',
  '|---|---:|---:|---:|---:|---|',
  row('didOpen → first publishDiagnostics', opens, TARGET.open, opens.length),
  row('one-line didChange → its publishDiagnostics', editsMs, TARGET.edit, editsMs.length),
  row('didChange that changes the recomputed metrics → its publishDiagnostics', metricEditsMs, TARGET.edit, metricEditsMs.length),
  row('the same didChange → the metrics log republished', republishesMs, TARGET.metricsLog, republishesMs.length),
  row('hover on a random sample line', hoversMs, TARGET.hover, hoversMs.length),
  row('baseline, no metrics log open: didOpen → first publishDiagnostics', baseline.opens, TARGET.open, baseline.opens.length),
  row('baseline: one-line didChange → its publishDiagnostics', baseline.edits, TARGET.edit, baseline.edits.length),
  row('baseline: didChange that changes the recomputed metrics → its publishDiagnostics', baseline.metricEdits, TARGET.edit, baseline.metricEdits.length),
].join('\n');
const serialization = `Of the didOpen time, the client's own serialization of the ${(TEXT.length / 1e6).toFixed(0)} MB notification (JSON.stringify + UTF-8 encode, measured apart, p50 of 3) takes ${pct(serializeMs, 50).toFixed(0)} ms, and receiving it (joining the 64 KB chunks, UTF-8 decode, JSON.parse: what the JSON-RPC layer does before any handler runs) ${pct(receiveMs, 50).toFixed(0)} ms; the rest is transfer, the server's line split, scan and analysis, and publishing.`;
const runRead = `Opening the metrics log: its own diagnostics after ${pct(metricsOpensMs, 50).toFixed(0)} ms (p50), every step's mismatch after ${pct(metricsRunsMs, 50).toFixed(0)} ms (p50; p95 ${pct(metricsRunsMs, 95).toFixed(0)} ms): the run's ${STEP} step files (${(MB + OTHER_STEPS * OTHER_MB).toFixed(0)} MB) read from disk in the background, before the 40 MB log is opened.`;
console.log(table);
console.log(serialization);
console.log(runRead);

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, Node ${process.version}, load average (1/5/15 min) ${loadBefore} before, ${loadAfter} after`;
const section = `<!-- editor:start -->
## Editor latency

Reproduce: \`npm run bench:editor\` (also run by \`npm run bench\`; or \`node bench/editor.mjs --mb ${MB} --runs ${RUNS}\` after \`npm run build\`).

Through the real protocol: the built \`dist/server.js --stdio\` in its own process, driven by
\`vscode-languageserver-protocol\`; times are from sending the notification/request to receiving
the answer (the diagnostics published with the edit's version). Input: the seeded (seed ${SEED}) miles
rollout generator, ${(TEXT.length / 1e6).toFixed(1)} MB, ${lineStarts(TEXT).length - 1} lines; settings \`${JSON.stringify(SETTINGS)}\`.
The log is step ${STEP} of a run folder (\`rollout-lens.yaml\`, ${OTHER_STEPS} other step files of ${OTHER_MB} MB, and a
\`metrics.jsonl\` whose \`rollout/response_len/mean\` is off at every step); the metrics log is opened
first and stays open, so every edit of the log is also compared with it (docs/editors.md#run-level-findings).
Edits are incremental one-line changes (the server asks for \`Incremental\` sync): first ${METRIC_EDITS} that make a
completed sample truncated (so the log's recomputed \`rollout/truncated_ratio\`, and the metrics log's findings, change:
timed to the log's diagnostics and to the metrics log's republished diagnostics), then ${EDITS} of: a status flip,
a group key change, a line made invalid JSON and mended, a line inserted, a line deleted.
${RUNS} runs (a fresh server each), ${HOVERS} hovers per run; each interleaved with a baseline run on a fresh server
that never opens the metrics log (the same edits, no hovers): the cost of the run-level analysis is the difference.
Correctness first: after ${check.edits} such edits the server's diagnostics equal those of a fresh server opened on the edited text;
the metrics log's ${check.mismatches} diagnostics equal \`check\`'s on the run folder, and after 3 metric edits equal \`check\`'s on the run with the edited text.

Machine: ${machine} (the 1-minute figure counts the bench's own runs).

${table}

${serialization}

${runRead}
<!-- editor:end -->`;

if (!process.argv.includes('--no-write')) {
  const path = join(root, 'BENCHMARKS.md');
  const md = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  const re = /<!-- editor:start -->[\s\S]*<!-- editor:end -->/;
  writeFileSync(path, re.test(md) ? md.replace(re, () => section) : `${md.trimEnd()}\n\n${section}\n`);
  console.log('wrote the editor section of BENCHMARKS.md');
}
