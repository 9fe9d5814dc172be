// miles' passrate (`_compute_passrate_from_samples`, core/eval/passrate.ts) reads the store's columns
// in one walk, chunk by chunk (`SampleColumns.groupTally`). Against a reference that reads row by
// row: random steps (groups interleaved or missing, rewards None, NaN, 0.5, 1) and a step longer
// than two chunks give the same group size, figures, group and excluded counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { completedStore as storeOf } from '../../shared/completedStore';
import type { SampleColumns } from '../../../server/src/core/store/sampleColumns';
import { CHUNK } from '../../../server/src/core/store/chunk';
import { milesPassrate, passrateGroupSize, type Passrate } from '../../../server/src/core/eval/passrate';
import { computePassAtK } from '../../../server/src/core/eval/passAtK';

interface Row {
  group: number | null;
  reward: number | null;
}

/** miles' steps row by row: groups by first appearance (keyless rows one group), complete ones' flat rewards. */
function reference(store: SampleColumns, setting: number | null): { size: number | null; passrate: Passrate } {
  const members = new Map<number, number[]>();
  for (let i = 0; i < store.length; i++) {
    const g = store.groupId(i);
    const list = members.get(g < 0 ? -1 : g);
    if (list === undefined) members.set(g < 0 ? -1 : g, [i]);
    else list.push(i);
  }
  const sizes = new Set([...members.values()].map((m) => m.length));
  const size = setting ?? (sizes.size === 1 ? [...sizes][0] : null);
  const passrate: Passrate = { values: {}, groupSize: size, excluded: 0, groups: 0 };
  if (size === null || size <= 1) return { size, passrate };
  const complete = [...members.values()].filter((m) => m.length === size);
  passrate.groups = members.size;
  passrate.excluded = members.size - complete.length;
  if (complete.length === 0) return { size, passrate };
  const flat = complete.flatMap((m) => m.map((i) => store.rewardAt(i) ?? 0));
  const pass = computePassAtK(flat, size);
  if (pass.kind === 'metrics') passrate.values = pass.values;
  return { size, passrate };
}

const row: fc.Arbitrary<Row> = fc.record({
  group: fc.option(fc.integer({ min: 0, max: 5 }), { freq: 8 }),
  reward: fc.option(fc.constantFrom(0, 1, 0.5, Number.NaN), { freq: 10 }),
});

test('passrate from the one walk equals the row-by-row reference (random steps)', () => {
  fc.assert(
    fc.property(fc.array(row, { minLength: 0, maxLength: 40 }), fc.option(fc.integer({ min: 1, max: 8 })), (rows, setting) => {
      const store = storeOf(rows);
      const want = reference(store, setting);
      const size = passrateGroupSize(store, setting);
      assert.equal(size, want.size);
      assert.deepEqual(milesPassrate(store, size), want.passrate);
      assert.deepEqual(milesPassrate(store, size, store.groupTally()), want.passrate);
    }),
    { seed: 23, numRuns: 2000 },
  );
});

test('passrate over more than two chunks: groups interleaved across chunk boundaries', () => {
  const rows: Row[] = [];
  // Groups of 4 written two at a time, interleaved; every 97th sample without a group; rewards 1 at a varying share.
  for (let k = 0; rows.length < 2 * CHUNK + 37; k++) {
    const g = Math.floor(k / 8) * 2 + (k % 2);
    rows.push({ group: k % 97 === 0 ? null : g, reward: (k * 7) % 5 < 2 ? 1 : k % 11 === 0 ? null : 0 });
  }
  const store = storeOf(rows);
  const want = reference(store, 4);
  assert.ok(want.passrate.excluded > 0 && Object.keys(want.passrate.values).length === 3);
  assert.deepEqual(milesPassrate(store, passrateGroupSize(store, 4)), want.passrate);
  assert.equal(passrateGroupSize(store, null), reference(store, null).size);
});
