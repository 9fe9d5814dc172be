import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderEvalTable } from '../../../server/src/cli/evalTable';
import { analyzeEval } from '../../../server/src/core/eval/analyze';
import { parseEvalConfig } from '../../../server/src/core/eval/config';
import type { FileReport } from '../../../server/src/core/vocabulary/types';
import { dataset, settings } from './records';

function report(path: string, r: ReturnType<typeof analyzeEval>, withDetail = true): FileReport {
  const f: FileReport = {
    path,
    format: 'miles-sample',
    kind: 'eval',
    records: 0,
    invalidLines: 0,
    groups: { total: 0, kept: 0, dropped: 0 },
    metrics: r.metrics,
  };
  if (withDetail) f.detail = { samples: [], groups: [], datasets: r.datasets, metricsRecords: [], source: path };
  return f;
}

test('text report table: score, none ratio, truncated ratio, pass@k by the right n, wrong values / crash by the global n', () => {
  const cfg = parseEvalConfig(
    'eval:\n  datasets:\n    - name: aime\n      n_samples_per_eval_prompt: 4\n    - name: gpqa\n      n_samples_per_eval_prompt: 3\n',
    'c.yaml',
  );
  const rows = [
    ...dataset('aime', [
      [1, 0, 0, 1],
      [0, 0, 0, 1],
    ]),
    ...dataset(
      'gpqa',
      [
        [1, null, 1],
        [0, 0, 1],
      ],
      { firstLine: 9 },
    ),
  ];
  const r = analyzeEval('eval_2.jsonl', 'miles-sample', rows, settings({ nSamplesPerEvalPrompt: 2 }), cfg);
  const text = renderEvalTable(report('eval_2.jsonl', r));
  // gpqa pass@1 is numpy's (0.6666666666666666 + 0.33333333333333326) / 2, not 0.5 (verified with numpy).
  assert.equal(
    text,
    [
      'eval datasets in eval_2.jsonl:',
      '  dataset  samples  n            score  none_reward_ratio    truncated_ratio  pass@1               pass@2              pass@4',
      '  aime     8        4 (dataset)  0.375  0.0                  0.0              0.375                0.6666666666666666  1.0',
      '  gpqa     6        3 (dataset)  0.5    0.16666666666666666  0.0              0.49999999999999994  0.8333333333333333  -',
      // Only what the global grouping gets wrong: pass@1 never (0.5 here is 0.49999999999999994 rounded
      // otherwise), and aime's pass@4, which miles does not log.
      '  aime: grouped by the global n = 2 (miles main 31f1ca9): pass@2 = 0.75, no pass@4',
      '  gpqa: grouped by the global n = 2 (miles main 31f1ca9): pass@2 = 1.0',
      '',
    ].join('\n'),
  );
});

test('text report table escapes control characters in dataset names (log text)', () => {
  const r = analyzeEval('e.jsonl', 'miles-sample', dataset('x\u001b[31m', [[1]]), settings(), null);
  const text = renderEvalTable(report('e.jsonl', r));
  assert.ok(!text.includes('\u001b'));
  assert.ok(text.includes('x\\x1b[31m'));
});

test('text report table without detail reads datasets back from the metric names', () => {
  const r = analyzeEval('e.jsonl', 'miles-sample', dataset('aime', [[1, 0]]), settings({ nSamplesPerEvalPrompt: 2 }), null);
  const text = renderEvalTable(report('e.jsonl', r, false));
  assert.match(text, /\n {2}aime +- +- +0\.5 +0\.0 +0\.0 +0\.5 +1\.0\n/);
});

test('text report: verl validation shows val-core beside the per-N means in val-aux', () => {
  const f: FileReport = {
    path: 'val/3.jsonl',
    format: 'verl-validation',
    kind: 'eval',
    records: 7,
    invalidLines: 0,
    groups: { total: 2, kept: 2, dropped: 0 },
    metrics: { 'val-core/gsm8k/reward/mean@4': 0.875, 'val-aux/gsm8k/reward/mean@3': 0.5, 'val-aux/gsm8k/reward/std@4': 0.2 },
  };
  assert.equal(
    renderEvalTable(f),
    [
      'verl validation metrics in val/3.jsonl (val-core averages only prompts with all their samples):',
      '  metric                        value',
      '  val-core/gsm8k/reward/mean@4  0.875',
      '  val-aux/gsm8k/reward/mean@3   0.5',
      '',
    ].join('\n'),
  );
});
