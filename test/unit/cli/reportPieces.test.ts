import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderJson, renderJsonPieces } from '../../../server/src/cli/jsonReport';
import { REPORT_PIECE_SIZE } from '../../../server/src/cli/reportPieces';
import { renderText, renderTextPieces } from '../../../server/src/cli/textReport';
import type { Finding, RunReport } from '../../../server/src/core/vocabulary/types';

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

/** Reports from empty to one with files, findings and text that needs escaping. */
function reports(): RunReport[] {
  const file = {
    path: 'p\\q.jsonl',
    format: 'miles-sample' as const,
    kind: 'rollout' as const,
    records: 3,
    invalidLines: 0,
    groups: { total: 2, kept: 1, dropped: 1 },
    metrics: { 'rollout/x': 1.5, 'rollout/nan': NaN },
  };
  return [
    { version: 1, files: [], findings: [] },
    { version: 1, files: [file], findings: [] },
    { version: 1, files: [], findings: [finding(1, 'one', [])] },
    { version: 1, files: [file, { ...file, metrics: {} }], findings: [finding(1, 'a\nb \u2028 "c"', [2, 3]), finding(4, '', []), finding(9, 'ü', [1])] },
  ];
}

for (const [format, whole, inPieces] of [
  ['JSON', renderJson, renderJsonPieces],
  ['text', renderText, renderTextPieces],
] as const) {
  test(`the ${format} report in pieces is the same text as in one string`, () => {
    for (const report of reports()) {
      const text = whole(report);
      for (const size of [1, 7, 100, 1 << 20]) {
        const pieces = [...inPieces(report, size)];
        assert.equal(pieces.join(''), text);
        if (size === 1 << 20) assert.equal(pieces.length, 1, 'a small report is one piece');
        else assert.ok(pieces.every((p) => p.length > 0));
      }
    }
  });

  test(`the ${format} report of a thousand findings comes in pieces of about REPORT_PIECE_SIZE characters`, () => {
    const many = Array.from({ length: 1000 }, (_, k) => finding(k + 1, `group dropped: group_has_aborted_X — ${'why '.repeat(60)}`, [k + 2, k + 3]));
    const report: RunReport = { version: 1, files: [], findings: many };
    const pieces = [...inPieces(report)];
    assert.equal(pieces.join(''), whole(report));
    assert.ok(pieces.length > 10, `${pieces.length} pieces`);
    // Each but the last has just reached the size: one part (a line, an array item) past it at most.
    for (const p of pieces.slice(0, -1)) assert.ok(p.length >= REPORT_PIECE_SIZE && p.length < REPORT_PIECE_SIZE + 2000, String(p.length));
  });
}
