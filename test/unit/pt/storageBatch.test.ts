// StorageBatch (server/src/core/reader/pt/storageBatch.ts): the storages a window of train_data
// samples needs, read at once into one buffer and handed out as typed-array views. Each view must
// hold what StorageReader.readNumbers reads (itself checked against torch.load in tensors.test.ts);
// what it does not hand out is left to StorageReader; records nobody asked for are not read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import type { FileAccess, OpenFile } from '../../../server/src/core/seams/fileAccess';
import { readPt } from '../../../server/src/core/reader/pt/ptFile';
import { StorageBatch } from '../../../server/src/core/reader/pt/storageBatch';
import { StorageReader } from '../../../server/src/core/reader/pt/tensorValues';
import { PyDict, TensorPlaceholder } from '../../../server/src/core/reader/pt/values';
import { tensorsOf } from '../../../server/src/core/train/trainFile';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../lsp/fixtures';

import { memoryAccess, storedZip, tensorCall, tensorPt } from './tensorFiles';

const DIR = join(repoRoot(), 'test/fixtures/real/miles/tensors');
/** The dtypes a typed array reads as they are stored (little-endian). */
const VIEWED = ['float32', 'float64', 'int32', 'int16', 'int8', 'uint8', 'bool'];

/** Reads `tensors` through a batch; each one's view, or undefined, beside readNumbers' values (null when that cannot read it). */
async function both(access: FileAccess, path: string, tensors: (root: unknown) => TensorPlaceholder[], capacity?: number) {
  const r = await readPt(access, path, {});
  const list = tensors(r.root);
  const size = (await access.stat(path)).size;
  const file = await access.open(path);
  try {
    const batch = new StorageBatch(file, size, r.records, r.littleEndian, capacity);
    const reader = new StorageReader(file, size, r.records, r.littleEndian);
    const out: { t: TensorPlaceholder; view: number[] | undefined; values: Float64Array | null; window: number }[] = [];
    for (let from = 0; from < list.length;) {
      const to = await batch.load(from, list.length, (i) => [list[i]]);
      assert.ok(to > from, 'a window holds at least one row');
      for (let i = from; i < to; i++) {
        const t = list[i];
        const located = t.view === null ? 'no view' : await reader.locate(t.view.record);
        // A view holds until the next window is read: its elements are taken now.
        const view = batch.numbers(t);
        out.push({ t, view: view && Array.from(view), values: located === null ? await reader.readNumbers(t) : null, window: from });
      }
      from = to;
    }
    return out;
  } finally {
    await file.close();
  }
}

const dictTensors = (root: unknown): TensorPlaceholder[] =>
  root instanceof PyDict ? root.valueList.filter((v): v is TensorPlaceholder => v instanceof TensorPlaceholder) : [];

function assertSame(view: ArrayLike<number>, values: Float64Array | null, what: string): void {
  assert.ok(values !== null, `${what}: StorageReader reads it too`);
  assert.equal(view.length, values.length, what);
  for (let i = 0; i < values.length; i++) assert.ok(Object.is(view[i], values[i]), `${what}[${i}]: ${view[i]} vs ${values[i]}`);
}

for (const sub of ['', 'debian-torch']) {
  test(`every dtype's tensors (${sub || 'torch 2.13'}): a view holds readNumbers' values; int64, float16, bfloat16 and strided views are StorageReader's`, async () => {
    for (const dtype of ['float32', 'float16', 'bfloat16', 'float64', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool']) {
      const rows = await both(nodeFileAccess, join(DIR, sub, `dtype_${dtype}.pt`), dictTensors);
      assert.ok(rows.length > 0, dtype);
      let viewed = 0;
      for (const { t, view, values } of rows) {
        if (view === undefined) continue;
        viewed++;
        assert.ok(VIEWED.includes(dtype), `${dtype} has no view`);
        assert.ok(
          t.view !== null && t.view.stride.every((s, d) => t.shape[d] === 1 || s === t.shape.slice(d + 1).reduce((a, b) => a * b, 1)),
          `${dtype}: only contiguous views`,
        );
        assertSame(view, values, `${dtype} [${t.shape.join(', ')}]`);
      }
      // The fixtures hold contiguous tensors of each dtype (row, cube, scalar, …) and strided ones (transposed, stepped).
      if (VIEWED.includes(dtype)) assert.ok(viewed > 0 && viewed < rows.length, `${dtype}: ${viewed} of ${rows.length} viewed`);
      else assert.equal(viewed, 0, dtype);
    }
  });
}

test("miles train_data: every per-token tensor of every sample is viewed, equal to readNumbers', over windows of a small buffer", async () => {
  const path = join(DIR, 'train_data/3_0.pt');
  // Every list of tensors in rollout_data, sample by sample.
  const tensors = (root: unknown) => {
    const data = root instanceof PyDict ? root.map.get('rollout_data') : undefined;
    return data instanceof PyDict ? data.valueList.flatMap((v) => tensorsOf(v) ?? []) : [];
  };
  // A buffer of 4 KiB: several windows.
  const rows = await both(nodeFileAccess, path, tensors, 4096);
  assert.ok(rows.length >= 20, `${rows.length} tensors`);
  assert.ok(new Set(rows.map((r) => r.window)).size > 2, 'several windows');
  for (const { t, view, values } of rows) {
    if (t.dtype === 'int64') assert.equal(view, undefined, 'the tokens (int64) are not viewed');
    else {
      assert.ok(view !== undefined, `${t.dtype} [${t.shape.join(', ')}] viewed`);
      assertSame(view, values, t.dtype);
    }
  }
});

test('data at an unaligned offset is copied out, not viewed misaligned; a big-endian file is left to StorageReader', async () => {
  const data = new Uint8Array(new Float32Array([1.5, -0.1, 3e38, 2 ** -140, NaN]).buffer);
  const spec = { dtype: 'FloatStorage', numel: 5, offset: 1, size: [4], stride: [1], data };
  // storedZip pads nothing: the data follows the 38-byte local header of `t/data/0`.
  const [row] = await both(memoryAccess('/u.pt', tensorPt(spec)), '/u.pt', dictTensors);
  assert.ok(row.view !== undefined);
  assertSame(row.view, row.values, 'unaligned float32');
  assert.deepEqual(Array.from(row.view), [Math.fround(-0.1), Math.fround(3e38), Math.fround(2 ** -140), NaN]);
  const [big] = await both(memoryAccess('/b.pt', tensorPt({ ...spec, byteorder: 'big' })), '/b.pt', dictTensors);
  assert.equal(big.view, undefined);
});

test("a record whose local header is not there is StorageReader's, which says why; the others are still viewed", async () => {
  const data = new Uint8Array(new Int32Array([1, 0, 1, 1]).buffer);
  const file = tensorPt({ dtype: 'IntStorage', numel: 4, offset: 0, size: [4], stride: [1], data });
  const name = new TextEncoder().encode('t/data/0');
  // The local header is the first `t/data/0` in the file (the central directory's comes later).
  let at = -1;
  for (let i = 0; i + name.length <= file.length && at < 0; i++) if (name.every((b, k) => file[i + k] === b)) at = i - 30;
  const broken = file.slice();
  broken[at] = 0x51;
  const [row] = await both(memoryAccess('/h.pt', broken), '/h.pt', dictTensors);
  assert.equal(row.view, undefined);
  assert.equal(row.values, null);
  const r = await readPt(memoryAccess('/h.pt', broken), '/h.pt', {});
  const f = await memoryAccess('/h.pt', broken).open('/h.pt');
  assert.match((await new StorageReader(f, broken.length, r.records).locate('data/0')) ?? '', /bad zip local header for t\/data\/0/);
});

test('records between the ones asked for are seeked over, not read, when they are bigger than a header and its padding', async () => {
  // {"a": tensor of data/0, "b": tensor of data/1 (a 256 KiB "tokens"), "c": tensor of data/2}, only a and c asked for.
  const small = new Uint8Array(new Float32Array([1, 2, 3, 4]).buffer);
  const tokens = new Uint8Array(256 << 10);
  const enc = new TextEncoder();
  const key = (k: string) => {
    const b = enc.encode(k);
    return Uint8Array.of(0x58, b.length, 0, 0, 0, ...b);
  };
  const spec = (k: string, n: number) => ({ dtype: 'FloatStorage', numel: n, offset: 0, size: [n], stride: [1], data: small, key: k });
  const pickle = Uint8Array.from([
    0x80,
    2,
    0x7d,
    0x28,
    ...key('a'),
    ...tensorCall(spec('0', 4)),
    ...key('b'),
    ...tensorCall(spec('1', tokens.length / 4)),
    ...key('c'),
    ...tensorCall(spec('2', 4)),
    0x75,
    0x2e,
  ]);
  const bytes = storedZip([
    ['t/data.pkl', pickle],
    ['t/data/0', small],
    ['t/data/1', tokens],
    ['t/data/2', small],
    ['t/version', enc.encode('3\n')],
  ]);
  let read = 0;
  const base = memoryAccess('/s.pt', bytes);
  const access: FileAccess = {
    ...base,
    open: async (p: string): Promise<OpenFile> => {
      const f = await base.open(p);
      return { read: async (buf, off, len, pos) => ((read += len), f.read(buf, off, len, pos)), close: () => f.close() };
    },
  };
  const r = await readPt(access, '/s.pt', {});
  const [a, , c] = dictTensors(r.root);
  read = 0;
  const f = await access.open('/s.pt');
  const batch = new StorageBatch(f, bytes.length, r.records, r.littleEndian);
  assert.equal(await batch.load(0, 1, () => [a, c]), 1);
  assert.deepEqual(Array.from(batch.numbers(a)!), [1, 2, 3, 4]);
  assert.deepEqual(Array.from(batch.numbers(c)!), [1, 2, 3, 4]);
  assert.ok(read < 4096, `read ${read} bytes beside a record of ${tokens.length}`);
});
