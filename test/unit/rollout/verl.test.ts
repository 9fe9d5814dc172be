import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeRollout } from '../../../server/src/core/rollout/analyze';
import { codes, FILE, group, inFileOrder, sample, settings } from './helpers';

// verl marks a failed sample by an empty output (the reader sets aborted), but never drops its group.
const verlAborted = (key: string, index: number) => sample(key, index, { status: null, aborted: true, reward: 0, responseLength: 0, cause: null });

test('verl has no aborted-group filter: empty outputs drop no group and count no group_has_aborted metric', () => {
  const samples = inFileOrder([...group('uid-a', [1, 0]), verlAborted('uid-a', 2), ...group('uid-b', [1, 1, 1])]);
  const r = analyzeRollout(FILE, 'verl-rollout', samples, settings({ dynamicFilter: 'check_reward_nonzero_std' }));
  assert.deepEqual(r.metrics, {});
  assert.deepEqual(r.counts, { total: 2, kept: 2, dropped: 0 });
  assert.ok(r.groups.every((g) => g.kept && g.reason === null && g.metric === null));
  assert.equal(codes(r, 'group-dropped').length, 0);
  assert.equal(codes(r, 'zero-std-group').length, 0, 'check_reward_nonzero_std is a miles filter');
  assert.equal(codes(r, 'abort-cause-unknown').length, 0, 'verl records no causes');
});

test('the same samples as miles-sample are dropped: the verl exemption is by format', () => {
  const samples = inFileOrder([...group('uid-a', [1, 0]), verlAborted('uid-a', 2)]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  assert.deepEqual(r.metrics, { 'rollout/dynamic_filter/drop_group_has_aborted_unknown': 1 });
});

test('verl groups still get the shape checks (incomplete-group, misgrouped)', () => {
  const samples = inFileOrder([...group('uid-a', [1, 0, 1]), ...group('uid-b', [1, 0]).map((s) => ({ ...s, promptKey: 'prompt-uid-a' }))]);
  const r = analyzeRollout(FILE, 'verl-rollout', samples, settings({ nSamplesPerPrompt: 3 }));
  assert.deepEqual(
    r.findings.map((f) => [f.code, f.line]),
    [
      ['incomplete-group', 4],
      ['misgrouped', 4],
    ],
  );
  assert.deepEqual(
    r.groups.map((g) => [g.key, g.lines.length]),
    [
      ['uid-a', 3],
      ['uid-b', 2],
    ],
  );
});
