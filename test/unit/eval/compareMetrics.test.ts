import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareMetrics, toleranceFor } from '../../../server/src/core/eval/compareMetrics';
import type { MetricsRecord } from '../../../server/src/core/vocabulary/types';

function record(line: number, step: number | null, metrics: Record<string, number>): MetricsRecord {
  return { line, offset: 0, byteLength: 10, step, stepKey: 'eval/step', metrics };
}

test('logged vs recomputed: miles metrics compared at 1e-9 relative, on the metrics line', () => {
  const logged = [record(1, 5, { 'eval/aime': 0.5 * (1 + 2e-9) }), record(2, 6, { 'eval/aime': 0.5 * (1 + 5e-10) })];
  const recomputed = [
    { file: 'eval_5.jsonl', step: 5, metrics: { 'eval/aime': 0.5 } },
    { file: 'eval_6.jsonl', step: 6, metrics: { 'eval/aime': 0.5 } },
  ];
  const f = compareMetrics('metrics.jsonl', logged, recomputed);
  assert.equal(f.length, 1);
  assert.equal(f[0].code, 'metric-mismatch');
  assert.equal(f[0].severity, 'warning');
  assert.equal(f[0].file, 'metrics.jsonl');
  assert.equal(f[0].line, 1);
  assert.equal(f[0].dataset, 'aime');
  assert.equal(f[0].message, 'eval/aime at step 5: logged 0.500000001, recomputed 0.5 from eval_5.jsonl');
  assert.deepEqual(f[0].related, [{ file: 'eval_5.jsonl', line: 1 }]);
});

test('verl metrics at 1e-6: float32 0.6842105388641357 for 13/19 is no mismatch, 0.69 is', () => {
  assert.equal(toleranceFor('critic/score/mean'), 1e-6);
  assert.equal(toleranceFor('val-core/gsm8k/reward/mean@4'), 1e-6);
  assert.equal(toleranceFor('eval/aime-pass@2'), 1e-9);
  const recomputed = [{ file: '3.jsonl', step: 3, metrics: { 'critic/score/mean': 13 / 19 } }];
  assert.equal(compareMetrics('m.jsonl', [record(4, 3, { 'critic/score/mean': 0.6842105388641357 })], recomputed).length, 0);
  assert.equal(compareMetrics('m.jsonl', [record(4, 3, { 'critic/score/mean': 0.69 })], recomputed).length, 1);
  // The same 2e-8 relative gap on a miles metric is a mismatch.
  assert.equal(
    compareMetrics('m.jsonl', [record(4, 3, { 'eval/x': 0.6842105388641357 })], [{ file: 'e.jsonl', step: 3, metrics: { 'eval/x': 13 / 19 } }]).length,
    1,
  );
});

test('a logged pass@k that equals the global-n grouping is named as such', () => {
  const recomputed = [
    {
      file: 'eval_5.jsonl',
      step: 5,
      metrics: { 'eval/aime-pass@2': 0.6666666666666666 },
      wrongMetrics: { 'eval/aime-pass@2': { groupSize: 2, ownGroupSize: 4, value: 0.75 } },
    },
  ];
  const f = compareMetrics('metrics.jsonl', [record(3, 5, { 'eval/aime-pass@2': 0.75 })], recomputed);
  assert.equal(
    f[0].message,
    "eval/aime-pass@2 at step 5: logged 0.75, recomputed 0.6666666666666666 from eval_5.jsonl; the logged value is pass@k grouped by the global n_samples_per_eval_prompt (2), not the dataset's own (4)",
  );
  const other = compareMetrics('metrics.jsonl', [record(3, 5, { 'eval/aime-pass@2': 0.7 })], recomputed);
  assert.ok(!other[0].message.includes('global'));
});

test('only the same step is compared; a step-less file takes the number in its name; unlogged names are skipped', () => {
  const recomputed = [{ file: 'dir/eval_9.jsonl', step: null, metrics: { 'eval/a': 1, 'eval/b': 0 } }];
  assert.equal(compareMetrics('m.jsonl', [record(1, 8, { 'eval/a': 0 })], recomputed).length, 0);
  assert.equal(compareMetrics('m.jsonl', [record(1, 9, { 'eval/a': 0 })], recomputed).length, 1);
  assert.equal(compareMetrics('m.jsonl', [record(1, 9, { 'eval/c': 0 })], recomputed).length, 0);
  assert.equal(compareMetrics('m.jsonl', [record(1, null, { 'eval/a': 0 })], recomputed).length, 0);
  // NaN logged and NaN recomputed agree; NaN against a number does not.
  assert.equal(compareMetrics('m.jsonl', [record(1, 9, { 'eval/a': NaN })], [{ file: 'e_9.jsonl', step: 9, metrics: { 'eval/a': NaN } }]).length, 0);
  assert.equal(compareMetrics('m.jsonl', [record(1, 9, { 'eval/a': NaN })], recomputed).length, 1);
});
