// The order miles groups an eval dataset's samples in (core/eval/grouping.ts groupingOrder).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { groupingOrder } from '../../../server/src/core/eval/grouping';
import { rec } from './records';

test('groupingOrder: by index then line when every sample has an index, else as given; in-order input is not copied', () => {
  const reference = (samples: ReturnType<typeof rec>[]) =>
    samples.every((s) => s.index !== null) ? [...samples].sort((a, b) => a.index! - b.index! || a.line - b.line) : samples;
  fc.assert(
    fc.property(
      fc.array(fc.record({ index: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constant(null)), line: fc.integer({ min: 1, max: 6 }) }), { maxLength: 12 }),
      fc.boolean(),
      (rows, indexed) => {
        const samples = rows.map((r) => rec({ line: r.line, index: indexed ? (r.index ?? 0) : r.index }));
        assert.deepEqual(groupingOrder('miles-sample', samples), reference(samples));
      },
    ),
    { numRuns: 500 },
  );
  // Equal indices out of line order are sorted by line; an input already in order comes back as is.
  const swapped = [rec({ line: 2, index: 0 }), rec({ line: 1, index: 0 })];
  assert.deepEqual(
    groupingOrder('miles-sample', swapped).map((s) => s.line),
    [1, 2],
  );
  const ordered = [rec({ line: 1, index: 0 }), rec({ line: 3, index: 0 }), rec({ line: 2, index: 1 })];
  assert.equal(groupingOrder('miles-sample', ordered), ordered);
});
