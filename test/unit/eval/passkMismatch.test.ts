// passk-group-size-mismatch without false alarms: no finding where miles main's pass@k (grouped by
// the global n) equals the dataset's own within SAME_PASS_AT_K_TOLERANCE, pass@1 never listed as
// wrong, and advice that agrees with misgrouped-dataset so that following the fixes converges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeEval } from '../../../server/src/core/eval/analyze';
import { parseEvalConfig } from '../../../server/src/core/eval/config';
import { applyNSamplesFix } from '../../../server/src/core/eval/fixConfig';
import { computePassAtK, passAtKDifference, SAME_PASS_AT_K_TOLERANCE } from '../../../server/src/core/eval/passAtK';
import type { Finding } from '../../../server/src/core/vocabulary/types';
import { dataset, settings } from './records';

const config = (name: string, n: number) =>
  parseEvalConfig(`eval:\n  datasets:\n    - name: ${name}\n      n_samples_per_eval_prompt: ${n}\n`, 'eval_config.yaml');
const passk = (findings: readonly Finding[]) => findings.filter((f) => f.code === 'passk-group-size-mismatch');

// The example run's gpqa: 4 prompts × 3 attempts, one reward None (scored 0, as miles does).
const GPQA = dataset('gpqa', [
  [1, 1, 0],
  [0, null, 1],
  [1, 0, 0],
  [1, 1, 1],
]);
const GPQA_FLAT = [1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1];

test("the engine's pass@k of gpqa's rewards is miles' own compute_pass_rate, bit for bit (groups of 2 and 3 differ in the last bit)", () => {
  // Printed by miles 31f1ca9 `miles.utils.metric_utils.compute_pass_rate` (numpy 2.4) on GPQA_FLAT.
  assert.deepEqual(computePassAtK(GPQA_FLAT, 2), { kind: 'metrics', values: { 'pass@1': 0.5833333333333334, 'pass@2': 0.8333333333333334 } });
  assert.deepEqual(computePassAtK(GPQA_FLAT, 3), { kind: 'metrics', values: { 'pass@1': 0.5833333333333333, 'pass@2': 0.8333333333333333 } });
  assert.deepEqual(computePassAtK(GPQA_FLAT, 4), {
    kind: 'metrics',
    values: { 'pass@1': 0.5833333333333334, 'pass@2': 0.8888888888888888, 'pass@4': 1.0 },
  });
});

test('no finding when the global grouping gives the same values within 1e-12 relative (0.5833333333333334 vs 0.5833333333333333)', () => {
  const r = analyzeEval('eval_100.jsonl', 'miles-sample', GPQA, settings({ nSamplesPerEvalPrompt: 2 }), config('gpqa', 3));
  assert.deepEqual(passk(r.findings), []);
  assert.equal(r.datasets[0].wrongPassAtK, undefined);
  assert.deepEqual(r.wrongMetrics, {});
  // The dataset's own values are still miles' figures for groups of 3.
  assert.equal(r.metrics['eval/gpqa-pass@2'], 0.8333333333333333);
});

test('a real difference is a finding; pass@1 is never listed among the wrong values', () => {
  const r = analyzeEval('eval_100.jsonl', 'miles-sample', GPQA, settings({ nSamplesPerEvalPrompt: 4 }), config('gpqa', 3));
  const [f] = passk(r.findings);
  assert.equal(
    f.message,
    'pass@k group-size mismatch: dataset gpqa has 3 samples per prompt but pass@k is grouped by 4: ' +
      'miles main (31f1ca9) reports pass@2 = 0.8888888888888888, pass@4 = 1.0 over wrong groups (right: pass@1 = 0.5833333333333333, pass@2 = 0.8333333333333333); ' +
      "run miles with --n-samples-per-eval-prompt 3 (it groups every dataset's pass@k by that flag)",
  );
  assert.deepEqual(r.datasets[0].wrongPassAtK, { groupSize: 4, metrics: { 'eval/gpqa-pass@2': 0.8888888888888888, 'eval/gpqa-pass@4': 1.0 } });
  assert.deepEqual(Object.keys(r.wrongMetrics), ['eval/gpqa-pass@2', 'eval/gpqa-pass@4']);
  assert.deepEqual(f.fix, { kind: 'set-n-samples-per-eval-prompt', dataset: 'gpqa', value: 3, configFile: null });
});

test('passAtKDifference: the tolerance is 1e-12 relative, pass@1 is skipped, keys the global grouping lacks are missing', () => {
  assert.equal(SAME_PASS_AT_K_TOLERANCE, 1e-12);
  const right = { 'pass@1': 0.5, 'pass@2': 0.5, 'pass@4': 1.0 };
  assert.deepEqual(passAtKDifference({ 'pass@1': 0.5, 'pass@2': 0.5 * (1 + 5e-13) }, right), { wrong: {}, missing: ['pass@4'] });
  assert.deepEqual(passAtKDifference({ 'pass@1': 0.5, 'pass@2': 0.5 * (1 + 5e-12) }, right), { wrong: { 'pass@2': 0.5 * (1 + 5e-12) }, missing: ['pass@4'] });
  // pass@1 does not depend on the grouping: even a value that differs (it cannot, beyond rounding) is not listed.
  assert.deepEqual(passAtKDifference({ 'pass@1': 0.25, 'pass@2': 0.5, 'pass@4': 1.0 }, right), { wrong: {}, missing: [] });
  // A k the dataset's own n has no value for is wrong (over groups that mix prompts).
  assert.deepEqual(passAtKDifference({ 'pass@1': 0.5, 'pass@2': 0.5, 'pass@4': 0.75 }, { 'pass@1': 0.5, 'pass@2': 0.5 }), {
    wrong: { 'pass@4': 0.75 },
    missing: [],
  });
  assert.deepEqual(passAtKDifference({}, right), { wrong: {}, missing: ['pass@1', 'pass@2', 'pass@4'] });
});

test('a global n of 1 logs no pass@k; a dataset of 1 per prompt has none to be right about', () => {
  const seed = dataset('aime', [
    [1, 0, 0, 1],
    [0, 0, 0, 1],
  ]);
  const one = analyzeEval('e.jsonl', 'miles-sample', seed, settings({ nSamplesPerEvalPrompt: 1 }), config('aime', 4));
  assert.match(
    passk(one.findings)[0].message,
    /: miles main \(31f1ca9\) logs no pass@1, pass@2, pass@4 \(right: pass@1 = 0\.375, pass@2 = 0\.6666666666666666, pass@4 = 1\.0\);/,
  );
  const single = dataset('aime', [[1], [0], [1], [1]]);
  const r = analyzeEval('e.jsonl', 'miles-sample', single, settings({ nSamplesPerEvalPrompt: 2 }), config('aime', 1));
  assert.match(passk(r.findings)[0].message, /: miles main \(31f1ca9\) reports pass@2 = 1\.0 over wrong groups \(right: no pass@k with 1 per prompt\);/);
});

test('a misgrouped dataset gets misgrouped-dataset only: its own pass@k is over wrong groups too', () => {
  const seed = dataset('aime', [
    [1, 0, 0, 1],
    [0, 0, 0, 1],
  ]);
  const r = analyzeEval('e.jsonl', 'miles-sample', seed, settings({ nSamplesPerEvalPrompt: 3 }), config('aime', 2));
  assert.deepEqual(
    r.findings.map((f) => [f.code, f.fix?.value]),
    [['misgrouped-dataset', 4]],
  );
  assert.equal(r.datasets[0].wrongPassAtK, undefined);
});

test('following every fix converges: misgrouped-dataset sets the config to what the log shows, passk-group-size-mismatch the flag to the same n, and neither brings the other back', () => {
  // 3 prompts × 4 attempts; the config says 2, miles ran with --n-samples-per-eval-prompt 2.
  const log = dataset('aime', [
    [1, 0, 0, 1],
    [0, 0, 0, 1],
    [1, 1, 0, 0],
  ]);
  let text = 'eval:\n  datasets:\n    - name: aime\n      n_samples_per_eval_prompt: 2   # kept comment\n';
  let global = 2;
  const seen: string[][] = [];
  for (let round = 0; round < 5; round++) {
    const r = analyzeEval('e.jsonl', 'miles-sample', log, settings({ nSamplesPerEvalPrompt: global }), parseEvalConfig(text, 'eval_config.yaml'));
    const fixable = r.findings.filter((f) => f.fix !== null);
    seen.push(fixable.map((f) => `${f.code}→${f.fix!.value}${f.fix!.configFile ? ' in config' : ' flag'}`));
    if (fixable.length === 0) break;
    for (const f of fixable) {
      if (f.fix!.configFile) text = applyNSamplesFix(text, f.fix!.configFile, f.fix!).text;
      else global = f.fix!.value;
    }
  }
  assert.deepEqual(seen, [['misgrouped-dataset→4 in config'], ['passk-group-size-mismatch→4 flag'], []]);
  assert.equal(text, 'eval:\n  datasets:\n    - name: aime\n      n_samples_per_eval_prompt: 4   # kept comment\n');
  assert.equal(global, 4);
});
