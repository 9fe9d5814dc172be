// The CLI's start from V8's code cache (server/src/node/bundleStart.ts): short commands, where
// compiling the bundles is a good part of the time, each timed as built (dist/, with the caches the
// build made) and from a copy of dist/ without the caches (the same bundles compiled from their
// source, as Node would), interleaved. Both print the same output first.
//   node bench/startup.mjs [--runs 15] [--no-write]
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { arg, interleaved, load, machine, pct, root, writeSection } from './measure.mjs';

const runs = Number(arg('runs', 15));
const work = mkdtempSync(join(tmpdir(), 'rl-startup-'));
const fromSource = join(work, 'dist');
cpSync(join(root, 'dist'), fromSource, { recursive: true });
cpSync(join(root, 'package.json'), join(work, 'package.json')); // `--version` reads it beside dist/
const caches = readdirSync(fromSource).filter((name) => name.endsWith('.codecache'));
if (caches.length === 0) throw new Error('dist/ has no code cache: run `npm run build` first');
for (const name of caches) rmSync(join(fromSource, name));

const CONFIG = ['--config', 'examples/run/rollout-lens.yaml'];
// A step of the example run, and a copy of it with no settings file above it: one reads the run's
// settings (and loads the schema and YAML bundles to read them), the other does not.
const STEP = 'examples/run/rollout/rollout_2.jsonl';
const lone = join(work, 'rollout_2.jsonl');
cpSync(join(root, STEP), lone);
const COMMANDS = [
  { name: '`--version`', args: ['--version'] },
  { name: '`check` of one rollout step (8 samples), no settings file', args: ['check', '--format', 'json', '--exit-zero', lone] },
  { name: '`check` of the same step in the example run (reads its settings file)', args: ['check', '--format', 'json', '--exit-zero', STEP] },
  { name: '`check` of the example run (7 files) with its config', args: ['check', ...CONFIG, '--format', 'json', '--exit-zero', 'examples/run'] },
  { name: '`report` of the example run', args: ['report', ...CONFIG, '--exit-zero', '--out', join(work, 'report.html'), 'examples/run'] },
];

const loadBefore = load();
const rows = [];
try {
  for (const { name, args } of COMMANDS) {
    const got = interleaved(name, { cache: [join(root, 'dist/cli.js'), ...args], source: [join(fromSource, 'cli.js'), ...args] }, runs);
    if (got.cache.some((m) => m.stdout !== got.source[0].stdout) || got.source.some((m) => m.stdout !== got.source[0].stdout)) {
      throw new Error(`${name}: the two starts printed different output`);
    }
    const ms = (list, p) =>
      pct(
        list.map((m) => m.wall * 1000),
        p,
      );
    const saved = got.source.map((m, i) => (m.wall - got.cache[i].wall) * 1000).sort((a, b) => a - b);
    rows.push(
      `| ${name} | ${ms(got.source, 50).toFixed(0)} | ${ms(got.cache, 50).toFixed(0)} | ${(ms(got.source, 50) - ms(got.cache, 50)).toFixed(0)} | ${pct(saved, 25).toFixed(0)} to ${pct(saved, 75).toFixed(0)} |`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const body = `## Start-up from the code cache

Reproduce: \`node bench/startup.mjs --runs ${runs}\` after \`npm run build\` (part of \`npm run bench\`).
Each command runs ${runs} times from \`dist/\` as built, whose \`cli.js\` starts the bundles from the V8 code
caches the build made (${caches.map((c) => `\`${c}\``).join(', ')}), and from a copy of \`dist/\`
without them, where the same start compiles the bundles from their source as Node would; interleaved,
after one warm-up; both print the same output. Wall time of the whole process, p50; "saved": the
interquartile range of (from source − from cache) over the interleaved pairs.
Machine: ${machine(loadBefore)}.

| command | from source p50 (ms) | from the cache p50 (ms) | saved p50 (ms) | saved, pairs p25 to p75 (ms) |
|---|---:|---:|---:|---:|
${rows.join('\n')}
`;
console.log(body);
if (!process.argv.includes('--no-write')) writeSection('startup', body);
