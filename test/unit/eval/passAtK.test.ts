import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computePassAtK, passAtKAssertion, passAtKEstimate, passAtKOfCounts, passKValues } from '../../../server/src/core/eval/passAtK';
import { npMean } from '../../../server/src/core/eval/numeric';
import { reference } from './records';

function comb(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

test('pass@k k values: 1, 2, 4, … ≤ n; none when n == 1', () => {
  assert.deepEqual(passKValues(1), []);
  assert.deepEqual(passKValues(2), [1, 2]);
  assert.deepEqual(passKValues(3), [1, 2]);
  assert.deepEqual(passKValues(4), [1, 2, 4]);
  assert.deepEqual(passKValues(12), [1, 2, 4, 8]);
  assert.deepEqual(computePassAtK([1, 0, 1], 1), { kind: 'metrics', values: {} });
});

test('pass@k estimator = 1 − C(n−c,k)/C(n,k), hand-computed cases', () => {
  // (n, c, k) → exact fraction by hand
  assert.equal(passAtKEstimate(4, 1, 2), 1 - 3 / 6); // 1 − C(3,2)/C(4,2) = 1/2
  assert.equal(passAtKEstimate(4, 2, 1), 0.5); // c/n
  assert.ok(Math.abs(passAtKEstimate(4, 2, 2) - 5 / 6) < 1e-15); // 1 − C(2,2)/C(4,2)
  assert.ok(Math.abs(passAtKEstimate(8, 3, 4) - 13 / 14) < 1e-15); // 1 − C(5,4)/C(8,4) = 1 − 5/70
  assert.ok(Math.abs(passAtKEstimate(16, 5, 8) - 77 / 78) < 1e-15); // 1 − C(11,8)/C(16,8) = 1 − 165/12870
  assert.equal(passAtKEstimate(5, 2, 4), 1.0); // n − c = 3 < 4
  assert.equal(passAtKEstimate(4, 0, 2), 0.0); // no correct attempt
  for (let n = 1; n <= 16; n++) {
    for (let c = 0; c <= n; c++) {
      for (const k of passKValues(n)) {
        const exact = 1 - comb(n - c, k) / comb(n, k);
        assert.ok(Math.abs(passAtKEstimate(n, c, k) - exact) < 1e-12, `n=${n} c=${c} k=${k}`);
      }
    }
  }
});

test("pass@k estimator equals numpy's 1 − prod(1 − k/arange(n−c+1, n+1)) bit for bit", () => {
  const ref = reference<{ passK: { n: number; c: number; k: number; value: number }[] }>('numpy');
  assert.ok(ref.passK.length > 100);
  for (const r of ref.passK) assert.equal(passAtKEstimate(r.n, r.c, r.k), r.value, `n=${r.n} c=${r.c} k=${r.k}`);
});

test("count ≠ groups × n → miles' exact assertion; num_groups = len // group_size (8 // 3 = 2)", () => {
  assert.equal(passAtKAssertion(8, 3), 'AssertionError: len(flat_rewards)=8 num_groups=2 group_size=3');
  assert.equal(passAtKAssertion(7, 4), 'AssertionError: len(flat_rewards)=7 num_groups=1 group_size=4');
  assert.equal(passAtKAssertion(2, 3), 'AssertionError: len(flat_rewards)=2 num_groups=0 group_size=3');
  assert.equal(passAtKAssertion(8, 4), null);
  assert.deepEqual(computePassAtK([1, 0, 0, 1, 0, 0, 0, 1], 3), { kind: 'crash', crash: 'AssertionError: len(flat_rewards)=8 num_groups=2 group_size=3' });
});

test('c counts rewards exactly 1 (0.99 and 1.5 are not correct)', () => {
  const r = computePassAtK([1, 0.99, 1.5, 0], 4);
  assert.equal(r.kind, 'metrics');
  if (r.kind === 'metrics') assert.equal(r.values['pass@1'], 0.25);
});

test('pass@k from counts: each group estimated from its own count for each k (estimates kept per count, per k)', () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (const [groups, size] of [
    [1, 1000],
    [3, 64],
    [50, 8],
    [200, 5],
  ]) {
    // Few distinct counts, repeated: a count's estimate for one k must not serve another k.
    const correct = Int32Array.from({ length: groups }, () => Math.floor(next() * Math.min(size + 1, 4)) * Math.floor(size / 3));
    const direct: Record<string, number> = {};
    for (const k of passKValues(size)) direct[`pass@${k}`] = npMean(Float64Array.from(correct, (c) => passAtKEstimate(size, c, k)));
    assert.deepEqual(passAtKOfCounts(correct, size), direct, `${groups} groups of ${size}`);
  }
});
