// Memo slots of samples handed on are released and read back on demand (docs/pt.md, "Streaming
// and memory"; releasedSamples.ts). With the bounds lowered so that every sample's slots are
// released at once, every fixture written by miles' writer still reads equal to torch.load, the
// memo's bound counts only the slots kept, a value read back from a released sample equals what
// it was, and pickles that would read differently are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { LIMITS, PickleMachine } from '../../../server/src/core/reader/pt/pickleMachine';
import { readPt } from '../../../server/src/core/reader/pt/ptFile';
import { ReleasedSamples } from '../../../server/src/core/reader/pt/releasedSamples';
import { stringify, toPlain } from '../../../server/src/core/reader/pt/serialize';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../lsp/fixtures';
import { memoryFile } from '../../shared/memoryFile';

const FIX = join(repoRoot(), 'test/fixtures/pt');

function canonical(v: unknown): unknown {
  return JSON.parse(stringify(toPlain(v, 'canonical')));
}

async function withLimits<T>(set: Partial<typeof LIMITS>, run: () => Promise<T>): Promise<T> {
  const saved = { ...LIMITS };
  Object.assign(LIMITS, set);
  try {
    return await run();
  } finally {
    Object.assign(LIMITS, saved);
  }
}

/** Every sample's slots released as soon as it is handed on. */
const RELEASE_ALL = { keptSlots: 0, releaseLag: 0 };

const FILES = ['run/rollout_data/1.pt', 'run/rollout_data/2.pt', 'run/rollout_data/3.pt', 'run/rollout_data/4.pt', 'run/rollout_data/eval_10.pt', 'memo/5.pt'];
const EXPECTED: Record<string, string> = { 'memo/5.pt': 'memo/5.json' };

test('pt released slots: every fixture reads equal to torch.load with every sample released at once, in any chunk size', async () => {
  for (const file of FILES) {
    const expected = JSON.parse(readFileSync(join(FIX, EXPECTED[file] ?? `expected/${file.split('/').pop()!.replace('.pt', '.json')}`), 'utf8'));
    for (const chunkSize of [undefined, 7, 300]) {
      const got: unknown[] = [];
      const r = await withLimits(RELEASE_ALL, () => readPt(nodeFileAccess, join(FIX, file), { chunkSize, onSample: (v) => got.push(canonical(v)) }));
      assert.deepEqual(r.problems, [], file);
      assert.deepEqual(got, expected.samples, `${file}, chunk size ${chunkSize}`);
    }
    // Summarised (check), the lines are those read with nothing released.
    const lines = async () => {
      const out: string[] = [];
      await readPt(nodeFileAccess, join(FIX, file), { summarize: true, onSample: (v) => out.push(stringify(toPlain(v, 'line'))) });
      return out;
    };
    assert.deepEqual(await withLimits(RELEASE_ALL, lines), await lines(), file);
  }
});

// Protocol 2 opcodes, slots numbered in order as Python's pickler numbers them.
const op = {
  PROTO2: [0x80, 2],
  EMPTY_DICT: [0x7d],
  EMPTY_LIST: [0x5d],
  MARK: [0x28],
  SETITEMS: [0x75],
  SETITEM: [0x73],
  APPENDS: [0x65],
  APPEND: [0x61],
  STOP: [0x2e],
};
const u32 = (i: number) => [i & 0xff, (i >> 8) & 0xff, (i >> 16) & 0xff, (i >>> 24) & 0xff];
const get = (i: number) => (i < 256 ? [0x68, i] : [0x6a, ...u32(i)]);
const int1 = (n: number) => [0x4b, n];

/**
 * `{'samples': [...]}` with `n` samples, each `{'index': i, 'response': 'answer <i>', 'own': [i],
 * ...extra(i)}`: every str, list and dict stored in the memo in order. `extra(i, slot)` returns
 * more key/value opcodes (given the next slot and how to store one) and how many slots they store.
 */
function dump(n: number, extra?: (i: number, slots: SlotOf) => number[]): { bytes: Uint8Array; slotOf: Map<string, number> } {
  let next = 0;
  const slotOf = new Map<string, number>();
  const out: number[] = [...op.PROTO2];
  const put = (name?: string) => {
    if (name !== undefined) slotOf.set(name, next);
    const i = next++;
    return i < 256 ? [0x71, i] : [0x72, ...u32(i)];
  };
  const str = (s: string, name?: string) => {
    const b = Buffer.from(s, 'utf8');
    return [0x58, ...u32(b.length), ...b, ...put(name)];
  };
  const key = (s: string) => (slotOf.has(`key ${s}`) ? get(slotOf.get(`key ${s}`)!) : str(s, `key ${s}`));
  const slots: SlotOf = { put, str, key, get: (name) => get(slotOf.get(name)!) };
  out.push(...op.EMPTY_DICT, ...put(), ...str('samples'), ...op.EMPTY_LIST, ...put(), ...op.MARK);
  for (let i = 0; i < n; i++) {
    out.push(
      ...op.EMPTY_DICT,
      ...put(`sample ${i}`),
      ...op.MARK,
      ...key('index'),
      ...int1(i & 0xff),
      ...key('response'),
      ...str(`answer ${i}`, `response ${i}`),
    );
    out.push(...key('own'), ...op.EMPTY_LIST, ...put(`own ${i}`), ...int1(i & 0xff), ...op.APPEND);
    if (extra) out.push(...extra(i, slots));
    out.push(...op.SETITEMS);
  }
  out.push(...op.APPENDS, ...op.SETITEM, ...op.STOP);
  return { bytes: Uint8Array.from(out), slotOf };
}
interface SlotOf {
  put: (name?: string) => number[];
  str: (s: string, name?: string) => number[];
  key: (s: string) => number[];
  get: (name: string) => number[];
}

async function read(bytes: Uint8Array, chunkSize?: number) {
  const got: Record<string, unknown>[] = [];
  const m = new PickleMachine(memoryFile(bytes), 0, bytes.length, { chunkSize, onSample: (v) => got.push(canonical(v) as Record<string, unknown>) });
  const r = await m.run();
  return { r, got, released: m.releasedSamples.count };
}

test('pt released slots: the memo bound counts the slots kept, not those of samples released', async () => {
  const { bytes } = dump(300);
  // 300 samples store 3 slots each: past a bound of 100 slots kept unless samples are released.
  const kept = await withLimits({ memo: 100 }, () => read(bytes));
  assert.equal(kept.r.problems.length, 1);
  assert.match(kept.r.problems[0].message, /more than 100 memo entries/);
  const released = await withLimits({ ...RELEASE_ALL, memo: 100 }, () => read(bytes));
  assert.deepEqual(released.r.problems, []);
  assert.equal(released.got.length, 300);
  assert.ok(released.released >= 290, `${released.released} samples released`);
  assert.deepEqual(released.got[299], { index: 299 & 0xff, response: 'answer 299', own: [299 & 0xff] });
});

test('pt released slots: values of released samples read back by later samples equal what they were, in any chunk size', async () => {
  // Sample 40 reads back sample 3's response and list and sample 3 itself (a dict in a list).
  const { bytes } = dump(41, (i, s) =>
    i === 40
      ? [...s.key('back'), ...op.EMPTY_LIST, ...s.put(), ...op.MARK, ...s.get('response 3'), ...s.get('own 3'), ...s.get('sample 3'), ...op.APPENDS]
      : [],
  );
  const plain = await read(bytes);
  for (const chunkSize of [undefined, 5, 64]) {
    const { r, got, released } = await withLimits(RELEASE_ALL, () => read(bytes, chunkSize));
    assert.deepEqual(r.problems, []);
    assert.ok(released > 30);
    assert.deepEqual(got, plain.got, `chunk size ${chunkSize}`);
    assert.deepEqual(got[40].back, ['answer 3', [3], { index: 3, response: 'answer 3', own: [3] }]);
  }
});

test('pt released slots: a value of a released sample changed later, or a slot stored again, is refused, not misread', async () => {
  // Sample 20 appends to sample 2's list after it was released (Python's pickler never does).
  const { bytes: changed } = dump(21, (i, s) => (i === 20 ? [...s.key('x'), ...s.get('own 2'), ...int1(9), ...op.APPEND] : []));
  const a = await withLimits(RELEASE_ALL, () => read(changed));
  assert.equal(a.r.problems.length, 1);
  assert.match(a.r.problems[0].message, /changes or reuses a sample .* after the next one began/);
  // Sample 20 stores its response in sample 2's slot again.
  const { bytes, slotOf } = dump(21);
  const at = Buffer.from(bytes).indexOf(Buffer.from('answer 20')) + 'answer 20'.length;
  const again = Uint8Array.from([...bytes.subarray(0, at), 0x71, slotOf.get('response 2')!, ...bytes.subarray(at + 2)]);
  const b = await withLimits(RELEASE_ALL, () => read(again));
  assert.equal(b.r.problems.length, 1);
  assert.match(b.r.problems[0].message, /memo slot \d+ stored again at byte \d+, after earlier samples' slots were released/);
});

test('pt released slots: reading a released sample that reads others back is bounded in depth (a clear problem, no deep recursion)', async () => {
  // Sample i holds `chain: [chain of sample i-1]`; sample 60 reads back sample 50's chain, so
  // reading sample 50 again reads sample 49 again, and so on (sample 0, which stores the keys, is
  // kept, and one sample read again is kept).
  const chain = (i: number, s: SlotOf) => [
    ...s.key('chain'),
    ...op.EMPTY_LIST,
    ...s.put(`chain ${i}`),
    ...(i > 0 ? [...s.get(`chain ${i - 1}`), ...op.APPEND] : []),
    ...(i === 60 ? [...s.key('back'), ...s.get('chain 50')] : []),
  ];
  const { bytes } = dump(61, chain);
  const depth = (v: unknown): number => (Array.isArray(v) && v.length > 0 ? 1 + depth(v[0]) : 0);
  const whole = await withLimits({ ...RELEASE_ALL, keptSlots: 8, rereadSamples: 1 }, () => read(bytes));
  assert.deepEqual(whole.r.problems, []);
  assert.equal(depth(whole.got[60].back), 50);
  const bounded = await withLimits({ ...RELEASE_ALL, keptSlots: 8, rereadSamples: 1, rereadDepth: 5 }, () => read(bytes));
  assert.equal(bounded.r.problems.length, 1);
  assert.match(bounded.r.problems[0].message, /refers back to released samples' values through more than 5 samples/);
  assert.equal(bounded.got.length, 60);
});

test('pt released slots: where released samples are is kept exactly, past 4 GiB too', () => {
  const rs = new ReleasedSamples();
  const starts = [100, 5000, 2 ** 32 + 7, 2 ** 33 + 1, 2 ** 33 + 900];
  starts.forEach((at, k) => rs.add(10 * (k + 1), at, 50 + k, 3));
  // A second chunk of places (16 384 samples each) starting past 8 GiB.
  for (let k = starts.length; k < 20_000; k++) rs.add(10 * (k + 1), 2 ** 33 + 1000 * k, 40, 3);
  assert.deepEqual(
    starts.map((_, k) => rs.range(k)),
    starts.map((at, k) => [at, 50 + k]),
  );
  assert.deepEqual(rs.range(19_999), [2 ** 33 + 1000 * 19_999, 40]);
  assert.equal(rs.find(35), 2);
  assert.equal(rs.find(9), -1);
  assert.equal(rs.find(200_000), 19_999);
  assert.equal(rs.slots, 60_000);
});
