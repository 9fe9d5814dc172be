import { test } from 'node:test';
import assert from 'node:assert/strict';

import { groupFindings } from '../../../server/src/core/views/findingGroups';
import type { Finding, Severity } from '../../../server/src/core/vocabulary/types';

function finding(code: string, severity: Severity, line: number, message = `${code} at ${line}`): Finding {
  return { code, severity, file: 'a.jsonl', line, message, group: null, dataset: null, fix: null };
}

test('groupFindings: one entry per code, most severe first, then most frequent, then by name', () => {
  const groups = groupFindings([
    finding('group-dropped', 'warning', 3),
    finding('zero-std-group', 'information', 4),
    finding('group-dropped', 'warning', 9),
    finding('invalid-json', 'error', 12),
    finding('field-shape', 'warning', 1),
    finding('zero-std-group', 'information', 5),
  ]);
  assert.deepEqual(
    groups.map((g) => [g.code, g.severity, g.count, g.omitted]),
    [
      ['invalid-json', 'error', 1, 0],
      ['group-dropped', 'warning', 2, 0],
      ['field-shape', 'warning', 1, 0],
      ['zero-std-group', 'information', 2, 0],
    ],
  );
  assert.deepEqual(groups[1].listed, [
    { file: 'a.jsonl', line: 3, message: 'group-dropped at 3' },
    { file: 'a.jsonl', line: 9, message: 'group-dropped at 9' },
  ]);
});

test('groupFindings: lists the first perCode findings of a code in the order given and counts the rest', () => {
  const many = Array.from({ length: 7 }, (_, i) => finding('invalid-json', 'error', i + 1));
  const [g] = groupFindings(many, 3);
  assert.equal(g.count, 7);
  assert.deepEqual(
    g.listed.map((f) => f.line),
    [1, 2, 3],
  );
  assert.equal(g.omitted, 4);
});

test("groupFindings: a code's severity is its most severe finding's (settings may change one)", () => {
  const [g] = groupFindings([finding('metric-mismatch', 'hint', 1), finding('metric-mismatch', 'error', 2)]);
  assert.equal(g.severity, 'error');
});
