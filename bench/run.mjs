// `npm run bench`: generates a seeded synthetic miles rollout file (1 GB by default), checks that the
// engine's fast path and a full JSON.parse path extract identical fields from every record (and that
// the parallel worker scan equals the single-threaded one), then times `rollout-lens check` (worker
// threads, and --jobs 1) next to a plain JSON.parse-per-line pass over the same file (same machine,
// same page cache, runs interleaved), then files of many short samples and a run folder of 200
// step files, and writes the tables to
// their sections of BENCHMARKS.md.
//   node bench/run.mjs [--gb 1] [--runs 3] [--no-folder] [--no-short] [--delete] [--no-write]
//   --gb 4: the 4 GB file (generated, timed, then deleted unless --keep)
import { deepStrictEqual } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { folderBench } from './folder.mjs';
import { shortLinesBench } from './shortLines.mjs';
import { GENERATION, generateMilesRollout } from './generate.mjs';
import { arg, load, loadEngine, machine, measure, pct, root, writeSection } from './measure.mjs';
import { eachLine, referenceRecord } from './reference.mjs';

const dataDir = join(root, 'bench/.data');
const gb = Number(arg('gb', '1'));
const runs = Number(arg('runs', '3'));
const SEED = 42;

mkdirSync(dataDir, { recursive: true });

// ---- input (cached by size and seed) ----
const dataFile = join(dataDir, `miles-rollout-${gb}g-seed${SEED}-${GENERATION}.jsonl`);
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
const engine = await loadEngine(dataDir);
console.log('correctness: engine fast path vs JSON.parse on every record ...');
const scan = await engine.scanFile({ path: dataFile, displayPath: dataFile }, { access: engine.nodeFileAccess, settings: engine.DEFAULT_SETTINGS });
// The parallel path (worker threads over byte ranges, as `check` runs it) must equal the single-threaded scan.
// Compared before any record is read back: reading fills the store's caches of the last text decoded.
const pool = new engine.WorkerPool({ script: join(root, 'dist/scanWorker.js'), workers: 2 });
const parScan = await engine.scanFile(
  { path: dataFile, displayPath: dataFile },
  { access: engine.nodeFileAccess, settings: engine.DEFAULT_SETTINGS, parallel: pool },
);
const ranges = pool.rangesScanned;
await pool.close();
if (ranges < 2) throw new Error(`the parallel scan used ${ranges} ranges`);
deepStrictEqual(parScan, scan);
console.log(`  the parallel scan (${ranges} byte ranges on worker threads) equals the single-threaded scan`);
// So must a scan whose has_repetition compression is shared with the deflate thread (as `check` runs it).
const deflate = new engine.DeflateThread({ script: join(root, 'dist/deflateWorker.js') });
const sharedScan = await engine.scanFile(
  { path: dataFile, displayPath: dataFile },
  { access: engine.nodeFileAccess, settings: engine.DEFAULT_SETTINGS, deflate },
);
const compressed = deflate.compressed;
await deflate.close();
if (compressed === 0) throw new Error('the deflate thread compressed no tail');
deepStrictEqual(sharedScan, scan);
console.log(`  with the deflate thread (${compressed} tails compressed there) it equals the single-threaded scan`);
const FIELDS = ['line', 'groupKey', 'index', 'dataset', 'status', 'aborted', 'reward', 'rewardIsInt', 'cause', 'responseLength', 'step'];
let checked = 0;
const promptOf = new Map();
const keyOf = new Map();
eachLine(dataFile, (text, line) => {
  const want = referenceRecord(text, line);
  const got = scan.samples.at(checked);
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
const COMMANDS = {
  'JSON.parse per line (baseline)': ['bench/baseline.mjs', dataFile],
  'rollout-lens check --format json': ['dist/cli.js', 'check', '--format', 'json', '--exit-zero', dataFile],
  'rollout-lens check --format json --jobs 1': ['dist/cli.js', 'check', '--format', 'json', '--exit-zero', '--jobs', '1', dataFile],
  'rollout-lens check --format json --jobs 2': ['dist/cli.js', 'check', '--format', 'json', '--exit-zero', '--jobs', '2', dataFile],
};
const loadBefore = load();
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
const outs = Object.entries(results)
  .filter(([k]) => k.startsWith('rollout-lens'))
  .map(([, ms]) => ms[0].stdout);
if (outs.some((o) => o !== outs[0])) throw new Error('check with workers and with --jobs 1 printed different reports');
const baseOut = JSON.parse(results['JSON.parse per line (baseline)'][0].stdout);
if (checkOut.files[0].records !== baseOut.records) throw new Error(`check saw ${checkOut.files[0].records} records, baseline ${baseOut.records}`);

// ---- table ----
const baseP50 = pct(
  results['JSON.parse per line (baseline)'].map((m) => m.wall),
  50,
);
const baseCpu = pct(
  results['JSON.parse per line (baseline)'].map((m) => m.cpu),
  50,
);
const rows = Object.entries(results).map(([name, ms]) => {
  const walls = ms.map((m) => m.wall);
  const p50 = pct(walls, 50);
  const cpu = pct(
    ms.map((m) => m.cpu),
    50,
  );
  return { name, p50, p95: pct(walls, 95), mbs: size / 1e6 / p50, ratio: baseP50 / p50, cpu, cpuRatio: baseCpu / cpu, rss: Math.max(...ms.map((m) => m.rss)) };
});
const check = rows[1];
const single = rows[2];
const workers = rows[3];
const speedTarget = 4;
const lines = [
  `| run | wall p50 (s) | wall p95 (s) | MB/s (p50) | speed vs baseline (wall) | CPU p50 (s) | speed vs baseline (CPU) | peak RSS (MB) |`,
  `|---|---:|---:|---:|---:|---:|---:|---:|`,
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.mbs.toFixed(0)} | ${r.ratio.toFixed(2)}× | ${r.cpu.toFixed(2)} | ${r.cpuRatio.toFixed(2)}× | ${r.rss.toFixed(0)} |`,
  ),
];
const verdict = [
  `- speed: check is ${check.ratio.toFixed(2)}× the baseline in wall time (${check.cpuRatio.toFixed(2)}× in CPU time) — target ≥ ${speedTarget}×: ${check.ratio >= speedTarget ? 'met' : `MISSED by ${(speedTarget / check.ratio).toFixed(2)}×`}`,
  `- speed with 2 scan workers forced (--jobs 2): ${workers.ratio.toFixed(2)}× (wall), ${workers.cpuRatio.toFixed(2)}× (CPU); one thread for everything (--jobs 1): ${single.ratio.toFixed(2)}× (wall), ${single.cpuRatio.toFixed(2)}× (CPU)`,
  `- memory: peak RSS ${Math.max(check.rss, single.rss, workers.rss).toFixed(0)} MB (default ${check.rss.toFixed(0)}, --jobs 1 ${single.rss.toFixed(0)}, --jobs 2 ${workers.rss.toFixed(0)}) — target ≤ 200 MB: ${Math.max(check.rss, workers.rss) <= 200 ? 'met' : `MISSED by ${(Math.max(check.rss, workers.rss) - 200).toFixed(0)} MB`}`,
  `- both cores: --jobs 2 vs --jobs 1: ${(single.p50 / workers.p50).toFixed(2)}× in wall time, at ${((workers.cpu / single.cpu - 1) * 100).toFixed(0)}% more CPU; all three print identical reports`,
];
const machineLine = machine(loadBefore);
console.log(`\n${lines.join('\n')}\n\n${verdict.join('\n')}\n`);

const write = !process.argv.includes('--no-write');
if (write) {
  writeSection(
    `throughput-${gb}g`,
    `## check on a ${gb} GB miles rollout file

Reproduce: ${gb === 1 ? '`npm run bench` (or ' : ''}\`node bench/run.mjs --gb ${gb} --runs ${runs}${gb === 1 ? '' : ' --no-folder'}\` after \`npm run build\`${gb === 1 ? ')' : ' (the file is generated, then deleted; `--keep` keeps it)'}.
Input: seeded (seed ${SEED}) miles \`Sample.to_dict()\` lines with long arrays and full-precision log-probs, ${(size / 1e6).toFixed(0)} MB,
${checked} lines; checked first: ${FIELDS.length} fields of every record against a JSON.parse path, the parallel scan (${ranges} ranges) and the
deflate thread's (${compressed} tails there) against the single-threaded one, the same report from all three commands.
Machine: ${machineLine}. ${runs} interleaved runs in fresh processes after a warm-up; peak RSS includes worker threads.

${lines.join('\n')}

${verdict.join('\n')}`,
  );
  console.log(`wrote the throughput-${gb}g section of BENCHMARKS.md`);
}

if (gb >= 2 ? !process.argv.includes('--keep') : process.argv.includes('--delete')) {
  rmSync(dataFile, { force: true });
  rmSync(metaFile, { force: true });
  console.log(`deleted ${dataFile}`);
}

if (!process.argv.includes('--no-short') && gb === 1) {
  const r = shortLinesBench(dataDir, { runs });
  console.log(`\n${r.table.join('\n')}\n\n${r.verdict.join('\n')}\n`);
  if (write) {
    writeSection(
      'short-lines',
      `## check on files of many short samples

Reproduce: \`npm run bench\` (or \`node bench/run.mjs --runs ${r.runs}\`; \`--no-short\` skips it).
Input: seeded miles samples without arrays (~215 B a line), 250 000 and 1 000 000 of them; ${r.runs} runs after a warm-up;
\`check\` and \`check --jobs 1\` print the same report.
Machine: ${r.machine}.

${r.table.join('\n')}

${r.verdict.join('\n')}`,
    );
    console.log('wrote the short-lines section of BENCHMARKS.md');
  }
}

if (!process.argv.includes('--no-folder')) {
  const files = Number(arg('folder-files', '200'));
  const f = folderBench(dataDir, { files, mb: Number(arg('folder-mb', '5')), runs });
  console.log(`\n${f.table.join('\n')}\n\n${f.verdict}\n`);
  if (write) {
    writeSection(
      'folder',
      `## check over a run folder

Reproduce: \`npm run bench\` (or \`node bench/run.mjs --runs ${f.runs}\`; \`--no-folder\` skips it).
Input: seeded miles step files of ~5 MB; \`check --progress --format json <folder>\` reads one file at a time and prints one
progress line per file (checked).
Machine: ${f.machine}. ${f.runs} runs each after one warm-up.

${f.table.join('\n')}

${f.verdict}`,
    );
    console.log('wrote the folder section of BENCHMARKS.md');
  }
}
