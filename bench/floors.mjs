// What the speed targets (BENCHMARKS.md, "Targets") leave for the work itself: the files of bench/scale.mjs (1 M
// short samples; the text-heavy file) timed through passes that do less than any check can, next to
// the JSON.parse pass and `check`:
//   start-up   `node -e 0`
//   read       the file read in 1 MiB chunks (synchronously: nothing else runs meanwhile)
//   lines      read, and every line end found (`Buffer.indexOf`)
//   decode     read, line ends, and each line decoded to a string (latin1: the cheapest decode)
// A target of k× the JSON.parse pass is a time budget of (its time) / k for the whole check; what
// the passes above take of it is spent before one byte of JSON is looked at.
// And validation at native speed: each line validated by simdjson's SIMD parser in C++
// (bench/native.mjs builds it; left out, with the reason, where it cannot be built), a floor for
// the check's scan, which validates every line too.
// And what the machine's second core could give: `check` on the file's first half alone, and on
// both halves at once (two processes, each with its own core), both started by one launcher.
//   node bench/floors.mjs [--runs 3] [--no-write]   (after `node bench/scale.mjs`, which writes the files)
//   node bench/floors.mjs --pass read|lines|decode|native <file>   (one pass; prints the line count)
//   node bench/floors.mjs --pass checks <file>...   (`check` on each file, all at once)
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { arg, atOnce, interleaved, load, machine, pct, root, writeSection } from './measure.mjs';
import { nativeValidator } from './native.mjs';

const pass = arg('pass', null);
if (pass === 'checks') {
  const paths = process.argv.slice(process.argv.indexOf('--pass') + 2);
  const codes = await atOnce(paths.map((path) => [join(root, 'dist/cli.js'), 'check', '--format', 'json', '--exit-zero', path]));
  process.exit(codes.every((c) => c === 0) ? 0 : 1);
}
if (pass !== null) {
  const path = process.argv[process.argv.indexOf('--pass') + 2];
  if (pass === 'native') {
    const validator = nativeValidator();
    if (!validator.path) throw new Error(validator.why);
    process.exit(spawnSync(validator.path, [path], { stdio: ['ignore', 'inherit', 'inherit'] }).status ?? 1);
  }
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(1 << 20);
  let lines = 0;
  let chars = 0;
  let at = 0;
  let n;
  while ((n = readSync(fd, buf, 0, buf.length, at)) > 0) {
    at += n;
    if (pass === 'read') continue;
    // Line ends only: a line cut by the chunk's end is not carried over (nothing is parsed here).
    for (let i = 0; ;) {
      const j = buf.indexOf(10, i);
      if (j < 0 || j >= n) break;
      if (pass === 'decode') chars += buf.latin1Slice(i, j).length;
      lines++;
      i = j + 1;
    }
  }
  closeSync(fd);
  process.stdout.write(`${JSON.stringify({ lines, chars })}\n`);
  process.exit(0);
}

const runs = Number(arg('runs', '3'));
const write = !process.argv.includes('--no-write');
const dataDir = join(root, 'bench/.data');
const FILES = [
  { label: '1,000,000 short samples', path: join(dataDir, 'scale-short-1m-seed7.jsonl'), target: 4 },
  { label: 'text-heavy file, 13,320 samples of ~38 KB', path: join(dataDir, 'scale-text-500mb-seed11.jsonl'), target: 6 },
];
const missing = FILES.filter((f) => !existsSync(`${f.path}`));
if (missing.length > 0) {
  console.log(`floors bench skipped: ${missing.map((f) => f.path).join(', ')} missing (run node bench/scale.mjs first)`);
  process.exit(0);
}

/** The file cut in two at the line end nearest its middle (written once, next to it). */
function halves(path) {
  const out = [1, 2].map((k) => path.replace(/\.jsonl$/, `.half${k}.jsonl`));
  if (existsSync(`${out[1]}.complete`)) return out;
  const size = statSync(path).size;
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(1 << 22);
  const probe = Buffer.allocUnsafe(1 << 20);
  let cut = -1;
  for (let at = Math.floor(size / 2); cut < 0 && at < size; at += probe.length) {
    const n = readSync(fd, probe, 0, probe.length, at);
    const nl = probe.subarray(0, n).indexOf(10);
    if (nl >= 0) cut = at + nl + 1;
  }
  for (const [k, [from, to]] of [
    [0, cut],
    [cut, size],
  ].entries()) {
    const tmp = `${out[k]}.tmp`;
    const w = openSync(tmp, 'w');
    for (let at = from; at < to;) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, to - at), at);
      writeSync(w, buf, 0, n);
      at += n;
    }
    closeSync(w);
    renameSync(tmp, out[k]);
  }
  closeSync(fd);
  closeSync(openSync(`${out[1]}.complete`, 'w'));
  return out;
}

const native = nativeValidator();
if (!native.path) console.log(`floors: the native validation column is left out: ${native.why}`);

const loadBefore = load();
const rows = [];
for (const f of FILES) {
  const me = join(root, 'bench/floors.mjs');
  const [half1, half2] = halves(f.path);
  const got = interleaved(
    f.label,
    {
      startup: ['-e', '0'],
      read: [me, '--pass', 'read', f.path],
      lines: [me, '--pass', 'lines', f.path],
      decode: [me, '--pass', 'decode', f.path],
      ...(native.path ? { native: [me, '--pass', 'native', f.path] } : {}),
      baseline: [join(root, 'bench/baseline.mjs'), f.path],
      check: [join(root, 'dist/cli.js'), 'check', '--format', 'json', '--exit-zero', f.path],
      oneHalf: [me, '--pass', 'checks', half1],
      bothHalves: [me, '--pass', 'checks', half1, half2],
    },
    runs,
  );
  const p50 = (k) =>
    pct(
      got[k].map((m) => m.wall),
      50,
    );
  const budget = p50('baseline') / f.target;
  // the validator's verdicts first: every line of these files is one valid record
  const lines = JSON.parse(got.lines[0].stdout).lines;
  const validated = (got.native ?? []).map((m) => JSON.parse(m.stdout));
  for (const v of validated) {
    if (v.lines !== lines || v.valid !== lines) throw new Error(`${f.label}: the native validator read ${v.lines} lines, ${v.valid} valid, of ${lines}`);
  }
  const loopP50 = validated.length
    ? pct(
        validated.map((v) => v.loopSeconds),
        50,
      )
    : null;
  rows.push({ f, mb: statSync(f.path).size / 1e6, p50, budget, loopP50, implementation: validated[0]?.implementation });
}

const s = (x) => x.toFixed(2);
const share = (x, budget) => `${s(x)} (${Math.round((100 * x) / budget)}%)`;
const nativeCell = (r) => (r.loopP50 === null ? '—' : `${share(r.p50('native'), r.budget)}; ${share(r.loopP50, r.budget)}`);
const body = [
  '## Scale: what the speed targets leave for the work',
  '',
  `Reproduce: \`npm run bench\` (or \`node bench/floors.mjs --runs ${runs}\` after \`node bench/scale.mjs\`, which writes the files).`,
  'The scale files through passes that do less than any check (start-up; read; + line ends; + decode; + native SIMD validation,',
  'simdjson via `bench/native.mjs`: whole process; its line loop alone), as a share of the budget (JSON.parse pass / target), and',
  `\`check\` on half the file and on both halves at once (what the second core gives). p50 of ${runs} interleaved runs.`,
  `Machine: ${machine(loadBefore)}${rows[0].implementation ? `; simdjson's ${rows[0].implementation} kernel` : ''}.`,
  ...(native.path ? [] : ['', `The native validation column is left out here: ${native.why}.`]),
  '',
  '| input | MB | target | budget (s) | start-up (s) | read (s) | read + line ends (s) | + each line decoded (s) | + each line validated, native SIMD (s) | JSON.parse pass (s) | check (s) | check, first half (s) | check, both halves at once (s) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.f.label} | ${r.mb.toFixed(0)} | ${r.f.target}× | ${s(r.budget)} | ${share(r.p50('startup'), r.budget)} | ${share(r.p50('read'), r.budget)} | ${share(r.p50('lines'), r.budget)} | ${share(r.p50('decode'), r.budget)} | ${nativeCell(r)} | ${s(r.p50('baseline'))} | ${share(r.p50('check'), r.budget)} | ${share(r.p50('oneHalf'), r.budget)} | ${share(r.p50('bothHalves'), r.budget)} |`,
  ),
].join('\n');
console.log(`\n${body}\n`);
if (write) {
  writeSection('floors', body);
  console.log('wrote the floors section of BENCHMARKS.md');
}
