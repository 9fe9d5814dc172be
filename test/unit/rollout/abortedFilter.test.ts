import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeRollout } from '../../../server/src/core/rollout/analyze';
import { aborted, codes, FILE, group, inFileOrder, sample, settings, ZERO_STD } from './helpers';

test('an aborted sample with a cause drops its group as group_has_aborted_<cause> and counts 1', () => {
  const samples = inFileOrder([...group('7', [1, 0], 0), aborted('7', 2, 'ServerUnreachable'), ...group('7', [1], 3), ...group('8', [1, 0])]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  assert.deepEqual(r.metrics, { 'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable': 1 });
  assert.deepEqual(r.counts, { total: 2, kept: 1, dropped: 1 });
  assert.deepEqual(r.groups[0], {
    key: '7',
    lines: [1, 2, 3, 4],
    kept: false,
    reason: 'group_has_aborted_ServerUnreachable',
    metric: 'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable',
  });
  assert.equal(r.groups[1].kept, true);
  const [f] = codes(r, 'group-dropped');
  assert.equal(f.line, 3, 'at the aborted sample that names the cause');
  assert.equal(f.severity, 'warning');
  assert.equal(f.group, '7');
  assert.ok(f.message.startsWith('group dropped: group_has_aborted_ServerUnreachable — '), f.message);
  assert.deepEqual(f.related, [
    { file: FILE, line: 1 },
    { file: FILE, line: 2 },
    { file: FILE, line: 4 },
  ]);
  assert.match(f.message, /1 of 4 samples of group 7 aborted/);
  assert.match(f.message, /ServerUnreachable is an infrastructure failure/);
  assert.match(f.message, /counted in rollout\/dynamic_filter\/drop_group_has_aborted_ServerUnreachable\./);
});

test('an aborted sample without exit_status counts as group_has_aborted_unknown, with abort-cause-unknown', () => {
  const samples = inFileOrder([...group('1', [1, 0]), aborted('1', 2, null)]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  assert.deepEqual(r.metrics, { 'rollout/dynamic_filter/drop_group_has_aborted_unknown': 1 });
  const [dropped] = codes(r, 'group-dropped');
  assert.ok(dropped.message.startsWith('group dropped: group_has_aborted_unknown — '));
  const [unknown] = codes(r, 'abort-cause-unknown');
  assert.equal(unknown.line, 3);
  assert.equal(unknown.severity, 'information');
  assert.ok(unknown.message.startsWith('aborted sample records no exit_status — its group 1 counts as group_has_aborted_unknown.'), unknown.message);
  assert.match(unknown.message, /set metadata\.exit_status/);
});

test('an empty exit_status counts as unknown too', () => {
  const r = analyzeRollout(FILE, 'miles-sample', inFileOrder([aborted('1', 0, ''), ...group('1', [1], 1)]), settings());
  assert.deepEqual(r.metrics, { 'rollout/dynamic_filter/drop_group_has_aborted_unknown': 1 });
});

test('cause of the first aborted sample in group order wins (index order = line order)', () => {
  const samples = inFileOrder([sample('4', 0), aborted('4', 1, 'SandboxUnavailable'), aborted('4', 2, 'ServerUnreachable'), sample('4', 3)]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  assert.deepEqual(r.metrics, { 'rollout/dynamic_filter/drop_group_has_aborted_SandboxUnavailable': 1 });
  const [f] = codes(r, 'group-dropped');
  assert.equal(f.line, 2);
  assert.match(f.message, /other aborted samples record: ServerUnreachable \(line 3\)/);
  assert.match(f.message, /2 of 4 samples of group 4 aborted/);
});

test('cause of the first aborted sample in group order wins, also when line order differs from index order', () => {
  // The file holds index 2 (ServerUnreachable) before index 1 (SandboxUnavailable): index order decides.
  const samples = inFileOrder([sample('4', 3), aborted('4', 2, 'ServerUnreachable'), aborted('4', 1, 'SandboxUnavailable'), sample('4', 0)]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  assert.deepEqual(r.metrics, { 'rollout/dynamic_filter/drop_group_has_aborted_SandboxUnavailable': 1 });
  assert.deepEqual(r.groups[0].lines, [4, 3, 2, 1], 'members listed in group order');
  const [f] = codes(r, 'group-dropped');
  assert.equal(f.line, 3, 'the finding sits on the sample that names the cause');
});

test('group order falls back to line order when a member has no index', () => {
  const samples = inFileOrder([sample('4', null), aborted('4', 2, 'ServerUnreachable'), aborted('4', 1, 'SandboxUnavailable', { index: null })]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  assert.deepEqual(r.metrics, { 'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable': 1 });
});

test('a non-first aborted sample without exit_status is still reported, its group counted under the first cause', () => {
  const samples = inFileOrder([aborted('2', 0, 'ServerUnreachable'), aborted('2', 1, null)]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  assert.deepEqual(r.metrics, { 'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable': 1 });
  const [u] = codes(r, 'abort-cause-unknown');
  assert.equal(u.line, 2);
  assert.match(u.message, /counts under the first aborted sample \(line 1\)/);
});

test('metrics count groups, not samples, and only reasons that occurred', () => {
  const samples = inFileOrder([
    aborted('1', 0, 'ServerUnreachable'),
    aborted('1', 1, 'ServerUnreachable'),
    aborted('2', 0, 'ServerUnreachable'),
    sample('2', 1),
    aborted('3', 0, 'SandboxUnavailable'),
    sample('3', 1),
    ...group('4', [1, 0]),
  ]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, settings());
  assert.deepEqual(r.metrics, {
    'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable': 2,
    'rollout/dynamic_filter/drop_group_has_aborted_SandboxUnavailable': 1,
  });
  assert.deepEqual(r.counts, { total: 4, kept: 1, dropped: 3 });
  assert.equal(codes(r, 'group-dropped').length, 3, 'one finding per dropped group');
});

test('sync-style and fully-async-style logs count the same', () => {
  const sync = [
    ...group('0', [1, 0]),
    aborted('0', 2, 'ServerUnreachable'),
    ...group('1', [1, 1, 1]),
    aborted('2', 0, null),
    ...group('2', [0, 1], 1),
    ...group('3', [0, 1, 0]),
  ];
  // Fully async writes samples as they finish: groups interleave and members come out of index order.
  const order = [5, 0, 8, 3, 10, 1, 6, 11, 2, 9, 4, 7];
  const asyncStyle = order.map((i) => sync[i]);
  const rs = analyzeRollout(FILE, 'miles-sample', inFileOrder(sync), ZERO_STD);
  const ra = analyzeRollout(FILE, 'miles-sample', inFileOrder(asyncStyle), ZERO_STD);
  const expected = {
    'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable': 1,
    'rollout/dynamic_filter/drop_zero_std_1.0': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_unknown': 1,
  };
  assert.deepEqual(rs.metrics, expected);
  assert.deepEqual(ra.metrics, {
    'rollout/dynamic_filter/drop_zero_std_1.0': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_unknown': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable': 1,
  });
  assert.deepEqual(rs.counts, ra.counts);
  const byKey = (r: typeof rs) => Object.fromEntries(r.groups.map((g) => [g.key, g.reason]));
  assert.deepEqual(byKey(ra), byKey(rs));
});

test('the aborted-group filter runs before the dynamic filter (an aborted group of equal rewards is not zero-std)', () => {
  const samples = inFileOrder([...group('5', [1, 1, 1]), aborted('5', 3, 'SandboxUnavailable')]);
  const r = analyzeRollout(FILE, 'miles-sample', samples, ZERO_STD);
  assert.deepEqual(r.metrics, { 'rollout/dynamic_filter/drop_group_has_aborted_SandboxUnavailable': 1 });
  assert.equal(codes(r, 'zero-std-group').length, 0);
});

test('a cause is used verbatim in the reason and metric name', () => {
  const r = analyzeRollout(FILE, 'miles-sample', inFileOrder([aborted('1', 0, 'Weird cause/with spaces')]), settings());
  assert.deepEqual(r.metrics, { 'rollout/dynamic_filter/drop_group_has_aborted_Weird cause/with spaces': 1 });
});
