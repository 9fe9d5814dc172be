// slime 624b824's _post_process_rewards shape on fanned-out steps (rollout/slimeNormalization.ts); the
// whole-step baseline against slime's own output is in test/unit/eval/realSlimeFanOut.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SampleStore } from '../../../server/src/core/store/sampleStore';
import { compactSummary } from '../../../server/src/core/rollout/compactRollouts';
import { slimeCompactMessage, slimeNormalization } from '../../../server/src/core/rollout/slimeNormalization';
import { inFileOrder, sample } from './helpers';

/** Groups of rollouts; each rollout is its samples' rewards (siblings share rollout_id = index). */
function step(groups: number[][][]) {
  let index = 0;
  const records = groups.flatMap((rollouts, g) =>
    rollouts.flatMap((rewards) => {
      const i = index++;
      return rewards.map((r) => sample(String(g), i, { reward: r, rolloutId: rewards.length > 1 ? i : null }));
    }),
  );
  const store = SampleStore.of(inFileOrder(records));
  const fanned = compactSummary(store, 2);
  assert.ok(fanned !== null);
  return { norm: slimeNormalization(store, fanned), fanned };
}

test('more samples than n × groups: the whole step is one row, its mean and unbiased std', () => {
  const { norm, fanned } = step([
    [[1, 1], [0]],
    [[1], [1]],
  ]);
  assert.deepEqual(norm, { samples: 5, groups: 2, n: 2, rows: 'whole', whole: { mean: 0.8, std: Math.sqrt(0.2) } });
  assert.match(
    slimeCompactMessage(fanned, norm, 'slime 624b824'),
    /this step holds 5 \(2 groups × 2 = 4\)\. So GRPO's baseline is the whole step as one row: mean 0\.8 over its 5 samples/,
  );
});

test('exactly n × groups samples whose rows of n cross groups: mixed rows', () => {
  // Group 0 holds 3 samples (a rollout of 2), group 1 one rollout of 1 sample and one of 0 written: 4 = 2 × 2.
  const { norm, fanned } = step([[[1, 0], [1]], [[0]]]);
  assert.equal(norm?.rows, 'mixed');
  assert.match(slimeCompactMessage(fanned, norm, 'slime 624b824'), /cut into rows of 2 in the order written/);
});

test('a missing reward: the whole step is named, no figure', () => {
  const { norm, fanned } = step([
    [[1, 1], [null as unknown as number]],
    [[1], [0]],
  ]);
  assert.equal(norm?.rows, 'whole');
  assert.equal(norm?.whole, null);
  assert.match(slimeCompactMessage(fanned, norm, 'slime 624b824'), /baseline is the whole step as one row, not each group's/);
});

test('exactly n × groups samples whose rows of n are the groups: normalised per group, nothing more said', () => {
  const { norm, fanned } = step([[[1, 0]], [[1], [0]]]);
  assert.equal(norm?.rows, 'groups');
  assert.ok(slimeCompactMessage(fanned, norm, 'slime 624b824').endsWith('trains on every sample, one reward each.'));
});
