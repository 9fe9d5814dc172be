// 1 000 000 short samples in the shapes that stress what a report keeps, not how fast lines are
// read: every line cut short, every sample aborted without a cause, one sample per group, every
// prompt spread over 8 groups, a distinct exit status per sample, every sample an infrastructure
// failure scored, the lines shuffled, one group key for the whole file. Each file is the seeded
// short file of bench/scale.mjs with one transformation applied to every line, so only the shape
// differs. `check` runs next to the JSON.parse-per-line pass (`bench/baseline.mjs
// --count-invalid`), results checked first: every line is counted (records + invalid lines) and the
// runs print identical reports (a build given with --before: identical but for related lines,
// which findings list 256 of at most since 2026-12-02).
//   node bench/shapes.mjs [--runs 2] [--only invalid,aborted,...] [--before <checkout> [--before-label <text>]] [--no-write]
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { rng } from './generate.mjs';
import { arg, interleaved, load, machine, pct, root, writeSection } from './measure.mjs';
import { eachLine } from './reference.mjs';

const dataDir = join(root, 'bench/.data');
const runs = Number(arg('runs', '2'));
const before = arg('before', null);
// How the notes name that build (a commit, say), where its path says nothing.
const beforeLabel = arg('before-label', before);
const write = !process.argv.includes('--no-write');
const SOURCE = join(dataDir, 'scale-short-1m-seed7.jsonl');
const N = 1_000_000;

/** Line `k` (0-based) of the short file, reshaped; each keeps the file's other members as written. */
const SHAPES = {
  invalid: { label: 'every line cut 3 bytes short', line: (l) => l.slice(0, -3) },
  aborted: {
    label: 'every sample aborted, no exit status',
    line: (l) =>
      l
        .replace(/"status": "[a-z]+"/, '"status": "aborted"')
        .replace(/"reward": [^,]+/, '"reward": null')
        .replace(/"exit_status": "[A-Za-z]*"/, '"exit_status": ""'),
  },
  singletons: { label: 'one sample per group', line: (l, k) => l.replace(/"group_index": \d+/, `"group_index": ${k}`) },
  spread: {
    label: 'every prompt in 8 groups',
    // Group g holds 8 different prompts; prompt p sits in groups p, p + 15 625, … (8 of them).
    line: (l, k) => l.replace(/"prompt": "[^"]*"/, `"prompt": "What is prompt ${((k >> 3) + (k & 7) * 15_625) % 125_000}?"`),
  },
  causes: { label: 'a distinct exit status per sample', line: (l, k) => l.replace(/"exit_status": "[A-Za-z]*"/, `"exit_status": "Cause${k}"`) },
  infra: {
    label: 'every completed sample an infrastructure failure',
    line: (l) => l.replace('"exit_status": "Submitted"', '"exit_status": "SandboxUnavailable"'),
  },
  shuffled: { label: 'lines in a seeded random order', line: null },
  onegroup: { label: 'one group for the whole file', line: (l) => l.replace(/"group_index": \d+/, '"group_index": 0') },
};
const only = arg('only', null)?.split(',') ?? Object.keys(SHAPES);
const unknown = only.filter((name) => !(name in SHAPES));
if (unknown.length > 0) throw new Error(`no shape ${unknown.join(', ')} (shapes: ${Object.keys(SHAPES).join(', ')})`);

function shapeFile(name) {
  const path = join(dataDir, `shape-${name}-1m-seed7.jsonl`);
  const done = `${path}.complete`;
  if (existsSync(done)) return path;
  if (!existsSync(SOURCE)) throw new Error(`${SOURCE} is missing: run \`node bench/scale.mjs --only short\` first`);
  console.log(`generating ${path} ...`);
  rmSync(path, { force: true });
  const fd = openSync(path, 'w');
  let batch = [];
  const flush = () => {
    writeSync(fd, `${batch.join('\n')}\n`);
    batch = [];
  };
  const reshape = SHAPES[name].line;
  if (reshape === null) {
    // Fisher-Yates over the lines, seeded: the whole file is held once here, never by the checks.
    const lines = readFileSync(SOURCE, 'utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const rand = rng(7);
    for (let i = lines.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [lines[i], lines[j]] = [lines[j], lines[i]];
    }
    for (const l of lines) {
      batch.push(l);
      if (batch.length >= 8192) flush();
    }
  } else {
    let k = 0;
    eachLine(SOURCE, (text) => {
      batch.push(reshape(text, k++));
      if (batch.length >= 8192) flush();
    });
  }
  if (batch.length) flush();
  closeSync(fd);
  writeFileSync(done, '');
  return path;
}

function timeShape(name) {
  const path = shapeFile(name);
  const commands = { baseline: ['bench/baseline.mjs', '--count-invalid', path], check: ['dist/cli.js', 'check', '--format', 'json', '--exit-zero', path] };
  if (before) commands.before = [join(before, 'dist/cli.js'), 'check', '--format', 'json', '--exit-zero', path];
  const got = interleaved(name, commands, runs); // the baseline first: it warms the page cache
  const report = JSON.parse(got.check[0].stdout);
  const file = report.files[0];
  const base = JSON.parse(got.baseline[0].stdout);
  if (file.records !== base.records || file.invalidLines !== base.invalid || base.records + base.invalid !== N)
    throw new Error(`${name}: check counted ${file.records} records and ${file.invalidLines} invalid lines, the baseline ${base.records} and ${base.invalid}`);
  if (got.check.some((m) => m.stdout !== got.check[0].stdout)) throw new Error(`${name}: check printed different reports`);
  const withoutRelated = (stdout) => {
    const r = JSON.parse(stdout);
    return JSON.stringify({ ...r, findings: r.findings.map(({ related, ...f }) => ({ ...f, related: (related?.length ?? 0) > 0 })) });
  };
  if (got.before.some((m) => withoutRelated(m.stdout) !== withoutRelated(got.check[0].stdout)))
    throw new Error(`${name}: the build before printed another report`);
  const wall = (k) =>
    pct(
      got[k].map((m) => m.wall),
      50,
    );
  const rss = (k) => Math.max(...got[k].map((m) => m.rss));
  return {
    name,
    label: SHAPES[name].label,
    bytes: statSync(path).size,
    records: file.records,
    invalid: file.invalidLines,
    groups: file.groups.total,
    findings: report.findings.length,
    base: wall('baseline'),
    check: wall('check'),
    rss: rss('check'),
    baseRss: rss('baseline'),
    before: got.before.length ? { check: wall('before'), rss: rss('before') } : null,
  };
}

const loadBefore = load();
const rows = only.map(timeShape);
const beforeCols = before ? ' before: check p50 (s) | before: peak RSS (MB) |' : '';
const table = [
  `| shape (1,000,000 short samples) | MB | records / invalid lines | groups | JSON.parse pass p50 (s) | check p50 (s) | ratio (wall) | check peak RSS (MB) | baseline peak RSS (MB) |${beforeCols}`,
  `|---|---:|---:|---:|---:|---:|---:|---:|---:|${before ? '---:|---:|' : ''}`,
  ...rows.map(
    (r) =>
      `| ${r.label} | ${(r.bytes / 1e6).toFixed(0)} | ${r.records.toLocaleString('en-US')} / ${r.invalid.toLocaleString('en-US')} | ${r.groups.toLocaleString('en-US')} | ${r.base.toFixed(2)} | ${r.check.toFixed(2)} | ${(r.base / r.check).toFixed(2)}× | ${r.rss.toFixed(0)} | ${r.baseRss.toFixed(0)} |${r.before ? ` ${r.before.check.toFixed(2)} | ${r.before.rss.toFixed(0)} |` : ''}`,
  ),
];
console.log(`\n${table.join('\n')}\n`);
writeFileSync(join(dataDir, 'shapes-last.json'), JSON.stringify({ rows, table, machine: machine(loadBefore) }, null, 1));
if (write && rows.length === Object.keys(SHAPES).length) {
  writeSection(
    'shapes',
    `## Scale: 1 M short samples in unusual shapes

Reproduce: \`npm run bench\` (or \`node bench/shapes.mjs --runs ${runs}\` after \`npm run build\` and
\`node bench/scale.mjs --only short\`, whose file each shape is made from; \`--only <shape,…>\`).
What a report keeps, not how fast lines are read: the seeded 1 M short-sample file of the section
above with one change to every line (${rows.map((r) => r.label).join('; ')}). Checked first: \`check\`
counts every line the JSON.parse pass counts (records and invalid lines) and its runs print identical
reports. ${runs} runs each, interleaved after one warm-up; p50 wall time, highest peak RSS.${
      before
        ? ` "Before" is the build of ${beforeLabel} in the same runs, its reports identical but for the related lines (findings list 256 at most since).`
        : ''
    }
Machine: ${machine(loadBefore)}.

${table.join('\n')}`,
  );
  console.log('wrote the shapes section of BENCHMARKS.md');
}
