import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeEval } from '../../../server/src/core/eval/analyze';
import { analyzeVerlRollout } from '../../../server/src/core/eval/verlRollout';
import { compareMetrics } from '../../../server/src/core/eval/compareMetrics';
import { rec, settings } from './records';
import type { SampleRecord } from '../../../server/src/core/vocabulary/types';

/** verl rollout rows: score per row, '' output → aborted. */
function rolloutRows(rows: [number, boolean][]): SampleRecord[] {
  return rows.map(([score, empty], i) => rec({ line: i + 1, groupKey: `u${i >> 2}`, reward: score, aborted: empty, status: empty ? 'aborted' : null }));
}

test('denominator inflation (verl rollout): critic/score/mean skips empty outputs; all-attempts figure beside it', () => {
  const rows = rolloutRows([
    [1, false],
    [0, false],
    [0, true],
    [1, false],
    [1, false],
    [0, true],
    [0, false],
    [1, false],
  ]);
  const r = analyzeVerlRollout('rollout/12.jsonl', rows);
  // Kept rows: 1,0,1,1,0,1 → 4/6. All 8 rows: 4/8. Two of eight empty → 0.25.
  assert.equal(r.metrics['critic/score/mean'], 4 / 6);
  assert.equal(r.metrics['critic/score/mean'], 0.6666666666666666);
  assert.equal(r.metrics['response/aborted_ratio'], 0.25);
  assert.equal(r.allAttemptsScoreMean, 0.5);
  // Beside verl-not-recomputed (on every rollout dump), one finding.
  assert.deepEqual(
    r.findings.map((x) => x.code),
    ['verl-not-recomputed', 'denominator-inflation'],
  );
  const f = r.findings[1];
  assert.equal(f.code, 'denominator-inflation');
  assert.equal(f.severity, 'warning');
  assert.equal(f.line, 3);
  assert.deepEqual(f.related, [{ file: 'rollout/12.jsonl', line: 6 }]);
  assert.equal(
    f.message,
    "critic/score/mean = 0.6666666666666666 leaves out 2 of 8 rows with empty output (response/aborted_ratio = 0.25); over all 8 attempts the mean score is 0.5; an empty output is either an aborted response (response_length 0, which verl leaves out of critic/score/* and counts in response/aborted_ratio) or a response of only an end token (response_length 1, which verl counts as not aborted), and the dump cannot tell them apart, so verl's own figures lie in these ranges: critic/score/mean between 0.5 and 0.6666666666666666, critic/score/max between 1.0 and 1.0, critic/score/min between 0.0 and 0.0, response/aborted_ratio between 0.0 and 0.25",
  );
  // Both empty rows end-token-only: verl averages all 8 (0.5) and logs no aborted row.
  assert.deepEqual(r.ranges['critic/score/mean'], { least: 0.5, most: 4 / 6 });
  assert.deepEqual(r.ranges['response/aborted_ratio'], { least: 0, most: 0.25 });
});

test('verl rollout: 13 kept of 19 → exact float64 13/19 (verl logs float32 0.6842105388641357)', () => {
  const rows = rolloutRows([...Array(13).fill([1, false]), ...Array(6).fill([0, false])]);
  const r = analyzeVerlRollout('r.jsonl', rows);
  assert.equal(r.metrics['critic/score/mean'], 0.6842105263157895);
  assert.equal(r.metrics['response/aborted_ratio'], 0);
  assert.deepEqual(
    r.findings.map((x) => x.code),
    ['verl-not-recomputed'],
  );
});

test('verl rollout: empty rows that would not change the mean still leave aborted_ratio a range; all rows empty is said', () => {
  const same = analyzeVerlRollout(
    'r.jsonl',
    rolloutRows([
      [0.5, false],
      [0.5, true],
    ]),
  );
  assert.deepEqual(
    same.findings.map((x) => x.code),
    ['verl-not-recomputed', 'denominator-inflation'],
  );
  assert.match(
    same.findings[1].message,
    /^critic\/score\/mean = 0\.5 leaves out 1 of 2 rows with empty output \(response\/aborted_ratio = 0\.5\), the same as over all 2 attempts;/,
  );
  assert.match(same.findings[1].message, /response\/aborted_ratio between 0\.0 and 0\.5$/);
  const allEmpty = analyzeVerlRollout(
    'r.jsonl',
    rolloutRows([
      [0, true],
      [0, true],
    ]),
  );
  assert.ok(Number.isNaN(allEmpty.metrics['critic/score/mean']));
  // What verl does, run on such a batch (scripts/audit-metrics.py): verl-project/verl 1dda039 logs
  // nan, volcengine/verl b178a3c's torch.max raises before its own ValueError is reached.
  assert.ok(
    allEmpty.findings[1].message.includes(
      "(response/aborted_ratio = 1.0; verl-project/verl 1dda039 logs critic/score/* as nan; volcengine/verl b178a3c raises RuntimeError: max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.);",
    ),
    allEmpty.findings[1].message,
  );
  // If some were only an end token, verl averages those.
  assert.match(allEmpty.findings[1].message, /critic\/score\/mean between 0\.0 and 0\.0, .* response\/aborted_ratio between 0\.0 and 1\.0$/);
});

test("verl rollout ranges: each empty row in or out of verl's figures; the bounds are choices verl could have made", () => {
  // Kept 0.5; empty rows scored 1 and 0. Counting the 1 alone: 0.75; the 0 alone: 0.25; both: 0.5.
  const r = analyzeVerlRollout(
    'r.jsonl',
    rolloutRows([
      [1, true],
      [0, true],
      [0.5, false],
    ]),
  );
  assert.deepEqual(r.ranges, {
    'response/aborted_ratio': { least: 0, most: 2 / 3 },
    'critic/score/mean': { least: 0.25, most: 0.75 },
    'critic/score/max': { least: 0.5, most: 1 },
    'critic/score/min': { least: 0, most: 0.5 },
  });
  // A score that is not finite decides the mean whatever the choice: no score ranges stated.
  const nan = analyzeVerlRollout(
    'r.jsonl',
    rolloutRows([
      [NaN, true],
      [0.5, false],
    ]),
  );
  assert.deepEqual(Object.keys(nan.ranges), ['response/aborted_ratio']);
});

function valRows(ds: string | null, perUid: Record<string, number[]>, extra?: (uid: string, i: number) => Record<string, number>): SampleRecord[] {
  const out: SampleRecord[] = [];
  for (const [uid, rewards] of Object.entries(perUid)) {
    rewards.forEach((reward, i) => out.push(rec({ line: out.length + 1, groupKey: uid, dataset: ds, reward, vars: { reward, ...(extra?.(uid, i) ?? {}) } })));
  }
  return out;
}

test('verl validation: mean@N/std@N per uid averaged over uids; a prompt that lost a sample goes to val-aux', () => {
  const rows = valRows('gsm8k', { a: [1, 0, 1, 1], b: [0, 0, 0, 1], c: [0, 0, 1] });
  const r = analyzeEval('val/5.jsonl', 'verl-validation', rows, settings(), null);
  assert.equal(r.metrics['val-core/gsm8k/reward/mean@4'], 0.5); // (0.75 + 0.25) / 2: c is left out
  assert.equal(r.metrics['val-aux/gsm8k/reward/mean@3'], 1 / 3);
  assert.equal(r.metrics['val-aux/gsm8k/reward/std@4'], Math.sqrt(0.1875)); // population std of [1,0,1,1]
  assert.equal(r.metrics['val-aux/gsm8k/reward/std@3'], Math.sqrt(2 / 9));
  assert.deepEqual(
    r.datasets.map((d) => [d.name, d.samples, d.n]),
    [['gsm8k', 11, 4]],
  );
  const f = r.findings.find((x) => x.code === 'denominator-inflation')!;
  assert.equal(f.line, 9);
  assert.equal(f.dataset, 'gsm8k');
  // All attempts, the lost one scored 0: (3 + 1 + 1) / 12.
  assert.equal(
    f.message,
    'val-core/gsm8k/reward/mean@4 = 0.5 averages only the 2 of 3 prompts that kept all 4 samples; 1 prompt that lost samples goes to val-aux (mean@3); over all 12 attempts (lost ones scored 0) the mean is 0.4166666666666667',
  );
});

test('verl validation: acc is the core variable when present; no data_source → one combined figure and a finding; complete groups → no inflation', () => {
  const rows = valRows(null, { a: [1, 1], b: [0, 1] }, (uid, i) => ({ acc: uid === 'a' ? 1 : i }));
  const r = analyzeEval('val/7.jsonl', 'verl-validation', rows, settings(), null);
  assert.equal(r.metrics['val-core/(all data sources)/acc/mean@2'], 0.75);
  assert.equal(r.metrics['val-aux/(all data sources)/reward/mean@2'], 0.75);
  assert.equal(r.metrics['val-core/(all data sources)/reward/mean@2'], undefined);
  assert.equal(r.metrics['val-core/7/acc/mean@2'], undefined, 'the file name is not a data source');
  assert.deepEqual(
    r.findings.map((f) => [f.code, f.line, f.dataset]),
    [['verl-no-data-source', 1, '(all data sources)']],
  );
  assert.equal(
    r.findings[0].message,
    "the dump has no data_source (all 4 rows): verl reports val-core/<data_source>/… per data source at run time, but its dump does not write the data source, so per-source figures cannot be recomputed; the figures over every prompt without one are under val-core/(all data sources)/… (not a verl metric). To get per-source figures, return data_source in the reward function's extra info (it is then dumped as a column)",
  );
});

test('logged vs recomputed: a verl figure logged inside the range the dump allows is no metric-mismatch; outside it is', () => {
  const r = analyzeVerlRollout(
    'rollout/3.jsonl',
    rolloutRows([
      [1, true],
      [0, true],
      [0.5, false],
    ]),
  );
  const record = (metrics: Record<string, number>) => ({ line: 1, offset: 0, byteLength: 1, step: 3, stepKey: 'step', metrics });
  const recomputed = [{ file: 'rollout/3.jsonl', step: 3, metrics: r.metrics, ranges: r.ranges }];
  // verl with the row scored 1 counted (only an end token): mean 0.75, max 1, ratio 1/3 (float32).
  const inside = record({ 'critic/score/mean': 0.75, 'critic/score/max': 1, 'response/aborted_ratio': 0.3333333432674408 });
  assert.deepEqual(compareMetrics('metrics.jsonl', [inside], recomputed), []);
  const outside = record({ 'critic/score/mean': 0.8, 'response/aborted_ratio': 0.7 });
  assert.deepEqual(
    compareMetrics('metrics.jsonl', [outside], recomputed).map((f) => f.message.split(':')[0]),
    ['critic/score/mean at step 3', 'response/aborted_ratio at step 3'],
  );
  // Without the ranges, the first record differs from the all-aborted figures.
  assert.equal(compareMetrics('metrics.jsonl', [inside], [{ ...recomputed[0], ranges: undefined }]).length, 3);
});
