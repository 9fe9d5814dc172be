// `npm run bench` (part): a miles `.pt` dump of about 250 MB written by the real torch.save
// (bench/pt_generate.py, /usr/bin/python3 with python3-torch), read by `rollout-lens check` and by
// torch.load. Results are checked equal first (every sample's index, group, status, reward, cause
// and response length, and the token and log-prob counts), then both are timed; figures go to
// BENCHMARKS.md. Skipped with a message when no Python with torch is there.
//   node bench/pt.mjs [--samples 4000] [--runs 3] [--no-write] [--text-kb K] [--cli dist/cli.js]
// `--text-kb K`: a text-heavy dump (K KB of response text per sample, prompts shared per group;
// bench/pt_generate.py), to show peak RSS does not grow with the dump's text (never written to
// BENCHMARKS.md by itself). `--cli`: another build of the CLI to time (e.g. one from before a change).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { arg, load, loadEngine, machine, measure, pct, root, writeSection } from './measure.mjs';

const samples = Number(arg('samples', '4000'));
const runs = Number(arg('runs', '3'));
const textKb = Number(arg('text-kb', '0'));
const python = process.env.ROLLOUT_LENS_TORCH_PYTHON ?? '/usr/bin/python3';
const dataDir = join(root, 'bench/.data');
mkdirSync(dataDir, { recursive: true });

const probe = spawnSync(python, ['-c', 'import torch'], { encoding: 'utf8' });
if (probe.status !== 0) {
  console.log(`pt bench skipped: ${python} has no torch (Debian: apt-get install python3-torch)`);
  process.exit(0);
}

const file = join(dataDir, `miles-${samples}${textKb ? `-text${textKb}k` : ''}.pt`);
if (!existsSync(file)) {
  console.log(`generating ${file} with torch.save (${samples} samples) ...`);
  const g = spawnSync(python, [join(root, 'bench/pt_generate.py'), 'write', file, String(samples), String(textKb)], { stdio: 'inherit' });
  if (g.status !== 0) throw new Error('pt_generate.py failed');
}
const size = statSync(file).size;
console.log(`${file}: ${(size / 1e6).toFixed(0)} MB`);

// ---- correctness first: the engine's records against torch.load's view ----
const expectedFile = file.replace(/\.pt$/, '.expected.json');
const torchRuns = [];
const torchOnce = () => {
  const r = spawnSync(python, [join(root, 'bench/pt_generate.py'), 'load', file, expectedFile], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`torch.load failed: ${r.stderr.slice(-1000)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
};
torchRuns.push(torchOnce());
const expected = JSON.parse(readFileSync(expectedFile, 'utf8'));

const engine = await loadEngine(dataDir);
const scan = await engine.scanFile({ path: file, displayPath: file }, { access: engine.nodeFileAccess, settings: engine.DEFAULT_SETTINGS });
if (scan.format !== 'miles-pt' || scan.samples.length !== expected.length)
  throw new Error(`engine: ${scan.format}, ${scan.samples.length} samples; torch.load: ${expected.length}`);
// The scan keeps samples in a columnar store: records are materialised here.
scan.samples.toArray().forEach((s, i) => {
  const [index, group, status, reward, cause, responseLength] = expected[i];
  const got = [s.index, s.groupKey, s.status, s.reward, s.cause, s.responseLength];
  const want = [index, String(group), status, reward, cause, responseLength];
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`sample ${i}: engine ${JSON.stringify(got)}, torch.load ${JSON.stringify(want)}`);
});
// Token and log-prob counts, from the export (which keeps them).
const { exportPtLines } = engine;
if (exportPtLines) {
  let i = 0;
  await exportPtLines(engine.nodeFileAccess, file, (line) => {
    const o = JSON.parse(line);
    const [, , , , , , tokens, logprobs] = expected[i++];
    if (o.tokens.length !== tokens || o.rollout_log_probs.length !== logprobs) throw new Error(`sample ${i}: token/log-prob counts differ`);
  });
}
console.log(`  ${expected.length} samples agree with torch.load (index, group, status, reward, cause, response length, token and log-prob counts)`);

// ---- timing: check (the built CLI) and torch.load, interleaved ----
const loadBefore = load();
const cli = arg('cli', join(root, 'dist/cli.js'));
const checks = [];
// `inspect` of the dump's last aborted sample, whose failure comes from the dump: a sample is only
// reached by reading the pickle up to it (server/src/core/scan/sampleLine.ts, docs/pt.md).
const lastAborted = expected.findLastIndex((e) => e[2] === 'aborted');
if (lastAborted < 0) throw new Error('the dump has no aborted sample');
const inspects = [];
for (let i = 0; i < runs; i++) {
  checks.push(measure([cli, 'check', '--format', 'json', '--exit-zero', file]));
  inspects.push(measure([cli, 'inspect', file, String(lastAborted + 1)]));
  if (!inspects[i].stdout.includes(`metadata.exit_status: ${expected[lastAborted][4]}`)) throw new Error(`inspect: no exit status in ${inspects[i].stdout}`);
  if (i > 0) torchRuns.push(torchOnce());
}
const inspectWall = pct(
  inspects.map((c) => c.wall),
  50,
);
const inspectCpu = pct(
  inspects.map((c) => c.cpu),
  50,
);
const inspectRss = Math.max(...inspects.map((c) => c.rss));
const checkWall = pct(
  checks.map((c) => c.wall),
  50,
);
const checkRss = Math.max(...checks.map((c) => c.rss));
const torchWall = pct(
  torchRuns.map((t) => t.seconds),
  50,
);
const torchRss = Math.max(...torchRuns.map((t) => t.peak_rss_mb));
// CPU time (the whole process for check, torch.load's own for Python) is steadier than wall time
// on a shared machine.
const checkCpu = pct(
  checks.map((c) => c.cpu),
  50,
);
const torchCpu = pct(
  torchRuns.map((t) => t.cpu_seconds ?? t.seconds),
  50,
);
const speedup = torchWall / checkWall;
const cpuRatio = torchCpu / checkCpu;
console.log(`  inspect of line ${lastAborted + 1} ${inspectWall.toFixed(2)} s (CPU ${inspectCpu.toFixed(2)} s), peak RSS ${inspectRss.toFixed(0)} MB`);
console.log(
  `  check ${checkWall.toFixed(2)} s (CPU ${checkCpu.toFixed(2)} s), peak RSS ${checkRss.toFixed(0)} MB; torch.load ${torchWall.toFixed(2)} s (CPU ${torchCpu.toFixed(2)} s), peak RSS ${torchRss.toFixed(0)} MB; ${speedup.toFixed(1)}x wall, ${cpuRatio.toFixed(1)}x CPU`,
);
if (speedup < 5) console.log('  WARNING: below the 5x target');
if (checkRss > 200) console.log('  WARNING: above the 200 MB target');

if (!process.argv.includes('--no-write') && textKb === 0) {
  writeSection(
    'pt',
    `## check on a miles .pt dump (torch.save, ${(size / 1e6).toFixed(0)} MB)

\`node bench/pt.mjs --samples ${samples} --runs ${runs}\` (part of \`npm run bench\`): ${samples} samples of
${expected[0][6]} token ids and ${expected[0][7]} log-probs each, written by torch.save (bench/pt_generate.py).
Results checked equal to torch.load's first. Median of ${runs}; peak RSS is the whole process.

| reader | wall (median) | CPU (median) | peak RSS |
|---|---|---|---|
| \`rollout-lens check --format json\` | ${checkWall.toFixed(2)} s | ${checkCpu.toFixed(2)} s | ${checkRss.toFixed(0)} MB |
| \`rollout-lens inspect\` of the last aborted sample (line ${lastAborted + 1}, with its failure from the dump) | ${inspectWall.toFixed(2)} s | ${inspectCpu.toFixed(2)} s | ${inspectRss.toFixed(0)} MB |
| \`torch.load\` (Python, torch ${spawnSync(python, ['-c', 'import torch; print(torch.__version__)'], { encoding: 'utf8' }).stdout.trim()}) | ${torchWall.toFixed(2)} s | ${torchCpu.toFixed(2)} s | ${torchRss.toFixed(0)} MB |

check is ${speedup.toFixed(1)}× faster than torch.load in wall time, ${cpuRatio.toFixed(1)}× in CPU time (runs
interleaved). Machine: ${machine(loadBefore)}.`,
  );
}
