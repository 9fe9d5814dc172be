// A `.pt` sample's counted run of numbers as its line shows it (`{"$numbers": count, "$sum": sum}`,
// docs/pt.md): the scanner's `loss_mask` rule reads the sum from exactly that object, as it sums an
// array, and no other object.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { buildRule } from '../../../server/src/core/formats/rule';
import { Skipped } from '../../../server/src/core/reader/jsonRule';
import { parseByRule } from '../../../server/src/core/reader/ruleParse';

const RULE = buildRule({});

function lossMask(json: string): unknown {
  const bytes = Buffer.from(`{"index": 0, "loss_mask": ${json}, "reward": 1}`);
  const r = parseByRule(bytes, 0, bytes.length, RULE);
  assert.ok(r.ok, json);
  return (r.value as Record<string, unknown>).loss_mask;
}

test('loss_mask: an array is summed; a counted run gives its $sum, as the array it stands for would', () => {
  assert.equal(lossMask('[1, 1, 0, 1]'), 3);
  assert.equal(lossMask('{"$numbers": 1501, "$sum": 1002}'), 1002);
  assert.equal(lossMask('{"$numbers":9,"$sum":-27}'), -27);
  assert.equal(lossMask('{"$numbers": 9, "$sum": 0}'), 0);
});

test('loss_mask: any other object is not a sum (no $sum, another order, another member, a float or huge sum)', () => {
  for (const json of [
    '{"$numbers": 12}',
    '{"$sum": 7, "$numbers": 12}',
    '{"$numbers": 12, "$sum": 7, "x": 1}',
    '{"$numbers": 12, "$sum": 7.5}',
    '{"$numbers": 12, "$sum": 1e300}',
    '{"$numbers": "12", "$sum": 7}',
    '{}',
  ]) {
    const v = lossMask(json);
    assert.ok(v instanceof Skipped && v.kind === 'object', `${json}: ${String(v)}`);
  }
});
