// The editor's run view over a large run folder: spawns the built `dist/server.js
// --stdio`, drives it through the real protocol (vscode-languageserver-protocol, as bench/editor.mjs
// does), and asks `rolloutLens/runView` and `rolloutLens/groupsByCause` for the folder of 10 × 1 M
// short samples that bench/scale.mjs writes. Each request runs in its own fresh server process, so
// its peak RSS (VmHWM of /proc/<pid>/status, read right after the answer) is that request's alone;
// VmRSS read then is what the server still holds.
// Then the follow-up requests on one file of the folder (not open): `groupsByCause` with that
// file's URI (what the Groups view asks when a step's node is expanded) and `sampleView` of the
// sample in the middle of the file. And `runView` on the folder with a miles eval dump of 1 M short
// samples beside it (`eval/eval_1.jsonl`, a hard link of bench/scale.mjs's short file, in a folder
// of hard links under bench/.data; not made for a --folder of your own unless --only eval): an eval
// dump in a run folder is read like a step file. And `runView` and `groupsByCause` on the folder of
// 10 miles `.pt` dumps of 1 M short samples each that bench/ptScale.mjs writes (--pt-folder).
// And `rollout-lens report` (the CLI's run view as one HTML file) on both folders, as a process of
// its own (bench/maxrss.cjs), its groups and dropped groups checked against `check`.
// Correctness first: the run view's totals (files, samples, groups, kept, dropped) and the Groups
// view's per-file kept/dropped must equal `check --format json` on the folder; the one file's
// answer its kept/dropped; the sample view the line's status as the file has it.
// And the run view following its run (--only follow, its own section): one server draws the run,
// then a new step file appears and the time to the redrawn model is taken: the client's debounce
// (REDRAW_DEBOUNCE_MS of client/src/runViewPanel.ts, added, not waited) plus the `runView` request
// that draws it again, on a copy of the example run (a new step of 8 groups) and on the 10 M-sample
// folder (hard links; the new step a hard link of the 1 M-sample short file).
//   node bench/runView.mjs [--folder bench/.data/scale-run-10x1m] [--pt-folder bench/.data/scale-pt-run-10x1m]
//     [--runs 1] [--no-write] [--only runView|groups|eval|pt|report|follow]
//     [--server <other build>/dist/server.js]
//   RUNVIEW_BENCH_NODE_ARGS='--expose-gc -r ./probe.cjs' adds node flags to the server processes
//   (each is sent SIGUSR2 after its answer, for a probe that reports its heap).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';

import { arg, load, machine, measure, pct, root, timedEnv, warm, writeSection } from './measure.mjs';

const FOLDER = resolve(arg('folder', join(root, 'bench/.data/scale-run-10x1m')));
const RUNS = Number(arg('runs', '1'));
// runView | groups | eval (the run view with the eval dump) | pt (the .pt folder's two requests) | report (`rollout-lens
// report` on both folders): those only (implies --no-write)
const ONLY = arg('only', null);
const WRITE = !process.argv.includes('--no-write') && ONLY === null;
const TARGET_MB = 200;
// --server: another build's bundle (a before/after comparison; its answers are checked the same way).
const BUNDLE = resolve(arg('server', join(root, 'dist/server.js')));

// bench/scale.mjs writes the folder (2 GB); it is not regenerated here.
if (!existsSync(FOLDER)) throw new Error(`${FOLDER} is missing: run node bench/scale.mjs first (it writes the folder)`);
const files = readdirSync(FOLDER).filter((f) => f.endsWith('.jsonl'));
// bench/ptScale.mjs writes this one (5.9 GB, ~100 s of torch.save a dump).
const PT_FOLDER = resolve(arg('pt-folder', join(root, 'bench/.data/scale-pt-run-10x1m')));
const WITH_PT = ONLY === null || ONLY === 'pt' || ONLY === 'report';
/** The client's debounce before a redraw (client/src/runViewPanel.ts REDRAW_DEBOUNCE_MS). */
const REDRAW_DEBOUNCE_MS = 300;
const FOLLOW_TARGET_MS = { example: 1000, folder: 3000 };
if (WITH_PT && !existsSync(PT_FOLDER)) throw new Error(`${PT_FOLDER} is missing: run node bench/ptScale.mjs first (it writes the folder)`);
/** The logs under a folder (JSON Lines and `.pt` dumps), as paths relative to it, sorted. */
const logsIn = (folder) =>
  readdirSync(folder, { recursive: true })
    .filter((f) => /\.(jsonl|pt)$/.test(f))
    .sort();
const ptBytes = WITH_PT ? logsIn(PT_FOLDER).reduce((n, f) => n + statSync(join(PT_FOLDER, f)).size, 0) : 0;
const bytes = files.reduce((n, f) => n + statSync(join(FOLDER, f)).size, 0);

/** `check --format json` on a folder, cached next to it by its files' sizes and times. */
function expected(folder = FOLDER) {
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

function bounded(what, promise, ms) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** VmHWM / VmRSS of a process in MB. */
function memOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 };
}

/** The logs of a folder read through once: each request below starts with them in the page cache. */
function warmFolder(folder) {
  warm(logsIn(folder).map((f) => join(folder, f)));
}

/** A fresh server asked one request on a folder (its logs read through first): its answer, wall ms, CPU s, peak and held RSS. */
async function once(method, params, folder = FOLDER) {
  warmFolder(folder);
  const child = spawn(process.execPath, [...(process.env.RUNVIEW_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), BUNDLE, '--stdio'], {
    env: timedEnv,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise((r) => child.on('exit', r));
  const client = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  client.onRequest('workspace/configuration', (p) => p.items.map(() => ({})));
  client.onRequest('client/registerCapability', () => null);
  client.onRequest('window/workDoneProgress/create', () => null);
  client.onNotification(() => undefined);
  client.listen();
  const folderUri = pathToFileURL(folder).href;
  await bounded(
    'initialize',
    client.sendRequest('initialize', {
      processId: process.pid,
      rootUri: folderUri,
      capabilities: { workspace: { configuration: true } },
      workspaceFolders: [{ uri: folderUri, name: 'run' }],
    }),
    60_000,
  );
  await client.sendNotification('initialized', {});
  const base = memOf(child.pid);
  const cpu0 = cpuOf(child.pid);
  const t0 = performance.now();
  const answer = await bounded(method, client.sendRequest(method, { uri: folderUri, ...params }), 600_000);
  const ms = performance.now() - t0;
  const mem = memOf(child.pid);
  const cpu = cpuOf(child.pid) - cpu0;
  if (process.env.RUNVIEW_BENCH_NODE_ARGS) {
    child.kill('SIGUSR2');
    await new Promise((r) => setTimeout(r, 2000));
  }
  await bounded('shutdown', client.sendRequest('shutdown'), 10_000).catch(() => undefined);
  await client.sendNotification('exit').catch(() => undefined);
  await bounded('exit', exited, 10_000).catch(() => undefined);
  client.dispose();
  if (child.exitCode === null) child.kill();
  return { answer, ms, cpu, peak: mem.peak, held: mem.now, idle: base.now, answerMB: JSON.stringify(answer).length / 1e6 };
}

/**
 * One server draws the run view of `folder`, then `addStep()` writes a new step file and the run
 * view is asked again: the redraw's wall time (plus the client's debounce), its server CPU, the
 * server's peak RSS over both, and both answers.
 */
async function followOnce(folder, addStep) {
  warmFolder(folder);
  const child = spawn(process.execPath, [BUNDLE, '--stdio'], { env: timedEnv, stdio: ['pipe', 'pipe', 'inherit'] });
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
  const t0 = performance.now();
  const before = await bounded('runView', client.sendRequest('rolloutLens/runView', { uri }), 600_000);
  const firstMs = performance.now() - t0;
  addStep();
  const cpu0 = cpuOf(child.pid);
  const t1 = performance.now();
  const after = await bounded('runView again', client.sendRequest('rolloutLens/runView', { uri }), 600_000);
  const redrawMs = performance.now() - t1;
  const cpu = cpuOf(child.pid) - cpu0;
  const mem = memOf(child.pid);
  await bounded('shutdown', client.sendRequest('shutdown'), 10_000).catch(() => undefined);
  await client.sendNotification('exit').catch(() => undefined);
  await bounded('exit', exited, 10_000).catch(() => undefined);
  client.dispose();
  if (child.exitCode === null) child.kill();
  return { before, after, firstMs, ms: REDRAW_DEBOUNCE_MS + redrawMs, requestMs: redrawMs, cpu, peak: mem.peak };
}

/** The follow rows: the example run and the 10 M-sample folder, each checked (the new step drawn, with its samples). */
async function follow() {
  const loadBeforeFollow = load();
  const rows = [];
  const exampleLines = readFileSync(join(root, 'examples/run/rollout/rollout_2.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.stringify({ ...JSON.parse(l), rollout_id: 4 }));
  const folderLinks = join(root, 'bench/.data', `${basename(FOLDER)}-follow`);
  const short = join(root, 'bench/.data/scale-short-1m-seed7.jsonl');
  for (let i = 0; i < RUNS; i++) {
    const ex = join(root, 'bench/.data/runview-follow-example');
    rmSync(ex, { recursive: true, force: true });
    cpSync(join(root, 'examples/run'), ex, { recursive: true });
    const e = await followOnce(ex, () => writeFileSync(join(ex, 'rollout/rollout_4.jsonl'), `${exampleLines.join('\n')}\n`));
    const step4 = e.after.steps.find((s) => s.step === 4 && e.after.runs[s.run].framework === 'miles');
    if (!step4 || step4.samples !== exampleLines.length || e.after.totals.samples !== e.before.totals.samples + exampleLines.length)
      throw new Error(`example run: the redrawn model lacks step 4 of ${exampleLines.length} samples`);
    rows.push({ what: 'example', ...e });
    console.log(
      `follow (example run): first ${(e.firstMs / 1000).toFixed(2)} s, new step file → redrawn model ${e.ms.toFixed(0)} ms, peak RSS ${e.peak.toFixed(0)} MB`,
    );

    if (!existsSync(short)) throw new Error(`${short} is missing: run node bench/scale.mjs first`);
    rmSync(folderLinks, { recursive: true, force: true });
    mkdirSync(folderLinks, { recursive: true });
    for (const f of files) linkSync(join(FOLDER, f), join(folderLinks, f));
    const n = files.length + 1;
    const f = await followOnce(folderLinks, () => linkSync(short, join(folderLinks, `rollout_${n}.jsonl`)));
    const added = f.after.steps.find((s) => s.step === n);
    if (!added || added.samples !== 1_000_000 || f.after.totals.samples !== want.totals.samples + 1_000_000 || f.before.totals.samples !== want.totals.samples)
      throw new Error(`10 M folder: the redrawn model lacks step ${n} of 1,000,000 samples (${JSON.stringify(f.after.totals)})`);
    rows.push({ what: 'folder', ...f });
    console.log(
      `follow (10 M folder): first ${(f.firstMs / 1000).toFixed(1)} s, new step file → redrawn model ${f.ms.toFixed(0)} ms, CPU ${f.cpu.toFixed(1)} s, peak RSS ${f.peak.toFixed(0)} MB`,
    );
  }
  rmSync(folderLinks, { recursive: true, force: true });
  const line = (what, label, target) => {
    const xs = rows.filter((r) => r.what === what);
    const ms = pct(
      xs.map((x) => x.ms),
      50,
    );
    const peak = Math.max(...xs.map((x) => x.peak));
    const first = pct(
      xs.map((x) => x.firstMs),
      50,
    );
    const rss = what === 'folder' ? `; ≤ ${TARGET_MB} MB: ${peak <= TARGET_MB ? 'met' : 'missed'}` : '';
    return `| ${label} | ${(first / 1000).toFixed(2)} | ${ms.toFixed(0)} | ${pct(
      xs.map((x) => x.cpu),
      50,
    ).toFixed(2)} | ${peak.toFixed(0)} | ≤ ${target} ms: ${ms <= target ? 'met' : `missed by ${(ms - target).toFixed(0)} ms`}${rss} |`;
  };
  return `
## Run view following its run

\`node bench/runView.mjs --only follow --runs ${RUNS}\`: one language server draws the run view, then a new step file appears and the run view is asked again; "redraw" is the client's debounce (${REDRAW_DEBOUNCE_MS} ms, added) plus that request's wall time, each answer checked (the new step, with its samples); unchanged files are not read again (their part of the model is kept by their stamp). Runs: ${RUNS}, p50 shown. ${machine(loadBeforeFollow)}.

| run, new step file | first draw (s) | redraw (ms) | redraw server CPU (s) | peak RSS (MB) | target |
|---|---|---|---|---|---|
${line('example', 'example run (examples/run), `rollout/rollout_4.jsonl` of 8 groups', FOLLOW_TARGET_MS.example)}
${line('folder', `10 M-sample folder (${files.length} × 1 M), \`rollout_${files.length + 1}.jsonl\` of 1 M samples`, FOLLOW_TARGET_MS.folder)}
`;
}

/** User + system CPU seconds of a process. */
function cpuOf(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** The 0-based line `n` of a file, found by counting newlines (the sample view's answer is checked against it). */
function lineOf(path, n) {
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

const want = expected();
console.log(`${FOLDER}: ${files.length} files, ${(bytes / 1e6).toFixed(0)} MB, ${want.totals.samples} samples`);
if (ONLY === 'follow' || ONLY === null) {
  const body = await follow();
  console.log(body);
  if (ONLY === 'follow' ? !process.argv.includes('--no-write') : WRITE) writeSection('runview-follow', body);
  if (ONLY === 'follow') process.exit(0);
}
const loadBefore = load();
const got = { runView: [], groups: [], fileGroups: [], sample: [], withEval: [], ptRunView: [], ptGroups: [], report: [], ptReport: [] };

/** The run view's totals (its steps: the rollout files) and its eval rows' samples, checked against `check`. */
function checkRunView(rv, w) {
  const t = rv.answer.totals;
  for (const k of ['files', 'samples', 'groups', 'kept', 'dropped'])
    if (t[k] !== w.totals[k]) throw new Error(`runView totals.${k} = ${t[k]}, check says ${w.totals[k]}`);
  const evalSamples = rv.answer.eval.reduce((n, e) => n + e.samples, 0);
  if (evalSamples !== (w.evalSamples ?? 0)) throw new Error(`runView eval rows hold ${evalSamples} samples, check says ${w.evalSamples}`);
}

/** The Groups view's answer for a folder: the same files as `check`, each with its kept and dropped groups. */
function checkGroups(gr, w) {
  const perFile = Object.fromEntries(gr.answer.files.map((f) => [f.uri, { kept: f.kept, dropped: f.dropped }]));
  if (JSON.stringify(Object.keys(perFile).sort()) !== JSON.stringify(Object.keys(w.perFile).sort()))
    throw new Error('groupsByCause lists other files than check');
  for (const [uri, want] of Object.entries(w.perFile))
    if (perFile[uri].kept !== want.kept || perFile[uri].dropped !== want.dropped)
      throw new Error(`groupsByCause ${uri}: ${JSON.stringify(perFile[uri])}, check says ${JSON.stringify(want)}`);
}

/**
 * `rollout-lens report` on a folder, the same model as the run view written as one HTML file: its
 * wall and CPU time and peak RSS (bench/maxrss.cjs), its groups and dropped groups checked.
 */
function report(folder, w) {
  const out = join(root, 'bench/.data', `runview-report-${basename(folder)}.html`);
  warmFolder(folder);
  const m = measure([join(root, 'dist/cli.js'), 'report', '--exit-zero', '--out', out, folder]);
  const said = /(\d+) groups \((\d+) dropped\)/.exec(m.stdout);
  if (!said || Number(said[1]) !== w.totals.groups || Number(said[2]) !== w.totals.dropped)
    throw new Error(`report on ${folder} says ${m.stdout.trim()}, check says ${w.totals.groups} groups (${w.totals.dropped} dropped)`);
  const answerMB = statSync(out).size / 1e6;
  rmSync(out);
  return { ms: m.wall * 1000, cpu: m.cpu, peak: m.rss, held: null, idle: null, answerMB };
}

/** FOLDER's files and the short file as `eval/eval_1.jsonl`, as hard links in a folder of bench/.data. */
function folderWithEvalDump() {
  const short = join(root, 'bench/.data/scale-short-1m-seed7.jsonl');
  if (!existsSync(short)) throw new Error(`${short} is missing: run node bench/scale.mjs first`);
  const dir = join(root, 'bench/.data', `${basename(FOLDER)}-and-eval`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'eval'), { recursive: true });
  for (const f of files) linkSync(join(FOLDER, f), join(dir, f));
  linkSync(short, join(dir, 'eval/eval_1.jsonl'));
  return dir;
}
const EVAL_FOLDER = (ONLY === null && arg('folder', null) === null) || ONLY === 'eval' ? folderWithEvalDump() : null;
const wantWithEval = EVAL_FOLDER === null ? null : expected(EVAL_FOLDER);
const wantPt = WITH_PT ? expected(PT_FOLDER) : null;
// The follow-up requests on one file of the folder, not open: the Groups view expanding that
// step's node, and the sample view of a sample in its middle.
const ONE = join(FOLDER, files.sort()[0]);
const ONE_URI = pathToFileURL(ONE).href;
const SAMPLE_LINE = Math.floor(want.totals.samples / files.length / 2);
const sampleRecord = JSON.parse(lineOf(ONE, SAMPLE_LINE));
for (let i = 0; i < RUNS; i++) {
  if (ONLY === null || ONLY === 'pt') {
    const rv = await once('rolloutLens/runView', {}, PT_FOLDER);
    checkRunView(rv, wantPt);
    got.ptRunView.push(rv);
    console.log(
      `runView (.pt dumps): ${(rv.ms / 1000).toFixed(1)} s, CPU ${rv.cpu.toFixed(1)} s, peak RSS ${rv.peak.toFixed(0)} MB, held after ${rv.held.toFixed(0)} MB`,
    );
    const gr = await once('rolloutLens/groupsByCause', {}, PT_FOLDER);
    checkGroups(gr, wantPt);
    got.ptGroups.push(gr);
    console.log(
      `groupsByCause (.pt dumps): ${(gr.ms / 1000).toFixed(1)} s, CPU ${gr.cpu.toFixed(1)} s, peak RSS ${gr.peak.toFixed(0)} MB, held after ${gr.held.toFixed(0)} MB`,
    );
  }
  if (ONLY === null || ONLY === 'report') {
    const r = report(FOLDER, want);
    got.report.push(r);
    console.log(`report: ${(r.ms / 1000).toFixed(1)} s, CPU ${r.cpu.toFixed(1)} s, peak RSS ${r.peak.toFixed(0)} MB`);
    const p = report(PT_FOLDER, wantPt);
    got.ptReport.push(p);
    console.log(`report (.pt dumps): ${(p.ms / 1000).toFixed(1)} s, CPU ${p.cpu.toFixed(1)} s, peak RSS ${p.peak.toFixed(0)} MB`);
  }
  if (ONLY === 'pt' || ONLY === 'report') continue;
  if (EVAL_FOLDER !== null) {
    const rv = await once('rolloutLens/runView', {}, EVAL_FOLDER);
    checkRunView(rv, wantWithEval);
    got.withEval.push(rv);
    console.log(`runView (with an eval dump): ${(rv.ms / 1000).toFixed(1)} s, peak RSS ${rv.peak.toFixed(0)} MB, held after ${rv.held.toFixed(0)} MB`);
  }
  if (ONLY === 'eval') continue;
  if (ONLY !== 'groups') {
    const rv = await once('rolloutLens/runView', {});
    checkRunView(rv, want);
    got.runView.push(rv);
    console.log(`runView: ${(rv.ms / 1000).toFixed(1)} s, CPU ${rv.cpu.toFixed(1)} s, peak RSS ${rv.peak.toFixed(0)} MB, held after ${rv.held.toFixed(0)} MB`);
  }
  if (ONLY === 'runView') continue;

  const gr = await once('rolloutLens/groupsByCause', {});
  checkGroups(gr, want);
  got.groups.push(gr);
  console.log(
    `groupsByCause: ${(gr.ms / 1000).toFixed(1)} s, CPU ${gr.cpu.toFixed(1)} s, peak RSS ${gr.peak.toFixed(0)} MB, held after ${gr.held.toFixed(0)} MB`,
  );

  const fg = await once('rolloutLens/groupsByCause', { uri: ONE_URI });
  const [listed] = fg.answer.files;
  const w = want.perFile[ONE_URI];
  if (fg.answer.files.length !== 1 || listed.kept !== w.kept || listed.dropped !== w.dropped || listed.groupsListed === false)
    throw new Error(`groupsByCause ${ONE_URI}: ${JSON.stringify({ kept: listed?.kept, dropped: listed?.dropped })}, check says ${JSON.stringify(w)}`);
  if (listed.buckets.reduce((n, b) => n + (b.count ?? b.groups.length + (b.omitted ?? 0)), 0) !== w.kept + w.dropped)
    throw new Error('groupsByCause: bucket counts do not add up to the groups');
  got.fileGroups.push(fg);
  console.log(`groupsByCause (one file): ${(fg.ms / 1000).toFixed(1)} s, peak RSS ${fg.peak.toFixed(0)} MB`);

  const sv = await once('rolloutLens/sampleView', { uri: ONE_URI, line: SAMPLE_LINE });
  if (sv.answer?.line !== SAMPLE_LINE + 1 || sv.answer.status !== (sampleRecord.status ?? null))
    throw new Error(
      `sampleView line ${SAMPLE_LINE}: ${JSON.stringify({ line: sv.answer?.line, status: sv.answer?.status })}, the file says ${sampleRecord.status}`,
    );
  got.sample.push(sv);
  console.log(`sampleView (one file): ${(sv.ms / 1000).toFixed(1)} s, peak RSS ${sv.peak.toFixed(0)} MB`);
}

if (ONLY !== null) process.exit(0);

const row = (label, xs) => {
  const peak = Math.max(...xs.map((x) => x.peak));
  return `| ${label} | ${(
    pct(
      xs.map((x) => x.ms),
      50,
    ) / 1000
  ).toFixed(1)} | ${pct(
    xs.map((x) => x.cpu),
    50,
  ).toFixed(
    1,
  )} | ${peak.toFixed(0)} | ${xs[0].held === null ? '—' : Math.max(...xs.map((x) => x.held)).toFixed(0)} | ${xs[0].idle === null ? '—' : xs[0].idle.toFixed(0)} | ${xs[0].answerMB.toFixed(1)} | ≤ ${TARGET_MB}: ${peak <= TARGET_MB ? 'met' : `missed by ${(peak - TARGET_MB).toFixed(0)} MB`} |`;
};
const body = `
## Run view over a large run folder

\`node bench/runView.mjs --runs ${RUNS}\` (after \`node esbuild.mjs\`): a fresh language server (\`dist/server.js --stdio\`) per request, on the folder of
bench/scale.mjs (${files.length} files, ${(bytes / 1e6).toFixed(0)} MB, ${want.totals.samples.toLocaleString('en-US')} samples), with an eval dump beside it, and on the folder of
10 \`.pt\` dumps of bench/ptScale.mjs (${(ptBytes / 1e6).toFixed(0)} MB, ${(wantPt?.totals.samples ?? 0).toLocaleString('en-US')} samples); every answer checked against \`check\` first.
Peak RSS: the server's VmHWM after the answer; "held": its VmRSS then; "idle": before the request; report rows: the CLI process.
Runs: ${RUNS}, p50 shown. ${machine(loadBefore)}.

| request | wall (s) | server CPU (s) | peak RSS (MB) | held after (MB) | idle (MB) | answer JSON (MB) | target |
|---|---|---|---|---|---|---|---|
${row('`rolloutLens/runView` (folder)', got.runView)}
${row('`rolloutLens/groupsByCause` (folder)', got.groups)}
${row('`rolloutLens/groupsByCause` (one file of it: a step node expanded)', got.fileGroups)}
${row(`\`rolloutLens/sampleView\` (line ${SAMPLE_LINE + 1} of that file, not open)`, got.sample)}
${row(`\`rolloutLens/runView\` (the folder and a miles eval dump of ${(wantWithEval?.evalSamples ?? 0).toLocaleString('en-US')} short samples, \`eval/eval_1.jsonl\`)`, got.withEval)}
${row('`rolloutLens/runView` (the folder of 10 `.pt` dumps)', got.ptRunView)}
${row('`rolloutLens/groupsByCause` (the folder of 10 `.pt` dumps)', got.ptGroups)}
${row('`rollout-lens report` (the folder; the answer: the HTML file)', got.report)}
${row('`rollout-lens report` (the folder of 10 `.pt` dumps)', got.ptReport)}
`;
console.log(body);
if (WRITE) writeSection('runview', body);
