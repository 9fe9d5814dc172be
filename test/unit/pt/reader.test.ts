// The .pt reader against torch.load: every sample of every fixture written by miles' own writer
// (test/fixtures/pt/generate.py) equals torch.load's export field by field; random values pickled
// with protocols 0-5 read back equal; hostile files give a clear problem and nothing runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { PickleMachine } from '../../../server/src/core/reader/pt/pickleMachine';
import { readPt } from '../../../server/src/core/reader/pt/ptFile';
import { stringify, toPlain } from '../../../server/src/core/reader/pt/serialize';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../lsp/fixtures';
import { memoryFile } from '../../shared/memoryFile';

const FIX = join(repoRoot(), 'test/fixtures/pt');

function canonical(v: unknown): unknown {
  return JSON.parse(stringify(toPlain(v, 'canonical')));
}

async function readAll(path: string, chunkSize?: number) {
  const samples: unknown[] = [];
  const r = await readPt(nodeFileAccess, path, { onSample: (s) => samples.push(canonical(s)), chunkSize });
  return { ...r, samples };
}

const STEPS = ['1', '2', '3', '4', 'eval_10'];

for (const step of STEPS) {
  test(`pt reader: ${step}.pt equals torch.load's view, sample by sample and field by field`, async () => {
    const expected = JSON.parse(readFileSync(join(FIX, 'expected', `${step}.json`), 'utf8'));
    // A small chunk size makes every opcode cross chunk boundaries somewhere.
    for (const chunkSize of [undefined, 7]) {
      const r = await readAll(join(FIX, 'run/rollout_data', `${step}.pt`), chunkSize);
      assert.deepEqual(r.problems, []);
      assert.equal(r.samples.length, expected.samples.length);
      r.samples.forEach((s, i) => {
        const want = expected.samples[i];
        assert.deepEqual(Object.keys(s as object), Object.keys(want), `sample ${i} keys`);
        for (const key of Object.keys(want)) assert.deepEqual((s as Record<string, unknown>)[key], want[key], `sample ${i} field ${key}`);
      });
      const header = Object.fromEntries([...r.header].map(([k, v]) => [String(k), canonical(v)]));
      const { samples: _s, ...rest } = expected;
      assert.deepEqual(header, rest);
    }
  });
}

test('pt reader: numpy 2 module paths (numpy._core.multiarray) read like numpy 1', async () => {
  const expected = JSON.parse(readFileSync(join(FIX, 'expected', '3.json'), 'utf8'));
  const r = await readAll(join(FIX, 'numpy2/3.pt'));
  assert.deepEqual(r.problems, []);
  assert.deepEqual(r.samples, expected.samples);
});

test('pt reader: summarising keeps counts of token and log-prob runs, not their values', async () => {
  const lines: string[] = [];
  await readPt(nodeFileAccess, join(FIX, 'run/rollout_data/1.pt'), { summarize: true, onSample: (s) => lines.push(stringify(toPlain(s, 'line'))) });
  const first = JSON.parse(lines[0]);
  // Token ids are ints (BININT): counted and summed. Python's sum of the ten ids torch.load gives.
  assert.deepEqual(first.tokens, { $numbers: 10, $sum: 955593 });
  assert.equal(first.reward, 1);
  assert.match(lines[0], /"reward": 1\.0/);
  assert.deepEqual(first.loss_mask, [1, 1, 1, 1]);
});

async function unpickle(bytes: Uint8Array, chunkSize?: number) {
  return new PickleMachine(memoryFile(bytes), 0, bytes.length, { chunkSize }).run();
}

test('pt reader: random values pickled by Python with protocols 0-5 read back equal', async () => {
  const cases: { protocol: number; pickle: string; expected: unknown }[] = JSON.parse(readFileSync(join(FIX, 'properties.json'), 'utf8'));
  assert.ok(cases.length >= 300);
  for (const [i, c] of cases.entries()) {
    const r = await unpickle(Buffer.from(c.pickle, 'hex'), i % 3 === 0 ? 5 : undefined);
    assert.deepEqual(r.problems, [], `case ${i} (protocol ${c.protocol})`);
    assert.deepEqual(canonical(r.value), c.expected, `case ${i} (protocol ${c.protocol})`);
  }
});

const HOSTILE: Record<string, RegExp> = {
  'system.pt': /calls posix\.system, which is not a data type: it was not run/,
  'eval.pt': /calls builtins\.eval, which is not a data type: it was not run/,
  'subprocess.pt': /calls subprocess\.call, which is not a data type: it was not run/,
  'truncated.pt': /no zip end-of-central-directory record/,
  'no-data-pkl.pt': /holds no <name>\/data\.pkl/,
  'huge-string.pt': /claims 2147483652 bytes but only \d+ remain/,
  'bad-memo.pt': /memo read of slot 7 .* never stored/,
  'deep.pt': /nested more than 1000 levels/,
  'deep-stack.pt': /nested more than 1000 levels/,
  'unknown-opcode.pt': /unknown pickle opcode 0xfe/,
  'protocol-6.pt': /pickle protocol 6 is not supported/,
  'no-stop.pt': /ends without STOP/,
  // test/reliability/ptTensors.test.ts has their values and CLI findings.
  'tensor-short-storage.pt': /the storage is shorter than it claims/,
  'tensor-huge-shape.pt': /its shape is absurd/,
  'tensor-out-of-range.pt': /the view is out of range/,
  'tensor-overlapping.pt': /is an overlapping view/,
};

for (const [name, message] of Object.entries(HOSTILE)) {
  test(`pt reader: hostile ${name} gives a clear problem and runs nothing`, async () => {
    const r = await readAll(join(FIX, 'hostile', name));
    assert.ok(
      r.problems.some((p) => message.test(p.message)),
      `${name}: ${JSON.stringify(r.problems)}`,
    );
    assert.equal(existsSync('/tmp/rollout-lens-pwned'), false);
  });
}

test('pt reader: a blocked callable leaves the other samples readable', async () => {
  const r = await readAll(join(FIX, 'hostile/system.pt'));
  assert.equal(r.samples.length, 4);
  assert.deepEqual((r.samples[1] as { metadata: unknown }).metadata, { exit_status: { $blocked: 'posix.system' } });
  assert.equal((r.samples[2] as { index: number }).index, 2);
});

test('pt reader: every hostile fixture is covered by a test above', () => {
  assert.deepEqual(readdirSync(join(FIX, 'hostile')).sort(), Object.keys(HOSTILE).sort());
});
