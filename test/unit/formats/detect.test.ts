import { test } from 'node:test';
import assert from 'node:assert/strict';

import { copyFixture, fixture, scanPath, tempDir, writeLines } from './helpers';

const CASES: [string, string, string][] = [
  ['miles-sample.jsonl', 'miles-sample', 'rollout'],
  ['eval_20.jsonl', 'miles-trajectory', 'eval'],
  ['trajectory-20.jsonl', 'miles-trajectory', 'rollout'],
  ['trials.jsonl', 'miles-eval-trials', 'eval'],
  ['metrics.jsonl', 'miles-metrics', 'metrics'],
  ['verl-rollout.jsonl', 'verl-rollout', 'rollout'],
  ['verl-legacy.jsonl', 'verl-rollout', 'rollout'],
  ['verl-validation.jsonl', 'verl-validation', 'eval'],
];

for (const [name, format, kind] of CASES) {
  test(`detect (docs/semantics.md#formats): ${name} is ${format}, kind ${kind}`, async () => {
    const s = await scanPath(fixture(name));
    assert.equal(s.format, format);
    assert.equal(s.kind, kind);
    assert.deepEqual(
      s.findings.filter((f) => f.code === 'unknown-format'),
      [],
    );
  });
}

test('detect: miles samples carrying a dataset name are eval samples', async (t) => {
  const dir = tempDir(t);
  const p = writeLines(dir, 'samples.jsonl', [
    '{"group_index": null, "index": 0, "prompt": "p", "response": "r", "response_length": 1, "reward": 1.0, "status": "completed", "metadata": {"dataset_name": "aime"}}',
  ]);
  assert.deepEqual([(await scanPath(p)).format, (await scanPath(p)).kind], ['miles-sample', 'eval']);
});

test('detect: miles samples in eval_<step>.jsonl or an eval/ folder are eval samples', async (t) => {
  const dir = tempDir(t);
  for (const rel of ['eval_3.jsonl', 'eval/3.jsonl', 'evals/rollout_3.jsonl']) {
    const s = await scanPath(copyFixture(dir, 'miles-sample.jsonl', rel));
    assert.equal(s.kind, 'eval', rel);
  }
  const train = await scanPath(copyFixture(dir, 'miles-sample.jsonl', 'rollout/evaluate_me_not.jsonl'));
  assert.equal(train.kind, 'rollout');
});

test('detect: verl dumps in a val/ or validation_data/ folder are validation dumps', async (t) => {
  const dir = tempDir(t);
  const s = await scanPath(copyFixture(dir, 'verl-legacy.jsonl', 'validation_data/100.jsonl'));
  assert.deepEqual([s.format, s.kind], ['verl-validation', 'eval']);
});

test('detect: settings.framework narrows detection (verl file read as miles → unknown)', async () => {
  const s = await scanPath(fixture('verl-rollout.jsonl'), { framework: 'miles' });
  assert.equal(s.format, 'unknown');
  assert.equal(s.findings[0].code, 'unknown-format');
  const v = await scanPath(fixture('miles-sample.jsonl'), { framework: 'verl' });
  assert.equal(v.format, 'unknown');
  assert.equal((await scanPath(fixture('verl-rollout.jsonl'), { framework: 'verl' })).format, 'verl-rollout');
});

test('detect: generic when settings.fields maps a group key the records have', async () => {
  const s = await scanPath(fixture('generic.jsonl'), { fields: { groupKey: '/meta/group', dataset: '/meta/ds' } });
  assert.deepEqual([s.format, s.kind], ['generic', 'eval']);
  const r = await scanPath(fixture('generic.jsonl'), { fields: { groupKey: '/meta/group' } });
  assert.deepEqual([r.format, r.kind], ['generic', 'rollout']);
});

test('detect: no known format → unknown-format warning at line 1, records still counted', async () => {
  const s = await scanPath(fixture('generic.jsonl'));
  assert.equal(s.format, 'unknown');
  assert.equal(s.kind, 'unknown');
  assert.equal(s.records, 2);
  const f = s.findings.find((x) => x.code === 'unknown-format');
  assert.ok(f);
  assert.equal(f.severity, 'warning');
  assert.equal(f.line, 1);
  assert.match(f.message, /^unknown log format: no known log format matched its first records/);
});

test('detect: an empty file is unknown with a clear message', async (t) => {
  const p = writeLines(tempDir(t), 'empty.jsonl', []);
  const s = await scanPath(p);
  assert.equal(s.format, 'unknown');
  assert.match(s.findings[0].message, /the file holds no records/);
});

test('detect: the first VALID record decides; invalid lines before it do not', async (t) => {
  const p = writeLines(tempDir(t), 'x.jsonl', ['not json', '[1, 2]', '{"instance_id": "a", "trial_idx": 0, "status_code": 0, "reward": 1}']);
  const s = await scanPath(p);
  assert.equal(s.format, 'miles-eval-trials');
  assert.equal(s.invalidLines, 2);
  assert.deepEqual(
    s.findings.map((f) => [f.code, f.line]),
    [
      ['invalid-json', 1],
      ['invalid-record', 2],
    ],
  );
  assert.match(s.findings[1].message, /a line must be a JSON object, got an array/);
});

test('detect: a gzip file, a zip that is no torch.save dump and a pickle are named as such in one unknown-format finding (a .pt is read: test/unit/pt)', async (t) => {
  const dir = tempDir(t);
  const { writeFileSync } = await import('node:fs');
  const { gzipSync } = await import('node:zlib');
  const { join } = await import('node:path');
  const cases: [string, Uint8Array, RegExp][] = [
    ['log.jsonl.gz', gzipSync(Buffer.from('{"a": 1}\n'.repeat(2000))), /this is a gzip-compressed file/],
    [
      'archive.zip',
      Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(3000, 7), Buffer.from('\n\n\n')]),
      /a zip archive \(a PyTorch `\.pt` checkpoint is one\)/,
    ],
    ['obj.pkl', Buffer.from([0x80, 0x04, 0x95, 0x10, 0x0a, 0x00, 0x0a]), /a Python pickle/],
    ['nul.jsonl', Buffer.from('{"a":\u0000 1}\n{"b": 2}\n'), /a binary file \(it contains NUL bytes\)/],
  ];
  for (const [name, bytes, what] of cases) {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    const s = await scanPath(path);
    assert.deepEqual(
      s.findings.map((f) => f.code),
      ['unknown-format'],
      name,
    );
    assert.match(s.findings[0].message, what, name);
  }
});
