import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cell, renderRolloutTable } from '../../../server/src/cli/rolloutTable';
import type { FileReport } from '../../../server/src/core/vocabulary/types';
import { aborted, FILE, group, inFileOrder, rolloutFileReport, ZERO_STD } from './helpers';

function report(withDetail: boolean): FileReport {
  const samples = inFileOrder([
    aborted('3', 0, 'ServerUnreachable'),
    ...group('3', [1], 1),
    aborted('5', 0, 'ServerUnreachable'),
    ...group('5', [0], 1),
    aborted('8', 0, null),
    ...group('8', [0], 1),
    ...group('9', [1, 1]),
    ...group('11', [0, 1]),
  ]);
  return rolloutFileReport(FILE, samples, ZERO_STD, withDetail);
}

test('report table: dropped groups by cause with their metric names, group keys and the formerly names', () => {
  assert.equal(
    renderRolloutTable(report(true)),
    [
      'Dropped groups by cause: 5 groups, 1 kept, 4 dropped',
      '  groups  reason                               metric                                                           group keys',
      '       2  group_has_aborted_ServerUnreachable  rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable  3, 5',
      '       1  group_has_aborted_unknown            rollout/dynamic_filter/drop_group_has_aborted_unknown            8',
      '       1  zero_std_1.0                         rollout/dynamic_filter/drop_zero_std_1.0                         9',
      '  miles main (31f1ca9) logs one counter for every aborted group, whatever its cause: rollout/dynamic_filter/drop_group_has_aborted = 3 (sync), rollout/fully_async/aborted_groups_filtered = 3 (fully async)',
    ].join('\n'),
  );
});

test('report table without detail falls back to the drop metrics (no group keys)', () => {
  const text = renderRolloutTable(report(false));
  assert.match(text, /^ {7}2 {2}group_has_aborted_ServerUnreachable {2}rollout\/dynamic_filter\/drop_group_has_aborted_ServerUnreachable$/m);
  assert.ok(!text.includes('group keys'));
  assert.match(text, /drop_group_has_aborted = 3 \(sync\)/);
});

test('report table: nothing dropped, and non-rollout files give no table', () => {
  const r = report(true);
  const none: FileReport = { ...r, metrics: {}, groups: { total: 2, kept: 2, dropped: 0 }, detail: { ...r.detail!, groups: [] } };
  assert.equal(renderRolloutTable(none), 'Dropped groups by cause: 2 groups, 2 kept, 0 dropped\n  (no group dropped)');
  assert.equal(renderRolloutTable({ ...r, kind: 'eval' }), '');
});

test('report table escapes terminal control and bidi characters from the log and bounds cell width', () => {
  assert.equal(cell('a\u001b[31mred\u0007'), 'a\\x1b[31mred\\x07');
  assert.equal(cell('x\u202ey'), 'x\\u202ey');
  const long = cell('C'.repeat(500));
  assert.equal(long.length, 72);
  assert.ok(long.endsWith('…'));
  const text = renderRolloutTable(rolloutFileReport(FILE, inFileOrder([aborted('1', 0, 'Evil\u001b]0;pwned\u0007')]), ZERO_STD, false));
  assert.ok(!/[\u0000-\u0008\u000b-\u001f]/.test(text), JSON.stringify(text));
  assert.match(text, /group_has_aborted_Evil\\x1b\]0;pwned\\x07/);
});
