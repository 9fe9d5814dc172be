// `npm run bench` (part): miles train_data (docs/framework-files.md#train-data), written by miles'
// own save_debug_train_data_for_rank with Debian's torch (bench/train_data_generate.py), seeded:
// - one step of about 1 GB over 4 data-parallel ranks, read by `rollout-lens check` and by
//   torch.load (each file in turn). check's mismatch (tokens, mean |Δ| over the loss mask, through
//   `summarize`) is checked equal to numpy's from torch.load first;
// - a run of 1 000 steps whose mismatch drifts from step 700: `check` of it (the drift finding
//   checked to name step 700), and the drift finder alone in-process over the 1 000 steps' figures.
// Needs a miles extraction (the folder holding `miles/`): --miles <dir> or ROLLOUT_LENS_MILES, only
// to generate bench/.data/train-* once; skipped with a message without it or without torch.
//   node bench/trainData.mjs [--samples 3600] [--ranks 4] [--steps 1000] [--runs 3] [--no-write]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { arg, load, loadEngine, machine, measure, pct, root, writeSection } from './measure.mjs';

const samples = Number(arg('samples', '3600'));
const ranks = Number(arg('ranks', '4'));
const steps = Number(arg('steps', '1000'));
const runs = Number(arg('runs', '3'));
const driftFrom = Math.floor(steps * 0.7);
const python = process.env.ROLLOUT_LENS_TORCH_PYTHON ?? '/usr/bin/python3';
const miles = arg('miles', process.env.ROLLOUT_LENS_MILES ?? '');
const dataDir = join(root, 'bench/.data');
mkdirSync(dataDir, { recursive: true });
const gen = join(root, 'bench/train_data_generate.py');

if (spawnSync(python, ['-c', 'import torch, numpy'], { encoding: 'utf8' }).status !== 0) {
  console.log(`train_data bench skipped: ${python} has no torch and numpy (Debian: apt-get install python3-torch)`);
  process.exit(0);
}
const big = join(dataDir, `train-${samples}-${ranks}`);
const drift = join(dataDir, `drift-${steps}`);
for (const [dir, argv] of [
  [big, ['write', miles, big, String(samples), String(ranks)]],
  [drift, ['drift', miles, drift, String(steps), String(driftFrom)]],
]) {
  if (existsSync(join(dir, 'train_data'))) continue;
  if (!miles) {
    console.log(`train_data bench skipped: ${dir} is not there; give --miles <extraction> to write it`);
    process.exit(0);
  }
  console.log(`generating ${dir} with miles' save_debug_train_data_for_rank ...`);
  if (spawnSync(python, [gen, ...argv], { stdio: 'inherit' }).status !== 0) throw new Error('train_data_generate.py failed');
}
const files = readdirSync(join(big, 'train_data'))
  .sort()
  .map((f) => join(big, 'train_data', f));
const size = files.reduce((n, f) => n + statSync(f).size, 0);
console.log(`${big}: ${files.length} ranks, ${(size / 1e6).toFixed(0)} MB`);
const cli = arg('cli', join(root, 'dist/cli.js'));

// ---- correctness first: check's mismatch against numpy's from torch.load ----
const torchOnce = () => {
  const r = spawnSync(python, [gen, 'load', ...files], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`torch.load failed: ${r.stderr.slice(-1000)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
};
const torchRuns = [torchOnce()];
const summary = JSON.parse(measure([cli, 'summarize', big]).stdout);
const m = summary.steps[0]?.mismatch;
const want = torchRuns[0];
if (!m || m.tokens !== want.tokens || Math.abs(m.mean - want.mean) > 1e-12 * want.mean)
  throw new Error(`check: ${JSON.stringify(m)}; numpy from torch.load: ${want.tokens} tokens, mean ${want.mean}`);
console.log(`  ${m.tokens} masked tokens, mean |Δ| ${m.mean}: equal to numpy's from torch.load`);

// ---- timing: check and torch.load, interleaved ----
const loadBefore = load();
const checks = [];
for (let i = 0; i < runs; i++) {
  checks.push(measure([cli, 'check', '--format', 'json', '--exit-zero', big]));
  if (i > 0) torchRuns.push(torchOnce());
  console.log(
    `  run ${i + 1}: check ${checks[i].wall.toFixed(2)} s (CPU ${checks[i].cpu.toFixed(2)} s, ${checks[i].rss.toFixed(0)} MB); torch.load ${torchRuns[i].seconds.toFixed(2)} s (CPU ${torchRuns[i].cpu_seconds.toFixed(2)} s); load ${load()}`,
  );
}
const med = (xs) => pct(xs, 50);
const checkWall = med(checks.map((c) => c.wall));
const checkCpu = med(checks.map((c) => c.cpu));
const checkRss = Math.max(...checks.map((c) => c.rss));
const torchWall = med(torchRuns.map((t) => t.seconds));
const torchCpu = med(torchRuns.map((t) => t.cpu_seconds));
const torchRss = Math.max(...torchRuns.map((t) => t.peak_rss_mb));

// ---- the drift run: check of it, and the finder alone ----
const driftChecks = [];
for (let i = 0; i < runs; i++) {
  const c = measure([cli, 'check', '--format', 'json', '--exit-zero', drift]);
  const found = JSON.parse(c.stdout).findings.filter((f) => f.code === 'logprob-drift');
  if (found.length !== 1 || !found[0].message.startsWith(`step ${driftFrom}:`)) throw new Error(`drift: ${JSON.stringify(found)}`);
  driftChecks.push(c);
}
const engine = await loadEngine(dataDir);
const driftSteps = [];
for (let s = 0; s < steps; s++) {
  const path = join(drift, 'train_data', `${s}_0.pt`);
  const r = await engine.analyzeTrainStep(engine.nodeFileAccess, { step: s, files: [{ path, displayPath: path }], join: null });
  driftSteps.push({ step: s, mean: r.mismatch.mean, tokens: r.mismatch.tokens, buckets: r.buckets, file: path });
}
const finder = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const c = process.cpuUsage();
  const d = engine.findDrift(driftSteps);
  engine.driftFinding(d);
  const u = process.cpuUsage(c);
  finder.push({ wall: (performance.now() - t) / 1000, cpu: (u.user + u.system) / 1e6 });
  if (d?.step !== driftFrom) throw new Error(`findDrift: step ${d?.step}`);
}
// ---- the floor: what check reads, without a figure: the pickles, then the storages it needs ----
const floors = [];
for (let i = 0; i < runs; i++) {
  const f = { pickle: 0, read: 0, readWall: 0, bytes: 0, reads: 0 };
  for (const path of files) {
    let c = process.cpuUsage();
    const rank = await engine.readTrainFile(engine.nodeFileAccess, { path, displayPath: path });
    let u = process.cpuUsage(c);
    f.pickle += (u.user + u.system) / 1e6;
    const lists = [...rank.data.keys()]
      .filter((k) => k === 'loss_masks' || !engine.UNLOGGED_KEYS.has(k))
      .flatMap((k) => engine.tensorsOf(rank.data.get(k)) ?? []);
    const rows = engine.tensorsOf(rank.data.get('loss_masks')).length;
    const keys = lists.length / rows;
    const t = performance.now();
    c = process.cpuUsage();
    const file = await engine.nodeFileAccess.open(path);
    const counted = { read: async (...a) => ((f.reads += 1), (f.bytes += a[2]), file.read(...a)), close: () => file.close() };
    const batch = new engine.StorageBatch(counted, statSync(path).size, rank.records, rank.littleEndian);
    for (let from = 0; from < rows;) from = await batch.load(from, rows, (r) => Array.from({ length: keys }, (_, k) => lists[k * rows + r]));
    await file.close();
    u = process.cpuUsage(c);
    f.read += (u.user + u.system) / 1e6;
    f.readWall += (performance.now() - t) / 1000;
  }
  floors.push(f);
}
const floorPickle = med(floors.map((f) => f.pickle));
const floorRead = med(floors.map((f) => f.read));
const floorReadWall = med(floors.map((f) => f.readWall));
const finderWall = med(finder.map((f) => f.wall));
const finderCpu = med(finder.map((f) => f.cpu));
const driftWall = med(driftChecks.map((c) => c.wall));
const driftCpu = med(driftChecks.map((c) => c.cpu));
console.log(
  `  check ${checkWall.toFixed(2)} s (CPU ${checkCpu.toFixed(2)} s), ${checkRss.toFixed(0)} MB; torch.load ${torchWall.toFixed(2)} s (CPU ${torchCpu.toFixed(2)} s), ${torchRss.toFixed(0)} MB`,
);
console.log(
  `  drift run: check ${driftWall.toFixed(2)} s (CPU ${driftCpu.toFixed(2)} s); the finder alone ${(finderWall * 1000).toFixed(1)} ms (CPU ${(finderCpu * 1000).toFixed(1)} ms)`,
);
if (torchWall / checkWall < 5) console.log(`  WARNING: ${(torchWall / checkWall).toFixed(2)}x torch.load's wall time, below the 5x target`);
if (checkRss > 200) console.log('  WARNING: above the 200 MB target');
if (finderWall > 2) console.log('  WARNING: the drift finder above 2 s');

if (!process.argv.includes('--no-write')) {
  const x = (a, b) => `${(a / b).toFixed(2)}×`;
  writeSection(
    'train-data',
    `## train_data: a 1 GB step, and the drift finder over ${steps} steps
\`node bench/trainData.mjs\`: a step of ${samples} samples over ${ranks} ranks, ${(size / 1e6).toFixed(0)} MB, ${m.tokens} masked tokens, by miles' save_debug_train_data_for_rank with torch ${want.torch} (bench/train_data_generate.py, seeded; check's mismatch equals numpy's from torch.load). Median of ${runs}; \`torch.load\` of the ${ranks} files (no figure) ${torchWall.toFixed(2)} s wall, ${torchCpu.toFixed(2)} s CPU, ${torchRss.toFixed(0)} MB. Targets: ≥ 5× torch.load, ≤ 200 MB; the finder ≤ 2 s. A ${steps}-step run drifting from step ${driftFrom}: \`check\` ${driftWall.toFixed(2)} s wall, ${driftCpu.toFixed(2)} s CPU (the finding on step ${driftFrom}), the finder alone ${(finderWall * 1000).toFixed(1)} ms (met). Machine: ${machine(loadBefore)}.
| measure | wall | CPU | peak RSS | torch.load ÷ it: wall, CPU |
|---|---:|---:|---:|---|
| \`check --format json\` of the step (all figures) | ${checkWall.toFixed(2)} s | ${checkCpu.toFixed(2)} s | ${checkRss.toFixed(0)} MB | ${x(torchWall, checkWall)}, ${x(torchCpu, checkCpu)} (5×: ${torchWall / checkWall >= 5 ? 'met' : 'missed'}; ≤ 200 MB: ${checkRss <= 200 ? 'met' : 'missed'}) |
| its floor, in-process with the code warm, no figure: the ${ranks} pickles; the storages it needs (${(floors[0].bytes / 1e6).toFixed(0)} MB of ${(size / 1e6).toFixed(0)}, ${floors[0].reads} reads, tokens seeked over) | —; ${floorReadWall.toFixed(2)} s | ${floorPickle.toFixed(2)} s; ${floorRead.toFixed(2)} s | — | the two: ${x(torchCpu, floorPickle + floorRead)} in CPU |`,
  );
}
