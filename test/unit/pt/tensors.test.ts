// Tensors in `.pt` files (docs/pt.md#tensors): `export --tensors values` gives exactly torch.load's
// `tolist()` (as Python's json.dumps writes it) for every dtype, non-contiguous views, a storage
// saved from cuda:0 and miles' own train_data dump; storages are read in pages, never whole; views
// that do not fit their storage are findings, and their values are never read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { FileAccess, OpenFile } from '../../../server/src/core/seams/fileAccess';
import { exportPtLines } from '../../../server/src/core/reader/pt/exportLines';
import { bfloat16 } from '../../../server/src/core/reader/pt/tensorValues';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../lsp/fixtures';

import { memoryAccess, samplesPickle, tensorPt } from './tensorFiles';

const DIR = join(repoRoot(), 'test/fixtures/real/miles/tensors');
const DTYPES = ['float32', 'float16', 'bfloat16', 'float64', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool'];

async function exported(access: FileAccess, path: string, tensors: 'summary' | 'values' = 'values') {
  let text = '';
  const r = await exportPtLines(access, path, (t) => (text += t), { tensors });
  return { text, ...r };
}

// torch 2.13's files, and Debian 12's python3-torch 1.13's (debian-torch/: another zip layout).
for (const [dtype, dir, torch] of DTYPES.flatMap((d) => [
  [d, DIR, '2.13'],
  [d, join(DIR, 'debian-torch'), '1.13 (Debian)'],
])) {
  test(`export --tensors values of ${dtype} tensors (torch ${torch}) equals torch.load(...).tolist(), character for character`, async () => {
    const r = await exported(nodeFileAccess, join(dir, `dtype_${dtype}.pt`));
    assert.deepEqual(r.problems, []);
    assert.equal(r.text, `${readFileSync(join(dir, `dtype_${dtype}.json`), 'utf8')}\n`);
    // The views are there: a transpose, an offset slice, a step slice, a permuted cube.
    const keys = Object.keys(JSON.parse(r.text.replace(/\bNaN\b|-?Infinity\b/g, '0')) as object);
    for (const k of ['transposed', 'sliced', 'stepped', 'row', 'scalar', 'empty', 'empty_rows', 'cube']) assert.ok(keys.includes(k), k);
  });
}

test('a storage saved from cuda:0 reads as its bytes say, and miles train_data equals torch.load', async () => {
  for (const name of ['cuda', 'debian-torch/cuda', 'train_data/3_0']) {
    const r = await exported(nodeFileAccess, join(DIR, `${name}.pt`));
    assert.deepEqual(r.problems, [], name);
    assert.equal(r.text, `${readFileSync(join(DIR, `${name}.json`), 'utf8')}\n`, name);
  }
  for (const f of ['cuda.pt', 'debian-torch/cuda.pt']) assert.ok(readFileSync(join(DIR, f)).includes('cuda:0'), f);
});

test('by default a tensor is its summary, and a root that is not a samples dump is one line', async () => {
  const r = await exported(nodeFileAccess, join(DIR, 'train_data/3_0.pt'), 'summary');
  assert.equal(r.text.split('\n').length, 2);
  const root = JSON.parse(r.text) as { rollout_id: number; rollout_data: { tokens: unknown[]; loss_masks: unknown[]; rollout_log_probs: unknown[] } };
  assert.equal(root.rollout_id, 3);
  assert.deepEqual(root.rollout_data.tokens[0], { $tensor: { dtype: 'int64', shape: [14] } });
  assert.deepEqual(root.rollout_data.loss_masks[2], { $tensor: { dtype: 'int32', shape: [12] } });
  assert.deepEqual(root.rollout_data.rollout_log_probs[1], { $tensor: { dtype: 'float32', shape: [3] } });
});

/** Counts the bytes read through it. */
function counting(access: FileAccess): { access: FileAccess; read: () => number } {
  let bytes = 0;
  return {
    read: () => bytes,
    access: {
      ...access,
      open: async (path: string): Promise<OpenFile> => {
        const f = await access.open(path);
        return {
          read: async (buf, off, len, pos) => {
            const n = await f.read(buf, off, len, pos);
            bytes += n;
            return n;
          },
          close: () => f.close(),
        };
      },
    },
  };
}

test('a slice of a big storage reads only the pages it touches', async () => {
  // 16 MiB of float32 (element i is i); the view is 10 elements from element 3 000 000, stride 7.
  const n = 4 << 20;
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = i;
  const file = tensorPt({ dtype: 'FloatStorage', numel: n, offset: 3_000_000, size: [10], stride: [7], data: new Uint8Array(data.buffer) });
  const c = counting(memoryAccess('/big.pt', file));
  const r = await exported(c.access, '/big.pt');
  assert.deepEqual(r.problems, []);
  assert.equal(r.text, `{"x": [${Array.from({ length: 10 }, (_, i) => `${3_000_000 + 7 * i}.0`).join(', ')}]}\n`);
  assert.ok(c.read() < 2 << 20, `read ${c.read()} bytes of a ${file.length}-byte file`);
});

test('views that do not fit their storage are findings; their values are not read; a sound view is', async () => {
  const data = new Uint8Array(new Float32Array([0, 1, 2, 3, 4, 5]).buffer);
  const cases: [Parameters<typeof tensorPt>[0], RegExp][] = [
    [{ dtype: 'FloatStorage', numel: 100, offset: 0, size: [100], stride: [1], data }, /claims 400 bytes but holds 24: the storage is shorter than it claims/],
    [
      { dtype: 'FloatStorage', numel: 6, offset: 4, size: [2, 2], stride: [2, 1], data },
      /reads element 7 of storage data\/0, which holds 6: the view is out of range/,
    ],
    [{ dtype: 'FloatStorage', numel: 6, offset: 0, size: [2 ** 30, 2 ** 30], stride: [0, 0], data }, /its shape is absurd/],
    [{ dtype: 'FloatStorage', numel: 6, offset: 0, size: [3], stride: [1], data, key: '9' }, /reads storage data\/9, which the file does not hold/],
    [{ dtype: 'FloatStorage', numel: 6, offset: -1, size: [3], stride: [1], data }, /storage offset -1, which is not a count/],
  ];
  for (const [spec, message] of cases) {
    const r = await exported(memoryAccess('/t.pt', tensorPt(spec)), '/t.pt');
    assert.equal(r.problems.length, 1, String(message));
    assert.equal(r.problems[0].kind, 'tensor');
    assert.match(r.problems[0].message, message);
    assert.match(r.problems[0].message, /its values are not read/);
    assert.equal(r.text, `{"x": {"$tensor": {"dtype": "float32", "shape": [${spec.size.join(', ')}]}}}\n`);
  }
  // Expanded (stride 0) and overlapping rows: a finding, and the values torch.load gives.
  const r = await exported(memoryAccess('/t.pt', tensorPt({ dtype: 'FloatStorage', numel: 6, offset: 1, size: [3, 2], stride: [1, 0], data })), '/t.pt');
  assert.match(r.problems[0].message, /overlapping view.*read as torch.load gives them/);
  assert.equal(r.text, '{"x": [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]}\n');
});

test('storages of a file whose byteorder record says big are read big-endian, as torch.load swaps them', async () => {
  const big = new DataView(new ArrayBuffer(16));
  big.setFloat32(0, 1.5);
  big.setFloat32(4, -0.1);
  big.setFloat32(8, 3e38);
  big.setFloat32(12, 2 ** -140);
  const spec = { dtype: 'FloatStorage', numel: 4, offset: 0, size: [4], stride: [1], data: new Uint8Array(big.buffer) };
  const r = await exported(memoryAccess('/b.pt', tensorPt({ ...spec, byteorder: 'big' })), '/b.pt');
  // Python: [float(x) for x in numpy.array([1.5, -0.1, 3e38, 2**-140], dtype='>f4')]
  assert.equal(r.text, '{"x": [1.5, -0.10000000149011612, 3.0000000054977558e+38, 7.174648137343064e-43]}\n');
  const little = await exported(memoryAccess('/l.pt', tensorPt({ ...spec, byteorder: 'little' })), '/l.pt');
  assert.notEqual(little.text, r.text);
});

test('a sample holding a tensor: its line and the lines after it come in order, with the values', async () => {
  const spec = { dtype: 'LongStorage', numel: 3, offset: 1, size: [2], stride: [1], data: new Uint8Array(new BigInt64Array([5n, -6n, 2n ** 60n]).buffer) };
  const writes: string[] = [];
  const r = await exportPtLines(memoryAccess('/s.pt', tensorPt(spec, samplesPickle(spec))), '/s.pt', (t) => writes.push(t), { tensors: 'values' });
  assert.equal(r.samples, 3);
  assert.equal(writes.join(''), '{"a": 1}\n{"t": [-6, 1152921504606846976]}\n{"b": 2}\n');
  // The first sample was written as it was read, before the tensor's line.
  assert.equal(writes[0], '{"a": 1}\n');
  const summary = await exported(memoryAccess('/s.pt', tensorPt(spec, samplesPickle(spec))), '/s.pt', 'summary');
  assert.equal(summary.text, '{"a": 1}\n{"t": {"$tensor": {"dtype": "int64", "shape": [2]}}}\n{"b": 2}\n');
});

test('bfloat16: every bit pattern widens as a float32 with those upper bits does', () => {
  const widen = new DataView(new ArrayBuffer(4));
  for (let bits = 0; bits < 0x10000; bits++) {
    widen.setUint32(0, bits << 16);
    const want = widen.getFloat32(0);
    const got = bfloat16(bits);
    assert.ok(Object.is(got, want), `0x${bits.toString(16)}: ${got} vs ${want}`);
  }
});
