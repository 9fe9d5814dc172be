// Hostile tensors in `.pt` files (docs/pt.md#tensors, docs/diagnostics.md#pt-bad-tensor): a storage
// shorter than it claims, an absurd shape, an out-of-range and an overlapping view, through the
// built CLI: each gives its pt-bad-tensor finding in the JSON contract with exit 1, `export
// --tensors values` writes the sound tensor beside it and never the bad one's values, and nothing
// runs. A real tensor dump cut or mutated at random never throws or hangs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { exportPtLines } from '../../server/src/core/reader/pt/exportLines';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';
import { repoRoot } from '../lsp/fixtures';
import { cliJson, runCli, tempDir, write } from './helpers';

const FIX = join(repoRoot(), 'test/fixtures/pt/hostile');
const PWNED = '/tmp/rollout-lens-pwned';

const CASES: [string, RegExp, string][] = [
  [
    'tensor-short-storage.pt',
    /claims 4000 bytes but holds 36: the storage is shorter than it claims; its values are not read/,
    '{"$tensor": {"dtype": "float32", "shape": [1000]}}',
  ],
  [
    'tensor-huge-shape.pt',
    /shape \[1099511627776, 1099511627776\].*its shape is absurd; its values are not read/,
    '{"$tensor": {"dtype": "float32", "shape": [1099511627776, 1099511627776]}}',
  ],
  [
    'tensor-out-of-range.pt',
    /reads element 13 of storage data\/0, which holds 9: the view is out of range/,
    '{"$tensor": {"dtype": "float32", "shape": [3, 3]}}',
  ],
  ['tensor-overlapping.pt', /strides \[1, 1\] is an overlapping view/, '[[0.0, 0.5, 1.0], [0.5, 1.0, 1.5], [1.0, 1.5, 2.0], [1.5, 2.0, 2.5]]'],
];

test('hostile tensor files: pt-bad-tensor in the JSON contract, exit 1, the sound tensor still read, nothing run', () => {
  for (const [name, message, x] of CASES) {
    const r = cliJson([join(FIX, name)]);
    assert.equal(r.status, 1, `${name}: ${r.stderr}`);
    const bad = r.doc.findings.filter((f) => f.code === 'pt-bad-tensor');
    assert.equal(bad.length, 1, `${name}: ${JSON.stringify(r.doc.findings)}`);
    assert.equal(bad[0].severity, 'error');
    assert.match(bad[0].message, message, name);
    const e = runCli(['export', join(FIX, name), '--tensors', 'values']);
    assert.equal(e.status, 1, name);
    assert.equal(e.stdout, `{"x": ${x}, "ok": [7, -8, 4611686018427387904]}\n`, name);
    assert.match(e.stderr, /line 1: a float32 tensor/, name);
  }
  assert.equal(existsSync(PWNED), false, 'nothing ran');
});

test('a real tensor dump cut at every byte or with random bytes changed: no throw, no hang', async (t) => {
  const whole = readFileSync(join(repoRoot(), 'test/fixtures/real/miles/tensors/dtype_float16.pt'));
  const dir = tempDir(t);
  const read = async (bytes: Uint8Array) => {
    const path = write(dir, 'x.pt', bytes);
    let text = '';
    const r = await exportPtLines(nodeFileAccess, path, (s) => (text += s), { tensors: 'values' });
    return { text, r };
  };
  for (let cut = 0; cut < whole.length; cut += 13) await read(whole.subarray(0, cut));
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let k = 0; k < 300; k++) {
    const b = Uint8Array.from(whole);
    for (let j = 0; j < 4; j++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
    const { r } = await read(b);
    for (const p of r.problems) assert.ok(p.message.length > 0, `mutation ${k}`);
  }
});
