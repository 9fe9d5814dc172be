// `npm run bench`: generates a seeded synthetic miles rollout file (1 GB by default), checks that the
// engine's fast path and a full JSON.parse path extract identical fields from every record, then
// times `rollout-lens check` next to a plain JSON.parse-per-line pass over the same file (same
// machine, same page cache, runs interleaved) and writes the table to BENCHMARKS.md.
//   node bench/run.mjs [--gb 1] [--runs 3] [--no-write]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';

import { generateMilesRollout } from './generate.mjs';
import { eachLine, referenceRecord } from './reference.mjs';

const root = new URL('..', import.meta.url).pathname;
const dataDir = join(root, 'bench/.data');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const gb = Number(arg('gb', '1'));
const runs = Number(arg('runs', '3'));
const SEED = 42;

mkdirSync(dataDir, { recursive: true });

// ---- input (cached by size and seed) ----
const dataFile = join(dataDir, `miles-rollout-${gb}g-seed${SEED}.jsonl`);
const metaFile = `${dataFile}.meta.json`;
const wantBytes = Math.round(gb * 1024 ** 3);
if (!existsSync(dataFile) || !existsSync(metaFile) || JSON.parse(readFileSync(metaFile, 'utf8')).bytes !== statSync(dataFile).size) {
  console.log(`generating ${dataFile} (${gb} GiB, seed ${SEED}) ...`);
  const t = performance.now();
  const meta = generateMilesRollout(dataFile, wantBytes, SEED);
  writeFileSync(metaFile, JSON.stringify({ ...meta, seed: SEED }));
  console.log(`  ${meta.lines} lines, ${(meta.bytes / 1e6).toFixed(0)} MB in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
const size = statSync(dataFile).size;

// ---- correctness first: fast path vs full JSON.parse path, every record ----
const engineBundle = join(dataDir, 'engine.cjs');
await esbuild.build({ entryPoints: [join(root, 'bench/engineEntry.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: engineBundle, logLevel: 'warning' });
const engine = createRequire(import.meta.url)(engineBundle);
console.log('correctness: engine fast path vs JSON.parse on every record ...');
const scan = await engine.scanFile({ path: dataFile, displayPath: dataFile }, { access: engine.nodeFileAccess, settings: engine.DEFAULT_SETTINGS });
const FIELDS = ['line', 'groupKey', 'index', 'dataset', 'status', 'aborted', 'reward', 'rewardIsInt', 'cause', 'responseLength', 'step'];
let checked = 0;
const promptOf = new Map();
const keyOf = new Map();
eachLine(dataFile, (text, line) => {
  const want = referenceRecord(text, line);
  const got = scan.samples[checked];
  if (!got) throw new Error(`line ${line}: the engine has no record`);
  for (const f of FIELDS) {
    if (!Object.is(got[f], want[f])) throw new Error(`line ${line}: ${f} differs: engine ${JSON.stringify(got[f])}, JSON.parse ${JSON.stringify(want[f])}`);
  }
  // Prompt identity: equal prompts ⇔ equal keys.
  if ((promptOf.get(got.promptKey) ?? want.prompt) !== want.prompt || (keyOf.get(want.prompt) ?? got.promptKey) !== got.promptKey) {
    throw new Error(`line ${line}: prompt identity differs`);
  }
  promptOf.set(got.promptKey, want.prompt);
  keyOf.set(want.prompt, got.promptKey);
  checked++;
});
if (checked !== scan.samples.length || scan.invalidLines !== 0) throw new Error(`record counts differ: ${checked} vs ${scan.samples.length}`);
console.log(`  ${checked} records agree on ${FIELDS.length} fields and prompt identity (${promptOf.size} prompts)`);

// ---- timing: interleaved runs in fresh processes ----
function measure(args) {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['-r', join(root, 'bench/maxrss.cjs'), ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
  const wall = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const rss = Number(/RL_MAXRSS_KB (\d+)/.exec(r.stderr)?.[1] ?? NaN) / 1024;
  const cpu = Number(/RL_CPU_US (\d+)/.exec(r.stderr)?.[1] ?? NaN) / 1e6;
  return { wall, rss, cpu, stdout: r.stdout };
}
const COMMANDS = {
  'JSON.parse per line (baseline)': ['bench/baseline.mjs', dataFile],
  'rollout-lens check --format json': ['dist/cli.js', 'check', '--format', 'json', '--exit-zero', dataFile],
};
const loadBefore = loadavg().map((x) => x.toFixed(1)).join(' ');
const results = Object.fromEntries(Object.keys(COMMANDS).map((k) => [k, []]));
console.log(`timing: ${runs} runs each, interleaved, after one warm-up (page cache) ...`);
for (const args of Object.values(COMMANDS)) measure(args);
for (let r = 0; r < runs; r++) {
  for (const [name, args] of Object.entries(COMMANDS)) {
    const m = measure(args);
    results[name].push(m);
    console.log(`  ${name}: ${m.wall.toFixed(2)} s wall, ${m.cpu.toFixed(2)} s CPU, ${m.rss.toFixed(0)} MB`);
  }
}
const checkOut = JSON.parse(results['rollout-lens check --format json'][0].stdout);
const baseOut = JSON.parse(results['JSON.parse per line (baseline)'][0].stdout);
if (checkOut.files[0].records !== baseOut.records) throw new Error(`check saw ${checkOut.files[0].records} records, baseline ${baseOut.records}`);

// ---- table ----
const pct = (xs, p) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const baseP50 = pct(results['JSON.parse per line (baseline)'].map((m) => m.wall), 50);
const baseCpu = pct(results['JSON.parse per line (baseline)'].map((m) => m.cpu), 50);
const rows = Object.entries(results).map(([name, ms]) => {
  const walls = ms.map((m) => m.wall);
  const p50 = pct(walls, 50);
  const cpu = pct(ms.map((m) => m.cpu), 50);
  return { name, p50, p95: pct(walls, 95), mbs: size / 1e6 / p50, ratio: baseP50 / p50, cpu, cpuRatio: baseCpu / cpu, rss: Math.max(...ms.map((m) => m.rss)) };
});
const check = rows[1];
const speedTarget = 4;
const lines = [
  `| run | wall p50 (s) | wall p95 (s) | MB/s (p50) | speed vs baseline (wall) | CPU p50 (s) | speed vs baseline (CPU) | peak RSS (MB) |`,
  `|---|---:|---:|---:|---:|---:|---:|---:|`,
  ...rows.map((r) => `| ${r.name} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.mbs.toFixed(0)} | ${r.ratio.toFixed(2)}× | ${r.cpu.toFixed(2)} | ${r.cpuRatio.toFixed(2)}× | ${r.rss.toFixed(0)} |`),
];
const verdict = [
  `- speed: check is ${check.ratio.toFixed(2)}× the baseline in wall time (${check.cpuRatio.toFixed(2)}× in CPU time) — target ≥ ${speedTarget}× (issue 7): ${check.ratio >= speedTarget ? 'met' : `MISSED by ${(speedTarget / check.ratio).toFixed(2)}×`}`,
  `- memory: peak RSS ${check.rss.toFixed(0)} MB — target < 256 MB (issue 2): ${check.rss < 256 ? 'met' : 'MISSED'}; ≤ 200 MB (issue 7): ${check.rss <= 200 ? 'met' : `MISSED by ${(check.rss - 200).toFixed(0)} MB`}`,
];
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, Node ${process.version}, load average (1/5/15 min) ${loadBefore} before timing, ${loadavg().map((x) => x.toFixed(1)).join(' ')} after`;
console.log(`\n${lines.join('\n')}\n\n${verdict.join('\n')}\n`);

if (!process.argv.includes('--no-write')) {
  const md = `# Benchmarks

Reproduce: \`npm run bench\` (or \`node bench/run.mjs --gb ${gb} --runs ${runs}\` after \`npm run build\`).

Input: a seeded (seed ${SEED}) synthetic miles rollout file, \`Sample.to_dict()\` lines as Python's
\`json.dumps\` writes them (long \`tokens\`, \`loss_mask\`, \`rollout_log_probs\` arrays; full-precision
log-probs), groups of 8, ~6% of groups with an aborted sample: ${(size / 1e6).toFixed(0)} MB, ${checked} lines,
page cache warm. Correctness first: the engine's fast path and a JSON.parse path agree on
${FIELDS.length} extracted fields of all ${checked} records and on prompt identity.

Machine: ${machine}.
Each command runs in a fresh process, ${runs} times, interleaved with the other after one warm-up;
wall time includes Node start-up; peak RSS is the process's \`maxRSS\`.

${lines.join('\n')}

${verdict.join('\n')}

The baseline parses each line with \`JSON.parse\` and reads one field; \`check\` does the whole job
(scan, detect, normalise, group, filter, report). \`check\` runs single-threaded here.
`;
  writeFileSync(join(root, 'BENCHMARKS.md'), md);
  console.log('wrote BENCHMARKS.md');
}
