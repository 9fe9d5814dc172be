// miles' `_normalize_rewards_by_rollout` re-run (core/rollout/rewardNormalization.ts): the quick
// gate that skips the walk when nothing can raise must never skip a step that raises. Random steps
// (rewards with None, NaN and repeats; groups interleaved or missing; indexes repeated, out of order
// or absent; rollout ids shared) give the same answer with the gate as the reference walk alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { completedStore as storeOf } from '../../shared/completedStore';
import { normalizationCrashOf, normalizationMayRaise, rewardNormalizationCrash } from '../../../server/src/core/rollout/rewardNormalization';

interface Row {
  group: number | null;
  index: number | null;
  rolloutId: number | null;
  reward: number | null;
  excluded: boolean;
}

const row: fc.Arbitrary<Row> = fc.record({
  group: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 8 }),
  index: fc.option(fc.integer({ min: 0, max: 12 }), { freq: 6 }),
  rolloutId: fc.option(fc.integer({ min: 0, max: 5 }), { freq: 2 }),
  reward: fc.option(fc.constantFrom(0, 1, 0.5, Number.NaN, -0), { freq: 12 }),
  excluded: fc.boolean(),
});

test('the gate skips the walk only where the walk finds nothing (random steps)', () => {
  let raised = 0;
  fc.assert(
    fc.property(fc.array(row, { minLength: 0, maxLength: 24 }), fc.boolean(), (rows, idsNameRollouts) => {
      const store = storeOf(rows);
      const excluded = (i: number) => rows[i].excluded;
      const reference = normalizationCrashOf(store, excluded, idsNameRollouts);
      if (reference !== null) raised++;
      assert.deepEqual(rewardNormalizationCrash(store, excluded, idsNameRollouts), reference);
    }),
    { numRuns: 3000, seed: 11 },
  );
  assert.ok(raised > 300, `the cases raise often enough to test the gate (${raised})`);
});

test('a step of plain groups with rising indexes and numeric rewards raises nothing, and a repeated index with another reward does', () => {
  const plain: Row[] = [];
  for (let g = 0; g < 4; g++) for (let j = 0; j < 4; j++) plain.push({ group: g, index: g * 4 + j, rolloutId: null, reward: j % 2, excluded: false });
  assert.equal(
    rewardNormalizationCrash(storeOf(plain), () => false, false),
    null,
  );
  const repeated = plain.map((r) => ({ ...r }));
  repeated[5].index = repeated[4].index;
  const crash = rewardNormalizationCrash(storeOf(repeated), () => false, false);
  assert.equal(crash?.error, 'ValueError: all samples in rollout 4 must share one reward; rows [4, 5] have rewards [0.0, 1.0]');
});

test('lines out of order: the gate still skips the walk where no key repeats in a group, and not where one does', () => {
  const plain: Row[] = [];
  for (let g = 0; g < 4; g++) for (let j = 0; j < 4; j++) plain.push({ group: g, index: g * 4 + j, rolloutId: null, reward: j % 2, excluded: false });
  // A fixed shuffle: indexes fall within every group.
  const shuffled = [13, 2, 7, 0, 15, 9, 4, 11, 1, 6, 14, 3, 8, 12, 5, 10].map((k) => ({ ...plain[k] }));
  assert.equal(
    normalizationMayRaise(storeOf(shuffled), () => false, false),
    false,
    'grouped, no repeat',
  );
  const ungrouped = shuffled.map((r, k) => ({ ...r, group: k === 3 ? null : r.group }));
  assert.equal(
    normalizationMayRaise(storeOf(ungrouped), () => false, false),
    false,
    'one reward group, no repeat',
  );
  const repeated = shuffled.map((r) => ({ ...r }));
  repeated[4].index = 12; // row 4 is index 15 of group 3; index 12 is group 3's too
  assert.equal(
    normalizationMayRaise(storeOf(repeated), () => false, false),
    true,
    'a repeat within a group',
  );
  const acrossGroups = shuffled.map((r) => ({ ...r }));
  acrossGroups[4].index = 2; // index 2 is group 0's: another group, so no repeat while grouped
  assert.equal(
    normalizationMayRaise(storeOf(acrossGroups), () => false, false),
    false,
    'the same key in two groups',
  );
  acrossGroups[3].group = null;
  assert.equal(
    normalizationMayRaise(storeOf(acrossGroups), () => false, false),
    true,
    'the same key once all samples are one group',
  );
});
