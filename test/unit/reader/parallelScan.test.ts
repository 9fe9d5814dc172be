// The CLI's parallel scan (worker threads over byte ranges) must give exactly the single-threaded
// scan's result: same records, findings, counts and resume point, whatever the range cuts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

import { DEFAULT_SETTINGS } from '../../../shared/protocol';
import { analyzeFiles, scanFile } from '../../../server/src/core/engine';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import {
  DEFAULT_MIN_MEAN_LINE_BYTES,
  defaultWantsWorkers,
  lineBoundaries,
  meanLineBytes,
  MIN_DEFAULT_WORKER_CORES,
  WorkerPool,
} from '../../../server/src/node/parallelScan';

import { tempDir, writeFile } from './helpers';

// tsc compiles the worker next to the pool (out/server/src/node/scanWorker.js).
const WORKER = join(__dirname, '../../../server/src/node/scanWorker.js');
const SAMPLES = readFileSync(join(__dirname, '../../../../examples/run/rollout/rollout_1.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');

/** Real miles sample lines, with bad, blank, CRLF and long lines mixed in; deterministic. */
function mixedLog(rounds: number): string[] {
  const out: string[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const [k, line] of SAMPLES.entries()) {
      const at = r * SAMPLES.length + k;
      if (at % 37 === 5) out.push('{"index": 1, "status": "completed", "reward": 1.0,'); // invalid JSON
      if (at % 53 === 7) out.push('   ');
      if (at % 41 === 3) out.push('{"group_index": "zero"}'); // valid JSON, invalid record
      // A line longer than a range: its cut moves to its end.
      if (at % 97 === 11) out.push(`${line.slice(0, -1)}, "pad": "${'é'.repeat(6000)}"}`);
      else out.push(at % 7 === 0 ? `${line}\r` : line);
    }
  }
  return out;
}

async function both(path: string, pool: WorkerPool) {
  const target = { path, displayPath: 'log.jsonl' };
  const base = { access: nodeFileAccess, settings: DEFAULT_SETTINGS };
  const single = await scanFile(target, base);
  const before = pool.rangesScanned;
  const parallel = await scanFile(target, { ...base, parallel: pool });
  const ranges = pool.rangesScanned - before;
  return { single, parallel, ranges };
}

test('parallel scan: worker ranges give the single-threaded result (BOM, CRLF, bad lines, long lines across cuts, partial last line)', async (t) => {
  const dir = tempDir(t);
  const pool = new WorkerPool({ script: WORKER, threshold: 0, minMeanLineBytes: 0, workers: 2, rangeBytes: 5000 });
  t.after(() => pool.close());
  const lines = mixedLog(6);
  const path = writeFile(dir, 'log.jsonl', `\ufeff${lines.join('\n')}\n{"index": 3, "prom`);
  const { single, parallel, ranges } = await both(path, pool);
  assert.ok(ranges > 20, `the file was cut into ${ranges} ranges`);
  assert.ok(single.samples.length > 100 && single.invalidLines > 5 && single.blankLines > 3);
  assert.ok(single.pending !== null && single.findings.some((f) => f.code === 'truncated-line'));
  assert.deepEqual(parallel, single);
});

test('parallel scan: a last line without newline that is complete JSON, and one ending in a newline', async (t) => {
  const dir = tempDir(t);
  const pool = new WorkerPool({ script: WORKER, threshold: 0, minMeanLineBytes: 0, workers: 3, rangeBytes: 3000 });
  t.after(() => pool.close());
  const lines = mixedLog(2);
  for (const [name, text] of [
    ['complete.jsonl', lines.join('\n')],
    ['newline.jsonl', `${lines.join('\r\n')}\r\n`],
  ]) {
    const { single, parallel, ranges } = await both(writeFile(dir, name, text), pool);
    assert.ok(ranges > 5);
    assert.deepEqual(parallel, single, name);
  }
});

test('parallel scan: binary sniffing of the first non-JSON lines holds across ranges (first lines corrupt, then records)', async (t) => {
  const dir = tempDir(t);
  const pool = new WorkerPool({ script: WORKER, threshold: 0, minMeanLineBytes: 0, workers: 2, rangeBytes: 200 });
  t.after(() => pool.close());
  const junk = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x0a, 0xff, 0xfe, 0x00, 0x41, 0x0a, 0x00, 0x00, 0x0a]);
  const text = Buffer.from(`${mixedLog(1).join('\n')}\n`);
  for (const [name, bytes] of [
    ['corrupt-start.jsonl', Buffer.concat([junk, junk, text])],
    ['gzip.jsonl', Buffer.concat([junk, junk, junk])],
  ] as const) {
    const { single, parallel, ranges } = await both(writeFile(dir, name, bytes), pool);
    assert.ok(ranges >= 1);
    assert.deepEqual(parallel, single, name);
  }
});

test('parallel scan: whole reports agree through analyzeFiles; files under the threshold are scanned on the calling thread', async (t) => {
  const dir = tempDir(t);
  const path = writeFile(dir, 'log.jsonl', `${mixedLog(4).join('\n')}\n`);
  const small = new WorkerPool({ script: WORKER, threshold: 1 << 30, workers: 2 });
  const pool = new WorkerPool({ script: WORKER, threshold: 0, minMeanLineBytes: 0, rangeBytes: 4096, workers: 2 });
  t.after(() => Promise.all([small.close(), pool.close()]));
  const targets = [{ path, displayPath: 'log.jsonl' }];
  const settings = { ...DEFAULT_SETTINGS, nSamplesPerPrompt: 4 };
  const single = await analyzeFiles(targets, { access: nodeFileAccess, settings });
  assert.deepEqual(await analyzeFiles(targets, { access: nodeFileAccess, settings, parallel: pool }), single);
  assert.deepEqual(await analyzeFiles(targets, { access: nodeFileAccess, settings, parallel: small }), single);
  assert.equal(small.rangesScanned, 0);
  assert.ok(pool.rangesScanned > 10);
});

test('parallel scan: range cuts fall just after a newline, never inside a line', async (t) => {
  const dir = tempDir(t);
  const text = `${mixedLog(1).join('\n')}\n`;
  const path = writeFile(dir, 'log.jsonl', text);
  const bytes = Buffer.from(text);
  const cuts = await lineBoundaries(path, 0, bytes.length, 40);
  assert.equal(cuts[0], 0);
  assert.equal(cuts[cuts.length - 1], bytes.length);
  for (let k = 1; k < cuts.length - 1; k++) {
    assert.ok(cuts[k] > cuts[k - 1]);
    assert.equal(bytes[cuts[k] - 1], 0x0a, `cut ${k} at ${cuts[k]}`);
  }
});

test('parallel scan: a worker that dies mid-file (out of memory, a crash) loses nothing: the file is read again on this thread, and the next scan gets fresh workers', async (t) => {
  const dir = tempDir(t);
  // The real worker, except that the fourth range of every scan kills its thread.
  const dying = writeFile(
    dir,
    'dying.js',
    `const { parentPort } = require('node:worker_threads');\nparentPort.on('message', (job) => { if (job.job === 3) process.exit(7); });\nrequire(${JSON.stringify(WORKER)});\n`,
  );
  const pool = new WorkerPool({ script: dying, threshold: 0, minMeanLineBytes: 0, workers: 2, rangeBytes: 5000 });
  t.after(() => pool.close());
  const path = writeFile(dir, 'log.jsonl', `${mixedLog(6).join('\n')}\n`);
  const first = await both(path, pool);
  assert.ok(first.ranges >= 4, `${first.ranges} ranges were handed out`);
  assert.deepEqual(first.parallel, first.single);
  // The failed scan's workers were ended (one still busy with a range nobody waits for would never come back idle).
  assert.equal(pool.threads, 0);
  const second = await both(path, pool);
  assert.ok(second.ranges >= 4, `${second.ranges} ranges were handed out the second time`);
  assert.deepEqual(second.parallel, first.single);
});

test('parallel scan: by default workers only on 4 cores or more, and only while a core is idle', () => {
  assert.equal(defaultWantsWorkers(2, 0), false); // measured: no gain on 2 cores
  assert.equal(defaultWantsWorkers(3, 0), false);
  assert.equal(defaultWantsWorkers(4, 0.5), true);
  assert.equal(defaultWantsWorkers(4, 3), true);
  assert.equal(defaultWantsWorkers(4, 3.2), false);
  assert.equal(defaultWantsWorkers(16, 14.9), true);
  // The pool's default follows it (on this kind of machine, 2 cores: never).
  if (availableParallelism() < MIN_DEFAULT_WORKER_CORES) assert.equal(new WorkerPool({ script: WORKER, threshold: 0 }).wants('x', 1 << 30), false);
});

test('parallel scan: files of short lines stay on the calling thread, even with workers asked for; long lines go to workers', (t) => {
  const dir = tempDir(t);
  const pool = new WorkerPool({ script: WORKER, threshold: 0, workers: 2 });
  t.after(() => pool.close());
  const short = writeFile(dir, 'short.jsonl', `${mixedLog(40).join('\n')}\n`);
  const long = writeFile(dir, 'long.jsonl', `${SAMPLES.map((l) => `${l.slice(0, -1)}, "pad": "${'x'.repeat(20_000)}"}`).join('\n')}\n`);
  const oneLine = writeFile(dir, 'one.jsonl', `{"pad": "${'y'.repeat(1_100_000)}"`);
  assert.ok(meanLineBytes(short) < DEFAULT_MIN_MEAN_LINE_BYTES, `${meanLineBytes(short)} bytes a line`);
  assert.ok(meanLineBytes(long) > 20_000);
  assert.equal(meanLineBytes(oneLine), 1 << 20, 'no line ends in the first MiB: at least that long');
  assert.equal(meanLineBytes(join(dir, 'missing.jsonl')), 0);
  assert.equal(pool.wants(short, 1 << 30), false);
  assert.equal(pool.wants(long, 1 << 30), true);
  assert.equal(pool.wants(oneLine, 1 << 30), true);
  assert.equal(new WorkerPool({ script: WORKER, threshold: 0, workers: 2, minMeanLineBytes: 0 }).wants(short, 1 << 30), true);
});
