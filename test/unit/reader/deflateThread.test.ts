// The CLI's deflate thread (server/src/node/deflateThread.ts) computes miles' has_repetition
// compression for the scanning thread: verdicts must be exactly those computed on one thread,
// whichever thread compressed a tail, none may be lost when the thread fails, and a scan's end
// does not wait for tails the thread has not taken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_SETTINGS } from '../../../shared/protocol';
import { analyzeFiles, scanFile } from '../../../server/src/core/engine';
import { zlibLength } from '../../../server/src/core/reader/zlibLength';
import { DeflateThread } from '../../../server/src/node/deflateThread';
import { SLOTS } from '../../../server/src/node/deflateShared';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { STALL_AFTER } from '../../shared/stalledDeflateWorker';

import { tempDir, writeFile } from './helpers';

// tsc compiles the workers next to their sources (out/server/src/node, out/test/shared).
const WORKER = join(__dirname, '../../../server/src/node/deflateWorker.js');
const STALLED = join(__dirname, '../../shared/stalledDeflateWorker.js');
const IDLE = join(__dirname, '../../shared/idleDeflateWorker.js');
const REAL = join(__dirname, '../../../../test/fixtures/real/miles/rollout');

/** Seeded text: repetitive (a short phrase again and again) or not (random words). */
function text(seed: number, chars: number, repetitive: boolean): string {
  let x = seed;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  const words = ['alpha', 'beta', 'gamma', 'δέλτα', '数学', '🙂', 'epsilon', 'zeta', 'eta', 'theta'];
  const phrase = repetitive ? `the answer is ${seed} ` : '';
  let s = '';
  while (s.length < chars) s += repetitive ? phrase : `${words[next() % words.length]}${next() % 997} `;
  // Cut by code points: half an emoji is a lone surrogate, which has no verdict.
  return Array.from(s).slice(0, chars).join('');
}

/** Miles sample lines whose responses are long (repetitive or not) and short, groups of 4. */
function milesLines(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const long = i % 5 !== 4;
    const response = long ? text(i, 10_001 + (i % 7) * 900, i % 3 === 0) : 'short';
    return JSON.stringify({
      group_index: i >> 2,
      index: i,
      prompt: `p${i >> 2}`,
      response,
      response_length: 3,
      label: '1',
      reward: i % 2,
      status: 'completed',
    });
  });
}

test('verdicts compressed on the deflate thread are those of one thread: 400 generated samples, metrics and findings equal', async (t) => {
  const dir = tempDir(t);
  const path = writeFile(dir, 'rollout_7.jsonl', milesLines(400).join('\n') + '\n');
  const options = { access: nodeFileAccess, settings: DEFAULT_SETTINGS, evalConfig: null };
  const alone = await analyzeFiles([{ path, displayPath: 'rollout_7.jsonl' }], options);
  const thread = new DeflateThread({ script: WORKER });
  t.after(() => thread.close());
  await thread.warmUp();
  const shared = await analyzeFiles([{ path, displayPath: 'rollout_7.jsonl' }], { ...options, deflate: thread });
  assert.deepEqual(shared, alone);
  // Sample by sample (the metric would not see two verdicts swapped).
  const target = { path, displayPath: 'rollout_7.jsonl' };
  const [one, two] = [(await scanFile(target, options)).samples, (await scanFile(target, { ...options, deflate: thread })).samples];
  assert.equal(two.length, 400);
  assert.deepEqual(
    two.toArray().map((r) => r.miles?.repetition),
    one.toArray().map((r) => r.miles?.repetition),
  );
  // 320 long responses, of which a third are repetitive: the metric depends on every verdict.
  assert.ok(alone.files[0].metrics['rollout/repetition_frac'] > 0.2);
  // The thread took tails (those past the format's detection, while it had room), more than a ring's
  // worth went through the ring (its slots were used again), and the thread compressed some of them.
  assert.ok(thread.compressed + thread.compressedHere > SLOTS, `thread compressed ${thread.compressed}, taken back ${thread.compressedHere}`);
  assert.ok(thread.compressed > 0, 'the thread compressed tails');
});

test('deflate thread: miles repetition_frac of real miles files (ratios 0.02 either side of 10, CJK, emoji)', async (t) => {
  const thread = new DeflateThread({ script: WORKER });
  t.after(() => thread.close());
  await thread.warmUp();
  for (const name of ['rollout_4', 'rollout_5']) {
    const want = (JSON.parse(readFileSync(join(REAL, `${name}.expected.json`), 'utf8')) as { metrics: Record<string, number> }).metrics;
    const r = await analyzeFiles([{ path: join(REAL, `${name}.jsonl`), displayPath: name }], {
      access: nodeFileAccess,
      settings: DEFAULT_SETTINGS,
      evalConfig: null,
      deflate: thread,
    });
    assert.equal(r.files[0].metrics['rollout/repetition_frac'], want['rollout/repetition_frac'], name);
  }
});

test('deflate thread: a real miles .pt dump, sample by sample as on one thread, and its repetition_frac as miles logged it', async (t) => {
  const thread = new DeflateThread({ script: WORKER });
  t.after(() => thread.close());
  await thread.warmUp();
  const target = { path: join(REAL, '../rollout_data/5.pt'), displayPath: '5.pt' };
  const options = { access: nodeFileAccess, settings: DEFAULT_SETTINGS, evalConfig: null };
  const one = (await scanFile(target, options)).samples.toArray();
  const two = (await scanFile(target, { ...options, deflate: thread })).samples.toArray();
  // Every long response's tail went through the ring (the thread takes them, or the scan's end takes
  // back those it had not started: which, depends on how soon the thread wakes).
  assert.ok(thread.compressed + thread.compressedHere >= 5, `thread compressed ${thread.compressed}, taken back ${thread.compressedHere}`);
  assert.deepEqual(
    two.map((r) => r.miles?.repetition),
    one.map((r) => r.miles?.repetition),
  );
  const want = (JSON.parse(readFileSync(join(REAL, 'rollout_5.expected.json'), 'utf8')) as { metrics: Record<string, number> }).metrics;
  const r = await analyzeFiles([target], { ...options, deflate: thread });
  assert.equal(r.files[0].format, 'miles-pt');
  assert.equal(r.files[0].metrics['rollout/repetition_frac'], want['rollout/repetition_frac']);
});

test('deflate thread: tickets of two scans interleaved, each gets its own lengths', async (t) => {
  const thread = new DeflateThread({ script: WORKER });
  t.after(() => thread.close());
  await thread.warmUp();
  const a = thread.start();
  const b = thread.start();
  const inputs = Array.from({ length: 3 * SLOTS }, (_, i) => new TextEncoder().encode(text(i, 10_000 + i, i % 2 === 0)));
  const taken: [number, number][] = [];
  inputs.forEach((bytes, i) => taken.push([i % 2, (i % 2 === 0 ? a : b).offer(bytes)]));
  const [la, lb] = await Promise.all([a.finish(), b.finish()]);
  let offered = 0;
  inputs.forEach((bytes, i) => {
    const [who, ticket] = taken[i];
    if (ticket < 0) return;
    offered++;
    assert.equal((who === 0 ? la : lb)[ticket], zlibLength(bytes, 9), `input ${i}`);
  });
  assert.ok(offered >= SLOTS, `offered ${offered}`);
});

test('deflate thread that crashes: the tails it had taken are compressed on the calling thread', async (t) => {
  const thread = new DeflateThread({ script: STALLED });
  t.after(() => thread.close());
  await thread.warmUp();
  const jobs = thread.start();
  const inputs = Array.from({ length: STALL_AFTER }, (_, i) => new TextEncoder().encode(text(i + 50, 12_000, i === 1)));
  const tickets = inputs.map((bytes) => jobs.offer(bytes));
  assert.deepEqual(tickets, [0, 1, 2]);
  const lengths = await jobs.finish();
  assert.deepEqual(
    Array.from(lengths),
    inputs.map((bytes) => zlibLength(bytes, 9)),
  );
  assert.equal(thread.compressed, 0);
  // Failed: later tails are left to the caller.
  assert.equal(thread.start().offer(inputs[0]), -1);
});

test('deflate thread that takes no tail: the scan’s end compresses them all on the calling thread, without waiting for it', async (t) => {
  const thread = new DeflateThread({ script: IDLE });
  t.after(() => thread.close());
  await thread.warmUp();
  const jobs = thread.start();
  const inputs = Array.from({ length: SLOTS + 5 }, (_, i) => new TextEncoder().encode(text(i + 80, 10_500, i % 4 === 0)));
  const tickets = inputs.map((bytes) => jobs.offer(bytes));
  // The ring's slots, then no room: the rest are the caller's at once.
  assert.deepEqual(
    tickets,
    inputs.map((_, i) => (i < SLOTS ? i : -1)),
  );
  const lengths = await jobs.finish();
  assert.deepEqual(
    Array.from(lengths),
    inputs.slice(0, SLOTS).map((bytes) => zlibLength(bytes, 9)),
  );
  assert.equal(thread.compressed, 0);
  assert.equal(thread.compressedHere, SLOTS);
  // The slots are free again: the next scan hands its tails over.
  assert.equal(thread.start().offer(inputs[0]), 0);
});

test('deflate thread: each tail of a scan compressed once, by the thread or at the scan’s end by the caller', async (t) => {
  const thread = new DeflateThread({ script: WORKER });
  t.after(() => thread.close());
  await thread.warmUp();
  for (let round = 0; round < 20; round++) {
    const jobs = thread.start();
    const [before, beforeHere] = [thread.compressed, thread.compressedHere];
    const inputs = Array.from({ length: 8 }, (_, i) => new TextEncoder().encode(text(round * 8 + i, 12_000, i % 3 === 0)));
    const tickets = inputs.map((bytes) => jobs.offer(bytes));
    assert.deepEqual(tickets, [0, 1, 2, 3, 4, 5, 6, 7]);
    const lengths = await jobs.finish();
    assert.deepEqual(
      Array.from(lengths),
      inputs.map((bytes) => zlibLength(bytes, 9)),
      `round ${round}`,
    );
    // Each of the eight by one thread: none compressed by both, none by neither.
    assert.equal(thread.compressed - before + (thread.compressedHere - beforeHere), 8, `round ${round}`);
  }
});
