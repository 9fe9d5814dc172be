// The paired bootstrap: seeded and deterministic, paired (the same draw on both sides), and its
// interval covers the difference it estimates.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { pairedBootstrap, type PairedItem, seededRandom } from '../../../server/src/core/compare/bootstrap';

/** 40 prompts: the candidate's value is the baseline's plus `shift`, plus a prompt-specific wobble. */
function items(shift: number): PairedItem[] {
  const random = seededRandom(99);
  return Array.from({ length: 40 }, (_, i) => {
    const b = random();
    return { baseline: [b, 1], candidate: [b + shift + (i % 2 === 0 ? 0.05 : -0.05), 1] };
  });
}

test('bootstrap: the same seed and label give the same interval; another seed or label another', () => {
  const data = items(0.01);
  const a = pairedBootstrap(data, 1, 'aime/pass@1');
  assert.deepEqual(pairedBootstrap(data, 1, 'aime/pass@1'), a);
  assert.notDeepEqual(pairedBootstrap(data, 2, 'aime/pass@1'), a);
  assert.notDeepEqual(pairedBootstrap(data, 1, 'aime/pass@2'), a);
  // mulberry32's published stream: seed 1 starts 0.6270739405881613, 0.002735721180215478.
  const random = seededRandom(1);
  assert.deepEqual([random(), random()], [0.6270739405881613, 0.002735721180215478]);
});

test('bootstrap: pairing cancels what both sides share; the interval covers the shift and excludes 0 only for a real one', () => {
  const [lo, hi] = pairedBootstrap(items(-0.2), 0, 'd')!;
  assert.ok(lo <= -0.2 && -0.2 <= hi && hi < 0, `${lo}, ${hi}`);
  // The wobble alone (±0.05, mean 0): the interval holds 0.
  const [lo0, hi0] = pairedBootstrap(items(0), 0, 'd')!;
  assert.ok(lo0 < 0 && hi0 > 0, `${lo0}, ${hi0}`);
  // Unpaired, a spread of ±0.5 across prompts would swamp 0.2; paired, it does not.
  assert.ok(hi - lo < 0.1, `width ${hi - lo}`);
});

test('bootstrap: no item counted on both sides gives no interval; ratios resample by their denominators', () => {
  assert.equal(pairedBootstrap([], 0, 'd'), null);
  assert.equal(pairedBootstrap([{ baseline: [1, 1], candidate: [0, 0] }], 0, 'd'), null);
  // Every prompt 3/4 → 1/4 over 4 samples: every resample gives −0.5 exactly.
  const same: PairedItem[] = Array.from({ length: 5 }, () => ({ baseline: [3, 4], candidate: [1, 4] }));
  assert.deepEqual(pairedBootstrap(same, 0, 'd'), [-0.5, -0.5]);
});
