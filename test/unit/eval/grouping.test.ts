// The order miles groups an eval dataset's samples in (core/eval/grouping.ts groupingOrder), read
// from records and from the store's rows alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { groupingOrder } from '../../../server/src/core/eval/grouping';
import { sampleList, type SampleList } from '../../../server/src/core/store/sampleList';
import { SampleStore } from '../../../server/src/core/store/sampleStore';
import type { FormatId } from '../../../server/src/core/vocabulary/types';
import { rec } from './records';

const linesOf = (list: SampleList) => Array.from({ length: list.length }, (_, k) => list.line(k));

/** The order of `samples` (lines) as the records' stable sort gives it, for both kinds of list. */
function bothOrders(format: FormatId, samples: ReturnType<typeof rec>[]): [number[], number[]] {
  return [linesOf(groupingOrder(format, sampleList(samples))), linesOf(groupingOrder(format, sampleList(SampleStore.of(samples))))];
}

test('groupingOrder: by index then line when every sample has an index, else as given; in-order input is not copied', () => {
  const reference = (samples: ReturnType<typeof rec>[]) =>
    (samples.every((s) => s.index !== null) ? [...samples].sort((a, b) => a.index! - b.index! || a.line - b.line) : samples).map((s) => s.line);
  fc.assert(
    fc.property(
      fc.array(fc.record({ index: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constant(null)), line: fc.integer({ min: 1, max: 6 }) }), { maxLength: 12 }),
      fc.boolean(),
      (rows, indexed) => {
        const samples = rows.map((r) => rec({ line: r.line, index: indexed ? (r.index ?? 0) : r.index }));
        const want = reference(samples);
        assert.deepEqual(bothOrders('miles-sample', samples), [want, want]);
      },
    ),
    { numRuns: 500 },
  );
  // Equal indices out of line order are sorted by line; an input already in order comes back as is.
  assert.deepEqual(bothOrders('miles-sample', [rec({ line: 2, index: 0 }), rec({ line: 1, index: 0 })]), [
    [1, 2],
    [1, 2],
  ]);
  const ordered = sampleList([rec({ line: 1, index: 0 }), rec({ line: 3, index: 0 }), rec({ line: 2, index: 1 })]);
  assert.equal(groupingOrder('miles-sample', ordered), ordered);
});

test('groupingOrder: eval trials by the instance first met, then trial index, then line', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ groupKey: fc.oneof(fc.constant(null), fc.constantFrom('a', 'b', 'c')), index: fc.integer({ min: 0, max: 3 }) }), { maxLength: 12 }),
      (rows) => {
        const samples = rows.map((r, k) => rec({ line: k + 1, ...r }));
        const first = new Map<string, number>();
        samples.forEach((s, k) => s.groupKey !== null && !first.has(s.groupKey) && first.set(s.groupKey, k));
        const rank = (s: ReturnType<typeof rec>, k: number) => (s.groupKey === null ? k : first.get(s.groupKey)!);
        const want = samples
          .map((s, k) => ({ s, r: rank(s, k) }))
          .sort((a, b) => a.r - b.r || (a.s.index ?? 0) - (b.s.index ?? 0) || a.s.line - b.s.line)
          .map((x) => x.s.line);
        assert.deepEqual(bothOrders('miles-eval-trials', samples), [want, want]);
      },
    ),
    { numRuns: 300 },
  );
});
