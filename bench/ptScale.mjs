// Scale with the number of samples, for miles `.pt` dumps: `rollout-lens check` next to torch.load
// on many short samples written by the real torch.save (`bench/pt_generate.py write-short`: the
// shape of bench/scale.mjs's short file, each sample a whole `Sample.to_dict()`), results checked
// equal first:
//   short   1 000 000 short miles samples in one dump (seed 7)
//   folder  a run folder `rollout_data/1.pt … 10.pt`, 1 000 000 such samples each (seeds 101-110)
//   node bench/ptScale.mjs [--runs 3] [--folder-runs 1] [--only short,folder] [--no-write] [--cli dist/cli.js]
// (after `npm run build`). Skipped with a message when no Python with torch is there.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { arg, load, loadEngine, machine, measure, pct, root, warm, writeSection } from './measure.mjs';

const runs = Number(arg('runs', '3'));
const folderRuns = Number(arg('folder-runs', '1'));
const only = new Set(arg('only', 'short,folder').split(','));
const cli = arg('cli', join(root, 'dist/cli.js'));
const write = !process.argv.includes('--no-write');
const python = process.env.ROLLOUT_LENS_TORCH_PYTHON ?? '/usr/bin/python3';
const generator = join(root, 'bench/pt_generate.py');
const dataDir = join(root, 'bench/.data');
mkdirSync(dataDir, { recursive: true });

if (spawnSync(python, ['-c', 'import torch'], { encoding: 'utf8' }).status !== 0) {
  console.log(`pt scale bench skipped: ${python} has no torch (Debian: apt-get install python3-torch)`);
  process.exit(0);
}

const N = 1_000_000;

function python3(args) {
  const r = spawnSync(python, [generator, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`pt_generate.py ${args[0]} failed`);
  return r.stdout.trim().split('\n').pop();
}

/** Generated once (about 100 s and 5.5 GB of Python memory per million samples), with a `.complete` marker. */
function cached(path, make) {
  if (!existsSync(`${path}.complete`)) {
    const t = performance.now();
    console.log(`generating ${path} with torch.save ...`);
    rmSync(path, { recursive: true, force: true });
    make();
    writeFileSync(`${path}.complete`, '');
    console.log(`  in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
  return path;
}
const shortFile = () =>
  cached(join(dataDir, 'scale-pt-short-1m-seed7.pt'), () => python3(['write-short', join(dataDir, 'scale-pt-short-1m-seed7.pt'), String(N), '7']));
const folderDir = () =>
  cached(join(dataDir, 'scale-pt-run-10x1m'), () => {
    mkdirSync(join(dataDir, 'scale-pt-run-10x1m/rollout_data'), { recursive: true });
    for (let i = 1; i <= 10; i++) python3(['write-short', join(dataDir, `scale-pt-run-10x1m/rollout_data/${i}.pt`), String(N), String(100 + i)]);
  });

// ---- correctness: every record of the engine against torch.load's view ----
let engine;
/** The engine's records of `file` equal torch.load's (index, group, status, reward, cause, response length); returns their number. */
async function checkRecords(file) {
  const expectedFile = file.replace(/\.pt$/, '.expected.json');
  if (!existsSync(expectedFile)) python3(['load', file, expectedFile]);
  const expected = JSON.parse(readFileSync(expectedFile, 'utf8'));
  engine ??= await loadEngine(dataDir);
  const scan = await engine.scanFile({ path: file, displayPath: file }, { access: engine.nodeFileAccess, settings: engine.DEFAULT_SETTINGS });
  if (scan.format !== 'miles-pt' || scan.samples.length !== expected.length)
    throw new Error(`${file}: engine ${scan.format}, ${scan.samples.length} samples; torch.load ${expected.length}`);
  for (let i = 0; i < expected.length; i++) {
    const s = scan.samples.at(i);
    const [index, group, status, reward, cause, responseLength] = expected[i];
    const got = [s.index, s.groupKey, s.status, s.reward, s.cause, s.responseLength];
    const want = [index, String(group), status, reward, cause, responseLength];
    if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${file} sample ${i}: engine ${JSON.stringify(got)}, torch.load ${JSON.stringify(want)}`);
  }
  console.log(`  ${file}: ${expected.length} records agree with torch.load (index, group, status, reward, cause, response length)`);
  return expected.length;
}

// ---- timing: check (the built CLI) and torch.load of the same files, interleaved ----
function timeRow(target, files, expectRecords, n) {
  const checks = [];
  const torch = [];
  for (let r = 0; r < n; r++) {
    warm(files);
    const c = measure([cli, 'check', '--format', 'json', '--exit-zero', target]);
    checks.push(c);
    console.log(`  check: ${c.wall.toFixed(2)} s wall, ${c.cpu.toFixed(2)} s CPU, ${c.rss.toFixed(0)} MB`);
    warm(files);
    const t = JSON.parse(python3(['load-many', ...files]));
    torch.push(t);
    console.log(`  torch.load: ${t.seconds.toFixed(2)} s wall, ${t.cpu_seconds.toFixed(2)} s CPU, ${t.peak_rss_mb.toFixed(0)} MB`);
    if (t.samples !== expectRecords) throw new Error(`torch.load read ${t.samples} samples, expected ${expectRecords}`);
  }
  const report = JSON.parse(checks[0].stdout);
  const counted = report.files.reduce((s, f) => s + f.records, 0);
  if (counted !== expectRecords) throw new Error(`check counted ${counted} records, expected ${expectRecords}`);
  if (checks.some((c) => c.stdout !== checks[0].stdout)) throw new Error('check printed different reports');
  const unreadable = report.files.filter((f) => f.format !== 'miles-pt').length + (checks[0].stdout.match(/"pt-unreadable"/g) ?? []).length;
  if (unreadable > 0) throw new Error('check could not read every dump');
  const p50 = (xs) => pct(xs, 50);
  const ratios = checks.map((c, i) => torch[i].seconds / c.wall).sort((a, b) => a - b);
  return {
    records: counted,
    bytes: files.reduce((s, f) => s + statSync(f).size, 0),
    check: p50(checks.map((c) => c.wall)),
    checkCpu: p50(checks.map((c) => c.cpu)),
    torch: p50(torch.map((t) => t.seconds)),
    torchCpu: p50(torch.map((t) => t.cpu_seconds)),
    ratioRange: `${ratios[0].toFixed(1)}–${ratios[ratios.length - 1].toFixed(1)}`,
    rss: Math.max(...checks.map((c) => c.rss)),
    torchRss: Math.max(...torch.map((t) => t.peak_rss_mb)),
  };
}

const loadBefore = load();
const rows = [];
if (only.has('short')) {
  const f = shortFile();
  await checkRecords(f);
  rows.push({ key: 'short', label: '1,000,000 short samples, one dump', rssTarget: 150, runs, ...timeRow(f, [f], N, runs) });
}
if (only.has('folder')) {
  const d = folderDir();
  const files = readdirSync(join(d, 'rollout_data'))
    .filter((n) => n.endsWith('.pt'))
    .sort((a, b) => parseInt(a) - parseInt(b))
    .map((n) => join(d, 'rollout_data', n));
  await checkRecords(files[files.length - 1]);
  rows.push({
    key: 'folder',
    label: 'run folder, 10 dumps × 1,000,000 short samples',
    rssTarget: 200,
    runs: folderRuns,
    ...timeRow(d, files, 10 * N, folderRuns),
  });
}

const verdict = (r) =>
  `${r.rss <= r.rssTarget ? `≤ ${r.rssTarget} MB: met` : `≤ ${r.rssTarget} MB: MISSED by ${(r.rss - r.rssTarget).toFixed(0)} MB`}; every record counted (${r.records.toLocaleString('en-US')})`;
const table = [
  '| input | MB | torch.load p50 (s) | check p50 (s) | ratio (wall) | ratio range | ratio (CPU) | check peak RSS (MB) | torch.load peak RSS (MB) | target | reproduce |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.label} | ${(r.bytes / 1e6).toFixed(0)} | ${r.torch.toFixed(2)} | ${r.check.toFixed(2)} | ${(r.torch / r.check).toFixed(1)}× | ${r.ratioRange}× | ${(r.torchCpu / r.checkCpu).toFixed(1)}× | ${r.rss.toFixed(0)} | ${r.torchRss.toFixed(0)} | ${verdict(r)} | \`node bench/ptScale.mjs --only ${r.key} --${r.key === 'folder' ? 'folder-runs' : 'runs'} ${r.runs}\` |`,
  ),
];
console.log(`\n${table.join('\n')}\n`);
const torchVersion = spawnSync(python, ['-c', 'import torch; print(torch.__version__)'], { encoding: 'utf8' }).stdout.trim();
if (write && rows.length === 2) {
  writeSection(
    'scale-pt',
    `## Scale with the number of samples: .pt dumps

Reproduce: \`npm run bench\` (or \`node bench/ptScale.mjs\` after \`npm run build\`; inputs generated once into
\`bench/.data/\` by the real torch.save, about 100 s a dump; \`--only short|folder\` runs one row).
Inputs: miles' torch.save of 1 M short samples (\`bench/pt_generate.py write-short\`), and a folder of 10; checked first against
torch.load (torch ${torchVersion}, \`load-many\`) field by field; ${runs} runs for the dump, ${folderRuns} for the folder, page cache warm.
Machine: ${machine(loadBefore)}.

${table.join('\n')}`,
  );
  console.log('wrote the scale-pt section of BENCHMARKS.md');
}
