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
// And the run view following its run (--only follow, its own section): bench/runViewFollow.mjs.
//   node bench/runView.mjs [--folder bench/.data/scale-run-10x1m] [--pt-folder bench/.data/scale-pt-run-10x1m]
//     [--runs 1] [--no-write] [--only runView|groups|eval|pt|report|follow]
//     [--server <other build>/dist/server.js]
//   RUNVIEW_BENCH_NODE_ARGS='--expose-gc -r ./probe.cjs' adds node flags to the server processes
//   (each is sent SIGUSR2 after its answer, for a probe that reports its heap).
import { existsSync, linkSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { arg, load, machine, measure, pct, root, writeSection } from './measure.mjs';
import { follow } from './runViewFollow.mjs';
import { bounded, cpuOf, expected, lineOf, logsIn, memOf, serverOn, warmFolder } from './runViewServer.mjs';

const FOLDER = resolve(arg('folder', join(root, 'bench/.data/scale-run-10x1m')));
const RUNS = Number(arg('runs', '1'));
// runView | groups | eval (the run view with the eval dump) | pt (the .pt folder's two requests) | report (`rollout-lens
// report` on both folders) | follow (bench/runViewFollow.mjs): those only (implies --no-write)
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
if (WITH_PT && !existsSync(PT_FOLDER)) throw new Error(`${PT_FOLDER} is missing: run node bench/ptScale.mjs first (it writes the folder)`);
const ptBytes = WITH_PT ? logsIn(PT_FOLDER).reduce((n, f) => n + statSync(join(PT_FOLDER, f)).size, 0) : 0;
const bytes = files.reduce((n, f) => n + statSync(join(FOLDER, f)).size, 0);

/** A fresh server asked one request on a folder (its logs read through first): its answer, wall ms, CPU s, peak and held RSS. */
async function once(method, params, folder = FOLDER) {
  warmFolder(folder);
  const { client, child, uri: folderUri, close } = await serverOn(BUNDLE, folder, (process.env.RUNVIEW_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean));
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
  await close();
  return { answer, ms, cpu, peak: mem.peak, held: mem.now, idle: base.now, answerMB: JSON.stringify(answer).length / 1e6 };
}

const want = expected(FOLDER);
console.log(`${FOLDER}: ${files.length} files, ${(bytes / 1e6).toFixed(0)} MB, ${want.totals.samples} samples`);
if (ONLY === 'follow' || ONLY === null) {
  const body = await follow({ bundle: BUNDLE, folder: FOLDER, files, want, runs: RUNS });
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
