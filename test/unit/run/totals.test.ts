import { test } from 'node:test';
import assert from 'node:assert/strict';

import type { Run, RunStep } from '../../../server/src/core/run/model';
import { runTotals } from '../../../server/src/core/run/totals';

function step(kind: 'rollout' | 'eval', n: number, total: number, dropped: number): RunStep {
  return { step: n, kind, files: [`${n}.jsonl`], partial: false, groups: { total, kept: total - dropped, dropped }, droppedByCause: {}, metrics: {} };
}

test('runTotals: groups over the rollout steps of every run (eval prompt groups are not rollout groups)', () => {
  const runs: Run[] = [
    { root: 'run', framework: 'miles', steps: [step('rollout', 1, 8, 6), step('rollout', 2, 8, 2), step('eval', 2, 5, 0)] },
    { root: 'run', framework: 'verl', steps: [step('rollout', 12, 12, 6)] },
  ];
  const t = runTotals(runs, []);
  assert.equal(t.rolloutSteps, 3);
  assert.deepEqual(t.groups, { total: 28, kept: 14, dropped: 14 });
  assert.equal(t.metricMismatches, 0);
});

test('runTotals: findings by severity, metric mismatches among them', () => {
  const t = runTotals(
    [],
    [
      { code: 'metric-mismatch', severity: 'warning' },
      { code: 'metric-mismatch', severity: 'warning' },
      { code: 'misgrouped-dataset', severity: 'error' },
      { code: 'zero-std-group', severity: 'information' },
    ],
  );
  assert.equal(t.metricMismatches, 2);
  assert.deepEqual(t.findings, { error: 1, warning: 2, information: 1, hint: 0 });
});
