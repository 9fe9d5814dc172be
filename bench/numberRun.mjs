// numberRun.wat's `skipRun` alone, on the numeric arrays of the text-heavy file of bench/scale.mjs:
// the token ids and the log-probs of its first 60 MB, each array from the `,` after its first number
// to the line's end, with a pair loop around it like jsonSkip.ts' `skipNumberRun` (lighter): where
// `skipRun` stops at a `,`, the pair there is read in JS and the run goes on (an exponent, for a
// module of before 2026-12-03; now only the pairs `skipRun` is not sure of). Timed in one process,
// the modules taking turns (15 rounds, the first 3 not counted), so a change to the loops is
// measured without the rest of a check's noise.
//   node bench/numberRun.mjs [--before <checkout>] [--file <miles .jsonl> | --exponents]   (after `node bench/scale.mjs --only text`)
// `--before` also times the module of another checkout (its server/src/core/reader/numberRunWasm.ts);
// `--file` reads another miles file's first 60 MB instead; `--exponents [--lines 500]` a file written
// here once (seeded, 120 KB a line): 4000 token ids and 4000 log-probs a line, at full precision as Python's
// `repr` writes them, half of them near 0 and so with an exponent (`-2.2755473273704633e-06`), as
// a policy's confident tokens are.
import { closeSync, existsSync, openSync, readFileSync, readSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { pythonFloatRepr, rng } from './generate.mjs';
import { arg, root } from './measure.mjs';

function writeExponentsFile(path, lines, seed) {
  const rand = rng(seed);
  const fd = openSync(`${path}.partial`, 'w');
  for (let l = 0; l < lines; l++) {
    const tokens = Array.from({ length: 4000 }, (_, k) => (k * 7919 + l) % 150000);
    const logProbs = Array.from({ length: 4000 }, () => pythonFloatRepr(rand() < 0.5 ? -(rand() ** 2) * 1e-4 : -(rand() ** 3) * 5));
    writeSync(fd, `{"tokens": [${tokens.join(', ')}], "rollout_log_probs": [${logProbs.join(', ')}]}\n`);
  }
  closeSync(fd);
  renameSync(`${path}.partial`, path);
}

let file = arg('file', join(root, 'bench/.data/scale-text-500mb-seed11.jsonl'));
if (process.argv.includes('--exponents')) {
  const lines = Number(arg('lines', '500'));
  file = join(root, `bench/.data/numberrun-exponents-${lines}-seed7.jsonl`);
  if (!existsSync(file)) writeExponentsFile(file, lines, 7);
}
if (!existsSync(file)) {
  console.error(`${file} is missing${arg('file', null) === null ? ': run node bench/scale.mjs --only text first' : ''}`);
  process.exit(1);
}
const before = arg('before', null);
const modules = [['now', root], ...(before ? [['before', before]] : [])].map(([label, dir]) => {
  const text = readFileSync(join(dir, 'server/src/core/reader/numberRunWasm.ts'), 'utf8');
  return { label, module: new WebAssembly.Module(Buffer.from(/'([A-Za-z0-9+/=]+)'/.exec(text)[1], 'base64')) };
});

const buf = Buffer.alloc(60 << 20);
const fd = openSync(file, 'r');
const n = readSync(fd, buf, 0, buf.length, 0);
closeSync(fd);
const data = buf.subarray(0, buf.lastIndexOf(0x0a, n - 1) + 1);

// Each array as [kind, the `,` after its first number, the line's end].
const KEYS = { tokens: Buffer.from('"tokens": ['), 'log-probs': Buffer.from('"rollout_log_probs": [') };
const spans = [];
for (let at = 0; at < data.length;) {
  const end = data.indexOf(0x0a, at);
  for (const [kind, key] of Object.entries(KEYS)) {
    const s = data.indexOf(key, at);
    if (s >= 0 && s < end) spans.push({ kind, from: data.indexOf(0x2c, s + key.length), end });
  }
  at = end + 1;
}

const isNumberByte = (c) => (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0x2b || c === 0x65 || c === 0x45;
const runners = modules.map(({ label, module }) => {
  const memory = new WebAssembly.Memory({ initial: Math.ceil((data.length + 64) / 65536) });
  new Uint8Array(memory.buffer).set(data);
  const bytes = new Uint8Array(memory.buffer);
  const { skipRun } = new WebAssembly.Instance(module, { env: { memory } }).exports;
  /** One array: `skipRun`, then the pair it stopped at (as JS reads it) and on, until a pair ends the run. */
  const run = (from, end) => {
    let i = from;
    for (;;) {
      i = skipRun(i, end);
      if (bytes[i] !== 0x2c) return i;
      let j = i + 1;
      if (bytes[j] === 0x20) j++;
      const start = j;
      while (j < end && isNumberByte(bytes[j])) j++;
      if (j === start || bytes[j] !== 0x2c) return j;
      i = j;
    }
  };
  return { label, run };
});

const times = runners.map(() => ({ tokens: [], 'log-probs': [] }));
const reached = runners.map(() => ({ tokens: 0, 'log-probs': 0 }));
for (let round = 0; round < 15; round++) {
  runners.forEach(({ run }, m) => {
    const t = { tokens: 0, 'log-probs': 0 };
    for (const { kind, from, end } of spans) {
      const t0 = performance.now();
      const stop = run(from, end);
      t[kind] += performance.now() - t0;
      if (round === 0) reached[m][kind] += stop - from;
    }
    if (round >= 3) for (const kind of Object.keys(t)) times[m][kind].push(t[kind]);
  });
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const [kind] of Object.entries(KEYS)) {
  const count = spans.filter((s) => s.kind === kind).length;
  for (let m = 0; m < runners.length; m++) {
    const ms = median(times[m][kind]);
    // (the bytes of the arrays up to where the current module stops: the same work for each)
    const mb = reached[0][kind] / 1e6;
    console.log(`${kind.padEnd(9)} ${runners[m].label.padEnd(6)} ${count} arrays, ${mb.toFixed(1)} MB: ${ms.toFixed(1)} ms p50 (${(mb / ms).toFixed(2)} GB/s)`);
  }
}
