// Folder scale (BENCHMARKS.md, "check over a run folder"): `check` over a run folder of many step
// files, one at a time, with per-step progress (`--progress`). Measures wall, CPU and peak RSS for
// 20 and for 200 files of the same size: memory must not grow with the number of files.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { GENERATION, generateMilesRollout } from './generate.mjs';
import { load, machine, measure, pct } from './measure.mjs';

/** `count` step files `rollout_<i>.jsonl` of about `mb` MB each (seed = step), cached. */
function folder(dataDir, count, mb) {
  const dir = join(dataDir, `run-${count}x${mb}mb-${GENERATION}`);
  const done = join(dir, '.complete');
  if (existsSync(done)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (let i = 1; i <= count; i++) generateMilesRollout(join(dir, `rollout_${i}.jsonl`), mb * 1e6, 1000 + i);
  writeFileSync(done, '');
  return dir;
}

export function folderBench(dataDir, { files = 200, mb = 5, runs = 3 } = {}) {
  const sizes = [files / 10, files];
  const dirs = sizes.map((n) => {
    console.log(`folder: generating ${n} files of ~${mb} MB ...`);
    return folder(dataDir, n, mb);
  });
  const loadBefore = load();
  const rows = [];
  for (const [k, dir] of dirs.entries()) {
    const n = sizes[k];
    const args = ['dist/cli.js', 'check', '--format', 'json', '--exit-zero', '--progress', dir];
    measure(args); // warm-up (page cache)
    const ms = [];
    for (let r = 0; r < runs; r++) {
      const m = measure(args);
      const steps = m.stderr.split('\n').filter((l) => /^rollout-lens: \[\d+\/\d+\] /.test(l)).length;
      if (steps !== n) throw new Error(`folder of ${n}: ${steps} progress lines`);
      const report = JSON.parse(m.stdout);
      if (report.files.length !== n) throw new Error(`folder of ${n}: ${report.files.length} files in the report`);
      ms.push(m);
      console.log(`  ${n} files: ${m.wall.toFixed(2)} s wall, ${m.cpu.toFixed(2)} s CPU, ${m.rss.toFixed(0)} MB, ${steps} progress lines`);
    }
    const bytes = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).length * mb * 1e6;
    const walls = ms.map((m) => m.wall);
    rows.push({
      n,
      mb,
      bytes,
      p50: pct(walls, 50),
      p95: pct(walls, 95),
      cpu: pct(
        ms.map((m) => m.cpu),
        50,
      ),
      rss: Math.max(...ms.map((m) => m.rss)),
    });
  }
  const big = rows[1];
  const table = [
    '| run folder | wall p50 (s) | wall p95 (s) | MB/s (p50) | CPU p50 (s) | peak RSS (MB) |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.n} step files × ${r.mb} MB | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${(r.bytes / 1e6 / r.p50).toFixed(0)} | ${r.cpu.toFixed(2)} | ${r.rss.toFixed(0)} |`,
    ),
  ];
  const verdict = `- memory: ${big.n} files peak at ${big.rss.toFixed(0)} MB (${rows[0].n} files: ${rows[0].rss.toFixed(0)} MB) — target ≤ 200 MB: ${big.rss <= 200 ? 'met' : `MISSED by ${(big.rss - 200).toFixed(0)} MB`}; every run printed one progress line per step file`;
  return { table, verdict, machine: machine(loadBefore), runs };
}
