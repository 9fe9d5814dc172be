// The one cap on findings per file (core/findingCap.ts): the most severe `maxProblems` kept, in
// line order, one summary counting the rest by code; and the bounds while reading (the
// collector's, the rollout checks' FirstFindings) never lose a finding the cap would keep.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_SETTINGS } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { capFindings } from '../../../server/src/core/findingCap';
import { analyzeRollout } from '../../../server/src/core/rollout/analyze';
import { FirstFindings } from '../../../server/src/core/rollout/firstFindings';
import type { Finding, Severity } from '../../../server/src/core/vocabulary/types';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { aborted, group, inFileOrder, ZERO_STD } from '../rollout/helpers';
import { tempDir } from './helpers';

function finding(code: string, severity: Severity, line: number): Finding {
  return { code, severity, file: 'f.jsonl', line, message: code, group: null, dataset: null, fix: null };
}

test('cap: errors are kept before warnings before information, whatever their lines, and shown in line order', () => {
  const findings = [
    finding('zero-std-group', 'information', 1),
    finding('group-dropped', 'warning', 2),
    finding('group-dropped', 'warning', 3),
    finding('zero-std-group', 'information', 4),
    finding('filter-crash', 'error', 9),
    finding('group-dropped', 'warning', 7),
  ];
  const kept = capFindings(findings, 3, 'f.jsonl');
  assert.deepEqual(
    kept.map((f) => [f.code, f.line]),
    [
      ['group-dropped', 2],
      ['group-dropped', 3],
      ['filter-crash', 9],
      ['too-many-problems', 9],
    ],
  );
  assert.equal(kept[3].message, '3 more problems not shown (maxProblems = 3); most severe shown first; not shown: zero-std-group: 2, group-dropped: 1');
  assert.equal(kept[3].hiddenCount, 3);
  // One fewer: the last warning by line goes first, then the information.
  assert.deepEqual(
    capFindings(findings, 1, 'f.jsonl').map((f) => f.code),
    ['filter-crash', 'too-many-problems'],
  );
  // At the cap nothing moves; under it the findings come back in line order.
  assert.deepEqual(
    capFindings(findings, 6, 'f.jsonl').map((f) => f.line),
    [1, 2, 3, 4, 7, 9],
  );
});

test('cap: findings only counted while reading are said, and a second cap adds to the first summary', () => {
  const findings = [finding('invalid-json', 'error', 5), finding('invalid-record', 'warning', 2), finding('invalid-record', 'warning', 3)];
  const once = capFindings(findings, 2, 'f.jsonl', 4);
  assert.deepEqual(
    once.map((f) => [f.code, f.line]),
    [
      ['invalid-record', 2],
      ['invalid-json', 5],
      ['too-many-problems', 5],
    ],
  );
  assert.equal(
    once[2].message,
    '5 more problems not shown (maxProblems = 2); most severe shown first; not shown: invalid-record: 1, and 4 more counted while reading',
  );
  // The server adds findings to a capped file's own and caps again: one summary, the counts added up.
  const twice = capFindings(once.concat(finding('metric-mismatch', 'warning', 1)), 2, 'f.jsonl');
  assert.deepEqual(
    twice.map((f) => [f.code, f.line]),
    [
      ['metric-mismatch', 1],
      ['invalid-json', 5],
      ['too-many-problems', 5],
    ],
  );
  assert.equal(twice[2].hiddenCount, 6);
  assert.deepEqual(twice[2].hiddenByCode, { 'invalid-record': 2 });
  assert.match(twice[2].message, /^6 more problems .* not shown: invalid-record: 2, and 4 more counted while reading$/);
  // Capping what is capped changes nothing.
  assert.deepEqual(capFindings(twice, 2, 'f.jsonl'), twice);
});

test('FirstFindings: the first `limit` of each severity; an error after the warnings that filled it is still wanted', () => {
  const list = new FirstFindings(2);
  for (const line of [1, 2, 3]) if (list.wants(line, 'group-dropped')) list.push(finding('group-dropped', 'warning', line));
  assert.equal(list.wantsNone(4, 'group-dropped'), true);
  assert.equal(list.wants(5, 'group-dropped'), false);
  assert.equal(list.wantsNone(4, 'filter-crash'), false);
  assert.equal(list.wants(6, 'filter-crash'), true);
  list.push(finding('filter-crash', 'error', 6));
  assert.deepEqual(
    list.list().map((f) => [f.code, f.line]),
    [
      ['group-dropped', 1],
      ['group-dropped', 2],
      ['filter-crash', 6],
    ],
  );
  assert.equal(list.leftOut, 2);
});

test('rollout: a crash of the filter after more dropped groups than maxProblems is reported (error before warnings)', () => {
  // Five aborted groups (a group-dropped warning each), then a group whose null reward makes miles'
  // check_reward_nonzero_std raise (filter-crash, an error) on the last lines.
  const samples = inFileOrder([
    ...[1, 2, 3, 4, 5].flatMap((g) => [aborted(String(g), 2 * g, 'SandboxUnavailable'), ...group(String(g), [1], 2 * g + 1)]),
    ...group('6', [1, 0]).map((s, i) => (i === 1 ? { ...s, reward: null } : s)),
  ]);
  const r = analyzeRollout('rollout_1.jsonl', 'miles-sample', samples, ZERO_STD, false, 2);
  assert.ok(
    r.findings.some((f) => f.code === 'filter-crash'),
    'the error is kept while reading',
  );
  const kept = capFindings(r.findings, 2, 'rollout_1.jsonl', r.leftOut);
  assert.deepEqual(
    kept.map((f) => f.code),
    ['group-dropped', 'filter-crash', 'too-many-problems'],
  );
  assert.equal(kept[2].hiddenCount, 4);
});

test('engine: maxProblems keeps the most severe findings of a file; the reader counts past it per severity', async (t) => {
  // 30 lines that are not JSON (invalid-json, errors) after 5 valid lines of no known format.
  const path = join(tempDir(t), 'bad.jsonl');
  writeFileSync(path, '{"a": 1}\n'.repeat(5) + 'nope\n'.repeat(30));
  const r = await analyzeFiles([{ path, displayPath: 'bad.jsonl' }], { access: nodeFileAccess, settings: { ...DEFAULT_SETTINGS, maxProblems: 10 } });
  assert.equal(r.findings.length, 11);
  assert.deepEqual(new Set(r.findings.slice(0, 10).map((f) => f.code)), new Set(['invalid-json']));
  assert.deepEqual(
    r.findings.slice(0, 10).map((f) => f.line),
    [6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  );
  const last = r.findings[10];
  assert.equal(last.code, 'too-many-problems');
  assert.equal(last.hiddenCount, 21);
  assert.equal(
    last.message,
    '21 more problems not shown (maxProblems = 10); most severe shown first; not shown: unknown-format: 1, and 20 more counted while reading',
  );
  // Only counted, none cut by code: the message check has always printed.
  assert.equal(capFindings([], 10, 'f.jsonl', 5)[0].message, '5 more problems not shown (maxProblems = 10)');
});
