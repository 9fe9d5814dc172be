// Comparing runs (BENCHMARKS.md, "Comparing runs: summarize and diff"), each figure with its
// answers checked first:
//   - `summarize` of the 10 M-sample run folder (bench/scale.mjs's `folder` input) against `check`
//     on it: wall, CPU, peak RSS; and the summary's size per prompt-step;
//   - `diff` of two seeded summaries of 1 000 rollout steps × 512 prompts (bench/compareData.mjs):
//     wall, CPU, peak RSS; every run prints the same;
//   - `summarize` of a 200-file folder with `--jobs 2` against `--jobs 1` (the same bytes), and the
//     machine's own bound for two threads: two `--jobs 1` processes side by side.
//   node bench/compare.mjs [--runs 3] [--only summarize,diff,jobs] [--no-write]   (after `npm run build`)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { writeSyntheticSummary } from './compareData.mjs';
import { GENERATION, generateMilesRollout } from './generate.mjs';
import { arg, atOnce, load, machine, measure, pct, root, warm, writeSection } from './measure.mjs';

const dataDir = join(root, 'bench/.data');
const runs = Number(arg('runs', '3'));
const only = new Set(arg('only', 'summarize,diff,jobs').split(','));
const write = !process.argv.includes('--no-write');
mkdirSync(dataDir, { recursive: true });

/** `runs` measured runs of each command, interleaved after a warm-up of each; checks they print the same. */
function timed(label, commands, check) {
  for (const args of Object.values(commands)) measure(args);
  const got = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let r = 0; r < runs; r++) {
    for (const [k, args] of Object.entries(commands)) {
      const m = measure(args);
      check?.(k, m);
      got[k].push(m);
      console.log(`  ${label} ${k}: ${m.wall.toFixed(2)} s wall, ${m.cpu.toFixed(2)} s CPU, ${m.rss.toFixed(0)} MB`);
    }
  }
  return Object.fromEntries(
    Object.entries(got).map(([k, ms]) => [
      k,
      {
        wall: pct(
          ms.map((m) => m.wall),
          50,
        ),
        cpu: pct(
          ms.map((m) => m.cpu),
          50,
        ),
        rss: Math.max(...ms.map((m) => m.rss)),
        runs: ms,
      },
    ]),
  );
}

/** Two copies of the node command `args` started together: the wall time until both have ended. */
async function sideBySide(args) {
  const t = performance.now();
  const codes = await atOnce([args, args]);
  if (codes.some((c) => c !== 0)) throw new Error(`${args.join(' ')} exited ${codes.join(', ')}`);
  return (performance.now() - t) / 1000;
}

const rows = [];
const loadBefore = load();
const s = (x) => x.toFixed(2);
const verdict = (ok) => (ok ? 'met' : 'missed');

if (only.has('summarize')) {
  const dir = join(dataDir, 'scale-run-10x1m');
  if (!existsSync(`${dir}.complete`)) {
    console.log('generating the 10 M-sample folder (bench/scale.mjs --only folder) ...');
    const r = spawnSync(process.execPath, ['bench/scale.mjs', '--only', 'folder', '--runs', '1', '--no-write'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('bench/scale.mjs failed');
  }
  const out = join(dataDir, 'compare-10m.summary.json');
  const t = timed(
    'folder',
    {
      check: ['dist/cli.js', 'check', '--format', 'json', '--exit-zero', dir],
      summarize: ['dist/cli.js', 'summarize', '--out', out, dir],
    },
    (k, m) => {
      if (k === 'summarize' && !/^wrote .*: 10 steps, 10 files, \d+ bytes\n/.test(m.stderr)) throw new Error(`summarize: ${m.stderr}`);
    },
  );
  const summary = JSON.parse(readFileSync(out, 'utf8'));
  let promptSteps = 0;
  let samples = 0;
  for (const step of summary.steps) {
    samples += step.samples;
    for (const f of step.files) promptSteps += f.prompts.length;
  }
  if (samples !== 10_000_000) throw new Error(`the summary counts ${samples} samples`);
  const bytes = statSync(out).size;
  // The verdict on CPU: on a shared machine wall time mostly measures the other processes.
  const ratio = t.summarize.cpu / t.check.cpu;
  rows.push(
    `| summarize the 10 M-sample folder vs \`check\` (store read column by column, prompt rows in typed columns, moved to a scratch file as bytes from a reused buffer, written in pieces) | CPU ${s(t.summarize.cpu)} vs ${s(t.check.cpu)} s (${ratio.toFixed(2)}×); wall ${s(t.summarize.wall)} vs ${s(t.check.wall)} s (${(t.summarize.wall / t.check.wall).toFixed(2)}×); ${t.summarize.rss.toFixed(0)} MB (check ${t.check.rss.toFixed(0)}) | ≤ 1.2× (CPU), ≤ 200 MB: ${verdict(ratio <= 1.2)}, ${verdict(t.summarize.rss <= 200)} |`,
    `| a summary's size per prompt-step (rows as arrays, one line a step) | ${(bytes / promptSteps).toFixed(1)} B (${(bytes / 1e6).toFixed(1)} MB, ${promptSteps.toLocaleString('en-US')} prompt-steps) | ≤ 64 B: ${verdict(bytes / promptSteps <= 64)} |`,
  );
  rmSync(out, { force: true });
}

if (only.has('diff')) {
  const a = join(dataDir, 'compare-1000x512-a.summary.json');
  const b = join(dataDir, 'compare-1000x512-b.summary.json');
  const made = writeSyntheticSummary(a, { seed: 1 });
  writeSyntheticSummary(b, { seed: 2, shift: 0.02 });
  warm([a, b]);
  let first = null;
  const t = timed('diff 1000x512', { diff: ['dist/cli.js', 'diff', a, b] }, (_k, m) => {
    first ??= m.stdout;
    if (m.stdout !== first || !m.stdout.includes('paired steps: 1020')) throw new Error('diff printed something else');
  });
  const d = t.diff;
  rows.push(
    `| \`diff\` of two summaries of 1 000 steps × 512 prompts (${(made.bytes / 1e6).toFixed(0)} MB each): rows read from the bytes (no text made), 20 B a row (id span and hash, state, passes; the rest read when asked), the rest checked by hand (zod not loaded), flips counted without objects or closures, bootstrap draws four at a time in WebAssembly SIMD (numerators only when every item has one denominator) | CPU ${s(d.cpu)} s (runs ${d.runs.map((m) => s(m.cpu)).join(', ')}), wall ${s(d.wall)} s, ${d.rss.toFixed(0)} MB | ≤ 1 s (CPU), ≤ 200 MB: ${verdict(d.cpu <= 1)}, ${verdict(d.rss <= 200)} |`,
  );
}

if (only.has('jobs')) {
  const dir = join(dataDir, `compare-run-200x1mb-${GENERATION}`);
  if (!existsSync(join(dir, '.complete'))) {
    console.log('generating 200 step files of ~1 MB ...');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (let i = 1; i <= 200; i++) generateMilesRollout(join(dir, `rollout_${i}.jsonl`), 1e6, 2000 + i);
    writeFileSync(join(dir, '.complete'), '');
  }
  let first = null;
  const t = timed(
    '200 files',
    { jobs1: ['dist/cli.js', 'summarize', '--jobs', '1', dir], jobs2: ['dist/cli.js', 'summarize', '--jobs', '2', dir] },
    (_k, m) => {
      first ??= m.stdout;
      if (m.stdout !== first) throw new Error('summarize --jobs 2 printed another summary than --jobs 1');
    },
  );
  const speed = t.jobs1.wall / t.jobs2.wall;
  // Two independent processes share nothing but the machine: what two threads can gain at most,
  // whatever their own costs (their start, a second JIT warm-up, the hand-over of results).
  const pairs = [];
  for (let r = 0; r < runs; r++) {
    pairs.push(await sideBySide(['dist/cli.js', 'summarize', '--jobs', '1', dir]));
    console.log(`  200 files: two --jobs 1 side by side: ${pairs.at(-1).toFixed(2)} s wall`);
  }
  const pair = pct(pairs, 50);
  const bound = (2 * t.jobs1.wall) / pair;
  rows.push(
    `| \`summarize --jobs 2\` vs \`--jobs 1\`, 200 files of ~1.4 MB: workers started before the folder is listed; each thread takes its next file from a counter they share, reads on the thread itself (\`node/syncFileAccess.ts\`, as the CLI reads everywhere); results merged in file order as they come (byte-identical); scan buffers reused from file to file | ${speed.toFixed(2)}× (${s(t.jobs2.wall)} vs ${s(t.jobs1.wall)} s wall; CPU ${s(t.jobs2.cpu)} vs ${s(t.jobs1.cpu)} s; ${t.jobs2.rss.toFixed(0)} vs ${t.jobs1.rss.toFixed(0)} MB); the machine's bound: two \`--jobs 1\` side by side end in ${s(pair)} s, ${bound.toFixed(2)}× the work of one in its time | ≥ 1.6×: ${verdict(speed >= 1.6)} |`,
  );
}

const table = ['| what (and the design behind it) | measured | target |', '|---|---|---|', ...rows];
console.log(`\n${table.join('\n')}\n`);
if (write && only.size === 3) {
  writeSection(
    'compare',
    `## Comparing runs: summarize and diff
\`node bench/compare.mjs --runs ${runs}\` after \`npm run build\` (\`--only summarize,diff,jobs\`; seeded inputs in \`bench/.data/\`; answers checked first: 10 M samples counted, the same diff every run, \`--jobs 2\` prints \`--jobs 1\`'s bytes); p50 of ${runs} interleaved runs. Machine: ${machine(loadBefore)}. The machine is shared: with a load above its 2 cores, wall times measure the other processes, so CPU times are compared and the CPU/RSS targets judged on them.

${table.join('\n')}`,
  );
  console.log('wrote the compare section of BENCHMARKS.md');
}
