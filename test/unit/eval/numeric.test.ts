import { test } from 'node:test';
import assert from 'node:assert/strict';
import { npMean, npStd, npSum, pySum, relativeDifference } from '../../../server/src/core/eval/numeric';
import { reference } from './records';

interface PySumRef {
  python: string;
  pySum: { values: number[]; isInt: boolean[]; sum: number }[];
}
interface NumpyRef {
  npMean: { values: number[]; mean: number; std: number }[];
}

test('eval/<ds> = sum(rewards)/len: pySum equals CPython 3.12 sum() bit for bit (ints exact, floats Neumaier)', () => {
  const ref = reference<PySumRef>('pysum');
  assert.ok(ref.python.startsWith('3.1') && Number(ref.python.split('.')[1]) >= 12);
  for (const c of ref.pySum) {
    assert.equal(pySum(c.values, c.isInt), c.sum, JSON.stringify(c.values));
    // As the eval analysis passes them: a Float64Array and the int flags as 0/1 bytes.
    assert.equal(pySum(Float64Array.from(c.values), Uint8Array.from(c.isInt, Number)), c.sum, `typed: ${JSON.stringify(c.values)}`);
  }
});

test('pySum: compensated, not naive (sum([0.1]*10) == 1.0 on Python 3.12)', () => {
  const tenth = Array(10).fill(0.1);
  assert.equal(pySum(tenth), 1.0);
  assert.notEqual(
    tenth.reduce((a, b) => a + b, 0),
    1.0,
  );
  assert.equal(pySum([1e16, 1.0, -1e16]), 1.0);
});

test('pass@k mean over groups: npMean/npStd equal numpy (pairwise summation) bit for bit', () => {
  const ref = reference<NumpyRef>('numpy');
  for (const c of ref.npMean) {
    assert.equal(npMean(c.values), c.mean, `n=${c.values.length}`);
    assert.equal(npStd(c.values), c.std, `std n=${c.values.length}`);
  }
  // Pairwise differs from a left-to-right sum for long arrays: the reference must catch that.
  const long = ref.npMean.find((c) => c.values.length === 1000)!;
  assert.equal(npSum(long.values) / 1000, long.mean);
});

test('relative difference: NaN equals NaN, infinities differ from finite values', () => {
  assert.equal(relativeDifference(NaN, NaN), 0);
  assert.equal(relativeDifference(1, 1 + 1e-10) < 1e-9, true);
  assert.equal(relativeDifference(Infinity, 1), Infinity);
  assert.equal(relativeDifference(0, 0), 0);
});
