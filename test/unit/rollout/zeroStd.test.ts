import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeRollout } from '../../../server/src/core/rollout/analyze';
import { unbiasedStd } from '../../../server/src/core/rollout/filters';
import { codes, FILE, group, inFileOrder, sample, settings, ZERO_STD } from './helpers';
import { SampleStore } from '../../../server/src/core/store/sampleStore';
import type { SampleRecord } from '../../../server/src/core/vocabulary/types';

function dropOf(samples: SampleRecord[]): Record<string, number> {
  return analyzeRollout(FILE, 'miles-sample', inFileOrder(samples), ZERO_STD).metrics;
}

test('a zero-std group of 0.0 is dropped as zero_std_0.0', () => {
  assert.deepEqual(dropOf(group('1', [0, 0, 0, 0])), { 'rollout/dynamic_filter/drop_zero_std_0.0': 1 });
});

test('a zero-std group of 1.0 is dropped as zero_std_1.0, with its finding on the first sample', () => {
  const r = analyzeRollout(FILE, 'miles-sample', inFileOrder([...group('1', [1, 1, 1, 1]), ...group('2', [1, 0, 1, 1])]), ZERO_STD);
  assert.deepEqual(r.metrics, { 'rollout/dynamic_filter/drop_zero_std_1.0': 1 });
  assert.deepEqual(r.counts, { total: 2, kept: 1, dropped: 1 });
  assert.deepEqual(r.groups[0], {
    key: '1',
    lines: [1, 2, 3, 4],
    kept: false,
    reason: 'zero_std_1.0',
    metric: 'rollout/dynamic_filter/drop_zero_std_1.0',
  });
  const [f] = codes(r, 'zero-std-group');
  assert.equal(f.severity, 'information');
  assert.equal(f.line, 1);
  assert.equal(f.group, '1');
  assert.deepEqual(
    f.related?.map((l) => l.line),
    [2, 3, 4],
  );
  assert.ok(f.message.startsWith("group dropped: zero_std_1.0 — group 1's 4 rewards [1.0, 1.0, 1.0, 1.0] have unbiased std 0.0 ≤ 1e-8"), f.message);
  assert.match(f.message, /Counted in rollout\/dynamic_filter\/drop_zero_std_1\.0\./);
});

test('a zero-std message shows the first 8 rewards of a larger group, then an ellipsis', () => {
  const r = analyzeRollout(
    FILE,
    'miles-sample',
    inFileOrder(
      group(
        '1',
        Array.from({ length: 9 }, () => 0),
        0,
        true,
      ),
    ),
    ZERO_STD,
  );
  const [f] = codes(r, 'zero-std-group');
  assert.ok(f.message.startsWith("group dropped: zero_std_0 — group 1's 9 rewards [0, 0, 0, 0, 0, 0, 0, 0, …] have unbiased std 0.0 ≤ 1e-8"), f.message);
});

test('the reason rounds half-to-even on the exact binary value: 0.25 → zero_std_0.2', () => {
  assert.deepEqual(dropOf(group('1', [0.25, 0.25])), { 'rollout/dynamic_filter/drop_zero_std_0.2': 1 });
});

test('0.35 is stored below the tie, so Python gives 0.3 (not 0.4); 0.45 is stored above it: 0.5', () => {
  assert.deepEqual(dropOf(group('1', [0.35, 0.35])), { 'rollout/dynamic_filter/drop_zero_std_0.3': 1 });
  assert.deepEqual(dropOf(group('1', [0.45, 0.45])), { 'rollout/dynamic_filter/drop_zero_std_0.5': 1 });
});

test('an int reward stays an int: 1 → zero_std_1, 0 → zero_std_0', () => {
  assert.deepEqual(dropOf(group('1', [1, 1, 1], 0, true)), { 'rollout/dynamic_filter/drop_zero_std_1': 1 });
  assert.deepEqual(dropOf(group('1', [0, 0], 0, true)), { 'rollout/dynamic_filter/drop_zero_std_0': 1 });
});

test('0.5 gives zero_std_0.5, and -0.0 prints as Python does: zero_std_-0.0', () => {
  assert.deepEqual(dropOf(group('1', [0.5, 0.5])), { 'rollout/dynamic_filter/drop_zero_std_0.5': 1 });
  assert.deepEqual(dropOf(group('1', [-0, -0])), { 'rollout/dynamic_filter/drop_zero_std_-0.0': 1 });
});

test('the reason comes from the FIRST reward in group order, not line order', () => {
  // round(0.04999999999, 1) = 0.0 but round(0.05, 1) = 0.1; the two differ by 1e-11 (std < 1e-8).
  const first = sample('1', 0, { reward: 0.04999999999 });
  const second = sample('1', 1, { reward: 0.05 });
  assert.deepEqual(dropOf([second, first]), { 'rollout/dynamic_filter/drop_zero_std_0.0': 1 });
  assert.deepEqual(dropOf([first, second]), { 'rollout/dynamic_filter/drop_zero_std_0.0': 1 });
});

test('the first reward keeps its own type: int 1 first, then 1.0 → zero_std_1', () => {
  const samples = [sample('1', 0, { reward: 1, rewardIsInt: true }), sample('1', 1, { reward: 1, rewardIsInt: false })];
  assert.deepEqual(dropOf(samples), { 'rollout/dynamic_filter/drop_zero_std_1': 1 });
});

test('keep iff unbiased std > 1e-8: std ≈ 7.1e-10 is dropped, std ≈ 7.1e-8 is kept', () => {
  assert.deepEqual(dropOf(group('1', [1, 1 + 1e-9])), { 'rollout/dynamic_filter/drop_zero_std_1.0': 1 });
  assert.deepEqual(dropOf(group('1', [0, 1e-7])), {});
});

test('the filter uses the unbiased std: [0, 1.5e-8] has n−1 std 1.06e-8 (kept) but population std 7.5e-9', () => {
  assert.deepEqual(dropOf(group('1', [0, 1.5e-8])), {});
  assert.deepEqual(dropOf(group('1', [0, 1.4e-8])), { 'rollout/dynamic_filter/drop_zero_std_0.0': 1 });
});

test('the std is the unbiased (n−1) one, in float64', () => {
  assert.equal(unbiasedStd([0, 1]), Math.SQRT1_2); // population std would be 0.5
  assert.equal(unbiasedStd([1, 1, 1]), 0);
  assert.ok(Number.isNaN(unbiasedStd([1])));
  assert.ok(Number.isNaN(unbiasedStd([Infinity, Infinity])));
  assert.ok(Number.isNaN(unbiasedStd([1, NaN])));
  // Equal values whose naive mean is inexact still give exactly 0.
  assert.equal(unbiasedStd([0.1, 0.1, 0.1]), 0);
});

test('a one-sample group has NaN std and is dropped', () => {
  const r = analyzeRollout(FILE, 'miles-sample', inFileOrder([sample('9', 0, { reward: 0.7 })]), ZERO_STD);
  assert.deepEqual(r.metrics, { 'rollout/dynamic_filter/drop_zero_std_0.7': 1 });
  const [f] = codes(r, 'zero-std-group');
  assert.ok(f.message.startsWith('group dropped: zero_std_0.7 — group 9 has a single sample: its unbiased std is NaN (n−1 = 0)'), f.message);
  assert.equal(f.related, undefined, 'no other members to relate');
});

test('NaN rewards: all NaN → zero_std_nan; one NaN makes the std NaN, so the group drops by its first reward', () => {
  assert.deepEqual(dropOf(group('1', [NaN, NaN])), { 'rollout/dynamic_filter/drop_zero_std_nan': 1 });
  assert.deepEqual(dropOf(group('1', [1, NaN, 0])), { 'rollout/dynamic_filter/drop_zero_std_1.0': 1 });
  const r = analyzeRollout(FILE, 'miles-sample', inFileOrder(group('1', [NaN, 1])), ZERO_STD);
  assert.match(codes(r, 'zero-std-group')[0].message, /^group dropped: zero_std_nan — the std of group 1's rewards \[nan, 1\.0\] is NaN/);
});

test('infinite rewards: zero_std_inf and zero_std_-inf', () => {
  assert.deepEqual(dropOf(group('1', [Infinity, Infinity])), { 'rollout/dynamic_filter/drop_zero_std_inf': 1 });
  assert.deepEqual(dropOf(group('1', [-Infinity, 2])), { 'rollout/dynamic_filter/drop_zero_std_-inf': 1 });
});

test('a group holding a null reward is never zero-std (miles would raise on torch.tensor(None))', () => {
  const samples = [sample('1', 0, { reward: null }), sample('1', 1, { reward: null })];
  const r = analyzeRollout(FILE, 'miles-sample', inFileOrder(samples), ZERO_STD);
  assert.deepEqual(r.metrics, {});
  assert.deepEqual(r.counts, { total: 1, kept: 1, dropped: 0 });
  assert.deepEqual(dropOf([sample('1', 0, { reward: 1 }), sample('1', 1, { reward: null })]), {});
});

test('the dynamic filter runs only when configured', () => {
  const samples = inFileOrder([...group('1', [1, 1]), sample('2', 0)]);
  const off = analyzeRollout(FILE, 'miles-sample', samples, settings());
  assert.deepEqual(off.metrics, {});
  assert.deepEqual(off.counts, { total: 2, kept: 2, dropped: 0 });
  assert.equal(codes(off, 'zero-std-group').length, 0);
  const on = analyzeRollout(FILE, 'miles-sample', samples, ZERO_STD);
  assert.deepEqual(on.metrics, { 'rollout/dynamic_filter/drop_zero_std_1.0': 2 });
});

test('groups with spread rewards are kept', () => {
  const r = analyzeRollout(FILE, 'miles-sample', inFileOrder([...group('1', [0, 1, 0, 0]), ...group('2', [0.3, 0.7])]), ZERO_STD);
  assert.deepEqual(r.metrics, {});
  assert.deepEqual(r.counts, { total: 2, kept: 2, dropped: 0 });
});

test('bool rewards (miles main 31f1ca9: round(True, 1) is 1): zero_std_1, listed as Python prints them, from records and the store', () => {
  const bools = (key: string, values: boolean[]): SampleRecord[] =>
    values.map((v, i) => sample(key, i, { reward: v ? 1 : 0, rewardIsInt: true, rewardIsBool: true }));
  const records = inFileOrder([...bools('1', [true, true, true]), ...bools('2', [false, false]), ...bools('3', [true, false])]);
  for (const samples of [records, SampleStore.of(records)]) {
    const r = analyzeRollout(FILE, 'miles-sample', samples, ZERO_STD);
    assert.deepEqual(r.metrics, { 'rollout/dynamic_filter/drop_zero_std_1': 1, 'rollout/dynamic_filter/drop_zero_std_0': 1 });
    const [one, zero] = codes(r, 'zero-std-group');
    assert.ok(one.message.startsWith("group dropped: zero_std_1 — group 1's 3 rewards [True, True, True] have unbiased std 0.0 ≤ 1e-8"), one.message);
    assert.ok(zero.message.startsWith("group dropped: zero_std_0 — group 2's 2 rewards [False, False] have unbiased std 0.0 ≤ 1e-8"), zero.message);
  }
});
