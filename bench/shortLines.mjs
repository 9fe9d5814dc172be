// Files of many short samples (no token arrays: ~200 B a line, like eval logs or trimmed dumps),
// where per-line work, not the array skim, is the cost, and memory follows the number of samples
// (each sample's record is kept for grouping). Times `check` next to the JSON.parse baseline on
// two sizes and reports the peak RSS and its growth per sample.
import { closeSync, existsSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { rng } from './generate.mjs';
import { load, machine, measure, pct } from './measure.mjs';

const CAUSES = ['SandboxUnavailable', 'ServerUnreachable', 'AgentSetupFailed'];

/** `samples` short miles samples in groups of 8 (seeded), written as Python's json.dumps writes them. */
function generate(path, samples, seed) {
  const rand = rng(seed);
  const fd = openSync(path, 'w');
  let batch = [];
  for (let g = 0; g * 8 < samples; g++) {
    const abortAt = rand() < 0.03 ? Math.floor(rand() * 8) : -1;
    const intRewards = rand() < 0.5;
    for (let i = 0; i < 8 && g * 8 + i < samples; i++) {
      const aborted = i === abortAt;
      const reward = intRewards ? (rand() < 0.4 ? 1 : 0) : Math.round(rand() * 1e6) / 1e6;
      const status = aborted ? 'aborted' : 'completed';
      const cause = aborted ? CAUSES[Math.floor(rand() * CAUSES.length)] : 'Submitted';
      batch.push(
        `{"group_index": ${g}, "index": ${i}, "prompt": "Problem ${g}: find the sum", "response": "The answer is ${Math.floor(rand() * 1000)}.", "reward": ${reward}, "status": "${status}", "response_length": ${20 + Math.floor(rand() * 200)}, "metadata": {"exit_status": "${cause}"}}`,
      );
    }
    if (batch.length >= 8192) {
      writeSync(fd, `${batch.join('\n')}\n`);
      batch = [];
    }
  }
  if (batch.length) writeSync(fd, `${batch.join('\n')}\n`);
  closeSync(fd);
}

export function shortLinesBench(dataDir, { sizes = [250_000, 1_000_000], runs = 3 } = {}) {
  mkdirSync(dataDir, { recursive: true });
  const files = sizes.map((n) => {
    const path = join(dataDir, `miles-short-${n}-seed42.jsonl`);
    if (!existsSync(path)) {
      console.log(`short lines: generating ${n} samples ...`);
      generate(path, n, 42);
    }
    return { n, path };
  });
  const loadBefore = load();
  const rows = [];
  for (const { n, path } of files) {
    const commands = {
      baseline: ['bench/baseline.mjs', path],
      check: ['dist/cli.js', 'check', '--format', 'json', '--exit-zero', path],
      single: ['dist/cli.js', 'check', '--format', 'json', '--exit-zero', '--jobs', '1', path],
    };
    for (const args of Object.values(commands)) measure(args); // warm-up (page cache)
    const got = { baseline: [], check: [], single: [] };
    for (let r = 0; r < runs; r++) {
      for (const [name, args] of Object.entries(commands)) got[name].push(measure(args));
    }
    const records = JSON.parse(got.check[0].stdout).files[0].records;
    if (records !== n || JSON.parse(got.baseline[0].stdout).records !== n) throw new Error(`${path}: expected ${n} records`);
    if (got.single[0].stdout !== got.check[0].stdout) throw new Error(`${path}: --jobs 1 printed another report`);
    const wall = (name) =>
      pct(
        got[name].map((m) => m.wall),
        50,
      );
    const cpu = (name) =>
      pct(
        got[name].map((m) => m.cpu),
        50,
      );
    const rss = (name) => Math.max(...got[name].map((m) => m.rss));
    const row = { n, mb: statSync(path).size / 1e6 };
    Object.assign(row, {
      base: wall('baseline'),
      baseCpu: cpu('baseline'),
      check: wall('check'),
      checkCpu: cpu('check'),
      single: wall('single'),
      rss: Math.max(rss('check'), rss('single')),
      baseRss: rss('baseline'),
    });
    rows.push(row);
    console.log(
      `  ${n} samples: baseline ${row.base.toFixed(2)} s, check ${row.check.toFixed(2)} s (--jobs 1 ${row.single.toFixed(2)} s), peak ${row.rss.toFixed(0)} MB`,
    );
  }
  const [small, big] = rows;
  const perSample = ((big.rss - small.rss) * 1e6) / (big.n - small.n);
  const table = [
    '| samples (file) | baseline wall p50 (s) | check wall p50 (s) | speed vs baseline (wall) | speed vs baseline (CPU) | check --jobs 1 (s) | peak RSS check (MB) | peak RSS baseline (MB) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.n.toLocaleString('en-US')} (${r.mb.toFixed(0)} MB) | ${r.base.toFixed(2)} | ${r.check.toFixed(2)} | ${(r.base / r.check).toFixed(2)}× | ${(r.baseCpu / r.checkCpu).toFixed(2)}× | ${r.single.toFixed(2)} | ${r.rss.toFixed(0)} | ${r.baseRss.toFixed(0)} |`,
    ),
  ];
  const within = Math.floor(small.n + ((200 - small.rss) * 1e6) / perSample);
  const verdict = [
    `- speed: ${(small.base / small.check).toFixed(2)}× and ${(big.base / big.check).toFixed(2)}× the baseline in wall time (the 4× target is set for the 1 GB miles file above, whose bytes are mostly arrays)`,
    `- memory grows with the number of samples, not bytes: about ${perSample.toFixed(0)} B of peak RSS per sample between the two files (each sample is kept until its groups are known, in the sample store's typed-array columns), so such a file stays within 200 MB up to about ${(within / 1e6).toFixed(1)} million samples`,
  ];
  return { table, verdict, machine: machine(loadBefore), runs };
}
