import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderJson, renderJsonPieces } from '../../../server/src/cli/jsonReport';
import type { Finding, RunReport } from '../../../server/src/core/types';

const finding = (line: number, message: string, related: number[]): Finding => ({
  code: 'group-dropped',
  severity: 'warning',
  file: 'a "b".jsonl',
  line,
  message,
  group: line % 2 ? String(line) : null,
  dataset: null,
  fix: null,
  ...(related.length > 0 ? { related: related.map((l) => ({ file: 'x\ny.jsonl', line: l })) } : {}),
});

test('the JSON report in pieces is the same text as in one string', () => {
  const file = {
    path: 'p\\q.jsonl',
    format: 'miles-sample' as const,
    kind: 'rollout' as const,
    records: 3,
    invalidLines: 0,
    groups: { total: 2, kept: 1, dropped: 1 },
    metrics: { 'rollout/x': 1.5, 'rollout/nan': NaN },
  };
  const reports: RunReport[] = [
    { version: 1, files: [], findings: [] },
    { version: 1, files: [file], findings: [] },
    { version: 1, files: [], findings: [finding(1, 'one', [])] },
    { version: 1, files: [file, { ...file, metrics: {} }], findings: [finding(1, 'a\nb \u2028 "c"', [2, 3]), finding(4, '', []), finding(9, 'ü', [1])] },
  ];
  for (const report of reports) {
    const whole = renderJson(report);
    for (const size of [1, 7, 100, 1 << 20]) {
      const pieces = [...renderJsonPieces(report, size)];
      assert.equal(pieces.join(''), whole);
      if (size === 1 << 20) assert.equal(pieces.length, 1, 'a small report is one piece');
      else assert.ok(pieces.every((p) => p.length > 0));
    }
  }
});
