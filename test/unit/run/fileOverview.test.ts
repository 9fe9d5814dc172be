// One file's overview (core/run/fileOverview.ts): the engine's drops by cause, datasets and step,
// which the run model folds into steps and the CLI tables, the Groups view and the run view render.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { renderEvalTable } from '../../../server/src/cli/evalTable';
import { renderRolloutTable } from '../../../server/src/cli/rolloutTable';
import { fileOverview, UNNAMED_DROPS } from '../../../server/src/core/run/fileOverview';
import { buildRuns } from '../../../server/src/core/run/model';
import type { FileReport } from '../../../server/src/core/vocabulary/types';
import { aborted, FILE, group, inFileOrder, rolloutFileReport, ZERO_STD } from '../rollout/helpers';

function rollout(): FileReport {
  const samples = inFileOrder([
    aborted('3', 0, 'ServerUnreachable'),
    ...group('3', [1], 1),
    aborted('8', 0, null),
    ...group('8', [0], 1),
    ...group('9', [1, 1]),
    ...group('11', [0, 1]),
  ]);
  return rolloutFileReport(FILE, samples, ZERO_STD, false);
}

test('file overview: drops by cause with the metric each counts in, from the drop metrics', () => {
  const s = fileOverview(rollout());
  assert.deepEqual(s.groups, { total: 4, kept: 1, dropped: 3 });
  assert.deepEqual(s.drops.map((d) => [d.reason, d.metric, d.groups]).sort(), [
    ['group_has_aborted_ServerUnreachable', 'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable', 1],
    ['group_has_aborted_unknown', 'rollout/dynamic_filter/drop_group_has_aborted_unknown', 1],
    ['zero_std_1.0', 'rollout/dynamic_filter/drop_zero_std_1.0', 1],
  ]);
  // The step is the report's (its records', else its name's): null when it has none.
  assert.equal(s.step, null);
  assert.equal(fileOverview({ ...rollout(), step: 12 }).step, 12);
});

test('file overview: drops no metric names are counted under UNNAMED_DROPS, with no metric, and the table shows them so', () => {
  const report: FileReport = {
    path: 'rollout_7.jsonl',
    format: 'miles-sample',
    kind: 'rollout',
    records: 8,
    invalidLines: 0,
    groups: { total: 4, kept: 1, dropped: 3 },
    metrics: { 'rollout/dynamic_filter/drop_zero_std_0.0': 1 },
  };
  const s = fileOverview(report);
  assert.deepEqual(s.drops, [
    { reason: 'zero_std_0.0', metric: 'rollout/dynamic_filter/drop_zero_std_0.0', groups: 1 },
    { reason: UNNAMED_DROPS, metric: null, groups: 2 },
  ]);
  assert.match(renderRolloutTable(report), /\n {7}2 {2}unknown\n/);
  // The run model's step sums the same rows.
  assert.deepEqual(buildRuns([report])[0].steps[0].droppedByCause, { 'zero_std_0.0': 1, unknown: 2 });
});

test('file overview: an eval report without detail reads its datasets back from the metric names; the eval table renders them', () => {
  const report: FileReport = {
    path: 'eval_100.jsonl',
    format: 'miles-sample',
    kind: 'eval',
    records: 8,
    invalidLines: 0,
    groups: { total: 2, kept: 2, dropped: 0 },
    metrics: { 'eval/aime': 0.5, 'eval/aime-none_reward_ratio': 0, 'eval/aime-truncated_ratio': 0, 'eval/aime-pass@1': 0.5, 'eval/aime-pass@4': 0.75 },
  };
  const [aime] = fileOverview(report).datasets;
  assert.equal(aime.name, 'aime');
  assert.equal(aime.samples, -1);
  assert.equal(aime.n, 4);
  assert.match(renderEvalTable(report), /aime +- +- +0\.5 +0\.0 +0\.0 +0\.5 +0\.75\n/);
});
