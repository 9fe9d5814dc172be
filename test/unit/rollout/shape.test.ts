import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeRollout } from '../../../server/src/core/rollout/analyze';
import { codes, FILE, group, inFileOrder, sample, settings } from './helpers';

test('incomplete-group: with n_samples_per_prompt known, a group of another size', () => {
  const samples = inFileOrder([...group('1', [1, 0, 1, 0]), ...group('2', [1, 0, 1]), ...group('3', [1, 0, 1, 0, 1])]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings({ nSamplesPerPrompt: 4 }));
  const found = codes(r, 'incomplete-group');
  assert.deepEqual(
    found.map((f) => [f.line, f.group]),
    [
      [5, '2'],
      [8, '3'],
    ],
  );
  assert.equal(found[0].severity, 'warning');
  assert.ok(
    found[0].message.startsWith("group 2 has 3 samples, expected n_samples_per_prompt = 4 — miles main (31f1ca9)'s sync rollout asserts"),
    found[0].message,
  );
  assert.deepEqual(found[0].related, [
    { file: FILE, line: 6 },
    { file: FILE, line: 7 },
  ]);
  assert.deepEqual(r.counts, { total: 3, kept: 3, dropped: 0 }, 'the shape check does not drop');
});

test('incomplete-group only when n_samples_per_prompt is known', () => {
  const samples = inFileOrder([...group('1', [1, 0, 1, 0]), ...group('2', [1, 0, 1])]);
  assert.equal(codes(analyzeRollout(FILE, 'miles-sample', samples, settings()), 'incomplete-group').length, 0);
});

test('misgrouped: one group holds different prompts', () => {
  const samples = inFileOrder([
    sample('1', 0, { promptKey: 'A' }),
    sample('1', 1, { promptKey: 'A' }),
    sample('1', 2, { promptKey: 'B' }),
    sample('1', 3, { promptKey: 'A' }),
  ]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  const [f] = codes(r, 'misgrouped');
  assert.equal(codes(r, 'misgrouped').length, 1, 'once per group');
  assert.equal(f.line, 3, 'at the first member whose prompt differs');
  assert.equal(f.severity, 'warning');
  assert.ok(f.message.startsWith('misgrouped: group 1 holds 2 different prompts — '), f.message);
  assert.deepEqual(
    f.related?.map((l) => l.line),
    [1, 2, 4],
  );
});

test('misgrouped: every distinct prompt of the group is counted, the first member’s too, samples without one not', () => {
  const samples = inFileOrder([
    sample('1', 0, { promptKey: 'A' }),
    sample('1', 1, { promptKey: null }),
    sample('1', 2, { promptKey: 'B' }),
    sample('1', 3, { promptKey: 'C' }),
    sample('1', 4, { promptKey: 'B' }),
  ]);
  const [f] = codes(analyzeRollout(FILE, 'miles-sample', samples, settings()), 'misgrouped');
  assert.equal(f.line, 3, 'a sample without a prompt is not the odd one');
  assert.ok(f.message.startsWith('misgrouped: group 1 holds 3 different prompts — '), f.message);
});

test('misgrouped: one prompt spread over several groups', () => {
  const samples = inFileOrder([
    ...group('1', [1, 0]).map((s) => ({ ...s, promptKey: 'P' })),
    ...group('2', [1, 0]).map((s) => ({ ...s, promptKey: 'Q' })),
    ...group('3', [1, 0]).map((s) => ({ ...s, promptKey: 'P' })),
  ]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  const found = codes(r, 'misgrouped');
  assert.equal(found.length, 1, 'once per prompt');
  assert.equal(found[0].line, 5, "at the prompt's first sample in its second group");
  assert.equal(found[0].group, '3');
  assert.ok(found[0].message.startsWith('misgrouped: one prompt is spread over 2 groups (1, 3) — '), found[0].message);
  assert.deepEqual(found[0].related, [{ file: FILE, line: 1 }]);
});

test('samples without a prompt identity are not misgrouped', () => {
  const samples = inFileOrder([sample('1', 0, { promptKey: null }), sample('1', 1, { promptKey: 'A' }), sample('2', 0, { promptKey: null })]);
  assert.equal(codes(analyzeRollout(FILE, 'miles-sample', samples, settings()), 'misgrouped').length, 0);
});

test('well-formed groups raise no shape finding', () => {
  const samples = inFileOrder([...group('1', [1, 0]), ...group('2', [0, 1])]);
  assert.deepEqual(analyzeRollout(FILE, 'miles-sample', samples, settings({ nSamplesPerPrompt: 2 })).findings, []);
});

test('samples without a group key form no group (no invented one-sample zero-std drops), but their causes are judged', () => {
  const samples = inFileOrder([
    sample(null, 0, { reward: 1 }),
    sample(null, 1, { cause: 'ServerUnreachable', reward: 0 }),
    sample(null, 2, { status: 'aborted', aborted: true, reward: null }),
  ]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings({ dynamicFilter: 'check_reward_nonzero_std', nSamplesPerPrompt: 4 }));
  assert.deepEqual(r.counts, { total: 0, kept: 0, dropped: 0 });
  assert.deepEqual(r.metrics, {});
  assert.deepEqual(
    r.findings.map((f) => f.code),
    ['infra-failure-scored', 'abort-cause-unknown'],
  );
  assert.match(r.findings[1].message, /no group key/);
});

test('group outcomes are listed in file order of their first member, and findings in line order', () => {
  const samples = inFileOrder([sample('10', 0), sample('2', 0), sample('10', 1), sample('2', 1)]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  assert.deepEqual(
    r.groups.map((g) => [g.key, g.lines]),
    [
      ['10', [1, 3]],
      ['2', [2, 4]],
    ],
  );
});
