import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeEval } from '../../../server/src/core/eval/analyze';
import { parseEvalConfig } from '../../../server/src/core/eval/config';
import type { EvalConfig } from '../../../server/src/core/eval/config';
import { dataset, rec, settings } from './records';

const SEED_CONFIG = `eval:
  datasets:
    - name: aime
      path: /data/aime.jsonl
      n_samples_per_eval_prompt: 4   # own n
`;
// 2 prompts × 4 attempts: prompt 0 solved twice, prompt 1 once.
const SEED = dataset('aime', [
  [1, 0, 0, 1],
  [0, 0, 0, 1],
]);

function seedConfig(): EvalConfig {
  return parseEvalConfig(SEED_CONFIG, 'eval_config.yaml');
}

test('seed: 4 per dataset, 3 globally, 2 prompts → AssertionError: len(flat_rewards)=8 num_groups=2 group_size=3', () => {
  const r = analyzeEval('eval_7.jsonl', 'miles-sample', SEED, settings({ nSamplesPerEvalPrompt: 3 }), seedConfig());
  const f = r.findings.filter((x) => x.code === 'passk-group-size-mismatch');
  assert.equal(f.length, 1);
  assert.equal(f[0].severity, 'warning');
  assert.equal(f[0].line, 1);
  assert.ok(
    f[0].message.startsWith(
      'pass@k group-size mismatch: dataset aime has 4 samples per prompt but pass@k is grouped by 3: miles main (31f1ca9) fails with AssertionError: len(flat_rewards)=8 num_groups=2 group_size=3',
    ),
    f[0].message,
  );
  // The fix names the global flag at the dataset's own n: the config already says 4, as the log shows.
  assert.deepEqual(f[0].fix, { kind: 'set-n-samples-per-eval-prompt', dataset: 'aime', value: 4, configFile: null });
  assert.deepEqual(f[0].related, [{ file: 'eval_config.yaml', line: 5 }]);
  assert.deepEqual(r.datasets[0].wrongPassAtK, { groupSize: 3, crash: 'AssertionError: len(flat_rewards)=8 num_groups=2 group_size=3' });
});

test('seed: 2 globally → wrong pass@1 = 0.375, pass@2 = 0.75 next to the right 0.375, 2/3, 1.0 (hand-computed)', () => {
  const r = analyzeEval('eval_7.jsonl', 'miles-sample', SEED, settings({ nSamplesPerEvalPrompt: 2 }), seedConfig());
  // Right (groups of 4): c = 2 and 1. pass@1 = (2/4 + 1/4)/2; pass@2 = ((1 − C(2,2)/C(4,2)) + (1 − C(3,2)/C(4,2)))/2
  // = (5/6 + 1/2)/2 = 2/3; pass@4 = 1 (n − c < 4 in both groups).
  assert.equal(r.metrics['eval/aime-pass@1'], 0.375);
  assert.ok(Math.abs(r.metrics['eval/aime-pass@2'] - 2 / 3) < 1e-15);
  assert.equal(r.metrics['eval/aime-pass@2'], 0.6666666666666666); // numpy's double
  assert.equal(r.metrics['eval/aime-pass@4'], 1.0);
  // Wrong (groups of 2): [1,0] [0,1] [0,0] [0,1] → c = 1,1,0,1. pass@1 = 1.5/4 (right: grouping never
  // changes pass@1, so it is not listed); pass@2 = 3/4; pass@4 is not logged.
  assert.deepEqual(r.datasets[0].wrongPassAtK, { groupSize: 2, metrics: { 'eval/aime-pass@2': 0.75 } });
  assert.equal(r.datasets[0].n, 4);
  assert.equal(r.datasets[0].nSource, 'dataset');
  const f = r.findings.find((x) => x.code === 'passk-group-size-mismatch')!;
  assert.equal(
    f.message,
    'pass@k group-size mismatch: dataset aime has 4 samples per prompt but pass@k is grouped by 2: ' +
      'miles main (31f1ca9) reports pass@2 = 0.75 over wrong groups and logs no pass@4 (right: pass@1 = 0.375, pass@2 = 0.6666666666666666, pass@4 = 1.0); ' +
      "run miles with --n-samples-per-eval-prompt 4 (it groups every dataset's pass@k by that flag)",
  );
  assert.deepEqual(r.wrongMetrics, { 'eval/aime-pass@2': { groupSize: 2, ownGroupSize: 4, value: 0.75 } });
});

test("no mismatch when the global n equals the dataset's, or when the global n is not told", () => {
  for (const g of [4, null]) {
    const r = analyzeEval('e.jsonl', 'miles-sample', SEED, settings({ nSamplesPerEvalPrompt: g }), seedConfig());
    assert.equal(r.findings.filter((x) => x.code === 'passk-group-size-mismatch').length, 0);
    assert.equal(r.datasets[0].wrongPassAtK, undefined);
  }
});

test('n resolution: dataset entry → eval.defaults → global → inferred', () => {
  const cfg = parseEvalConfig(
    'eval:\n  defaults:\n    n_samples_per_eval_prompt: 2\n  datasets:\n    - name: a\n      n_samples_per_eval_prompt: 4\n    - name: b\n',
    'c.yaml',
  );
  const a = dataset('a', [[1, 0, 0, 0]]);
  const b = dataset(
    'b',
    [
      [1, 0],
      [1, 1],
    ],
    { firstLine: 5 },
  );
  const r = analyzeEval('e.jsonl', 'miles-sample', [...a, ...b], settings({ nSamplesPerEvalPrompt: 8 }), cfg);
  assert.deepEqual(
    r.datasets.map((d) => [d.name, d.n, d.nSource]),
    [
      ['a', 4, 'dataset'],
      ['b', 2, 'defaults'],
    ],
  );
  const g = analyzeEval('e.jsonl', 'miles-sample', b, settings({ nSamplesPerEvalPrompt: 2 }), null);
  assert.deepEqual([g.datasets[0].n, g.datasets[0].nSource], [2, 'global']);
  assert.equal(g.findings.length, 0);
});

test('nothing told → n inferred from identical consecutive prompts, with group-size-inferred (information)', () => {
  const r = analyzeEval(
    'e.jsonl',
    'miles-sample',
    dataset('gsm', [
      [1, 0, 1],
      [0, 0, 1],
    ]),
    settings(),
    null,
  );
  assert.deepEqual([r.datasets[0].n, r.datasets[0].nSource], [3, 'inferred']);
  const f = r.findings.find((x) => x.code === 'group-size-inferred')!;
  assert.equal(f.severity, 'information');
  assert.equal(
    f.message,
    'n_samples_per_eval_prompt of dataset gsm inferred from the log as 3 (every prompt repeats 3 times in a row); set it in the eval config or with --n-samples-per-eval-prompt',
  );
  // Groups of 3 with c = 2 and 1: pass@2 = (1.0 + (1 − C(2,2)/C(3,2)))/2 = (1 + 2/3)/2 = 5/6.
  assert.ok(Math.abs(r.metrics['eval/gsm-pass@2'] - 5 / 6) < 1e-15);
  // Unequal runs → 1, and no pass@k at all.
  const u = analyzeEval(
    'e.jsonl',
    'miles-sample',
    dataset('gsm', [
      [1, 0, 1],
      [0, 1],
    ]),
    settings(),
    null,
  );
  assert.deepEqual([u.datasets[0].n, u.datasets[0].nSource], [1, 'inferred']);
  assert.ok(u.findings[0].message.includes('as 1 (prompt runs have different lengths)'));
  assert.equal(
    Object.keys(u.metrics).some((k) => k.includes('pass@')),
    false,
  );
});

test('misgrouped-dataset: prompts repeat m = 4 times but n = 2 → error with fix value 4', () => {
  const cfg = parseEvalConfig('eval:\n  datasets:\n    - name: aime\n      n_samples_per_eval_prompt: 2\n', 'c.yaml');
  const r = analyzeEval('e.jsonl', 'miles-sample', SEED, settings(), cfg);
  const f = r.findings.find((x) => x.code === 'misgrouped-dataset')!;
  assert.equal(f.severity, 'error');
  assert.equal(
    f.message,
    'dataset aime is misgrouped: prompts repeat 4 times in a row but n_samples_per_eval_prompt is 2, so every pass@k is over wrong groups; set it to 4',
  );
  assert.deepEqual(f.fix, { kind: 'set-n-samples-per-eval-prompt', dataset: 'aime', value: 4, configFile: 'c.yaml' });
  assert.deepEqual(f.related, [{ file: 'c.yaml', line: 4 }]);
  // Without an eval config the fix still names the value (configFile null: set the flag).
  const g = analyzeEval('e.jsonl', 'miles-sample', SEED, settings({ nSamplesPerEvalPrompt: 2 }), null);
  assert.deepEqual(g.findings.find((x) => x.code === 'misgrouped-dataset')!.fix, {
    kind: 'set-n-samples-per-eval-prompt',
    dataset: 'aime',
    value: 4,
    configFile: null,
  });
  // m == n: nothing.
  assert.equal(analyzeEval('e.jsonl', 'miles-sample', SEED, settings({ nSamplesPerEvalPrompt: 4 }), null).findings.length, 0);
});

test("sample count not a multiple of n → misgrouped-dataset carrying miles' assertion, no pass@k", () => {
  const seven = SEED.slice(0, 7); // prompt 1 lost an attempt: runs 4 and 3
  const r = analyzeEval('e.jsonl', 'miles-sample', seven, settings({ nSamplesPerEvalPrompt: 4 }), null);
  const f = r.findings.find((x) => x.code === 'misgrouped-dataset')!;
  assert.equal(
    f.message,
    'dataset aime is misgrouped: 7 samples are not a whole number of groups of 4, so miles fails with AssertionError: len(flat_rewards)=7 num_groups=1 group_size=4',
  );
  assert.equal(f.fix, null);
  assert.equal(r.metrics['eval/aime-pass@1'], undefined);
});

test('all attempts aborted → eval-all-aborted with the TypeError; correct result score 0.0, none_reward_ratio 1.0', () => {
  const r = analyzeEval(
    'e.jsonl',
    'miles-sample',
    dataset('swe', [
      [null, null],
      [null, null],
    ]),
    settings({ nSamplesPerEvalPrompt: 2 }),
    null,
  );
  assert.equal(r.metrics['eval/swe'], 0.0);
  assert.equal(r.metrics['eval/swe-none_reward_ratio'], 1.0);
  assert.equal(r.metrics['eval/swe-pass@1'], 0.0);
  assert.equal(r.metrics['eval/swe-pass@2'], 0.0);
  const f = r.findings.filter((x) => x.code === 'eval-all-aborted');
  assert.equal(f.length, 1);
  assert.equal(f[0].severity, 'error');
  assert.equal(
    f[0].message,
    "every attempt of dataset swe aborted (4 of 4): miles main (31f1ca9) crashes evaluation with TypeError: type NoneType doesn't define __round__ method; the correct result is eval/swe = 0.0 with eval/swe-none_reward_ratio = 1.0",
  );
  assert.equal(r.findings.filter((x) => x.code === 'none-reward').length, 0);
});

test('mixed None rewards: none-reward warning with the exact text; None scored 0 in score and pass@k', () => {
  const ds = dataset('math', [[1, null, 0.5, null]]);
  const r = analyzeEval('e.jsonl', 'miles-sample', ds, settings({ nSamplesPerEvalPrompt: 4 }), null);
  const f = r.findings.find((x) => x.code === 'none-reward')!;
  assert.equal(f.message, '2 of 4 attempts of dataset math have no reward (likely errored/aborted trials); they are scored 0');
  assert.equal(f.severity, 'warning');
  assert.equal(f.line, 2);
  assert.deepEqual(f.related, [{ file: 'e.jsonl', line: 4 }]);
  assert.equal(r.metrics['eval/math-none_reward_ratio'], 0.5);
  assert.equal(r.metrics['eval/math'], 1.5 / 4);
  assert.equal(r.metrics['eval/math-pass@1'], 0.25); // only the reward exactly 1 counts
  assert.equal(
    r.findings.some((x) => x.code === 'eval-all-aborted'),
    false,
  );
});

test('object rewards: the eval side scores the value the reader resolved with evalRewardKey', () => {
  // The reader puts reward[evalRewardKey] in `reward`; other named rewards are not the score.
  const ds = [1, 0, 1, 1].map((v, i) =>
    rec({ line: i + 1, index: i, dataset: 'code', promptKey: 'p', reward: v, rewardIsInt: true, vars: { format_reward: 1 } }),
  );
  const r = analyzeEval('e.jsonl', 'miles-sample', ds, settings({ evalRewardKey: 'accuracy', nSamplesPerEvalPrompt: 4 }), null);
  assert.equal(r.metrics['eval/code'], 0.75);
  assert.equal(r.metrics['eval/code-pass@1'], 0.75);
});

test('truncated_ratio = share of status truncated; metric names exactly as miles logs them', () => {
  const ds = dataset('long', [[1, 0, 1, 0]]);
  ds[1].status = 'truncated';
  const r = analyzeEval('e.jsonl', 'miles-sample', ds, settings({ nSamplesPerEvalPrompt: 4 }), null);
  assert.deepEqual(Object.keys(r.metrics).sort(), [
    'eval/long',
    'eval/long-none_reward_ratio',
    'eval/long-pass@1',
    'eval/long-pass@2',
    'eval/long-pass@4',
    'eval/long-truncated_ratio',
  ]);
  assert.equal(r.metrics['eval/long-truncated_ratio'], 0.25);
});

test('datasets without names told apart by index restarts, matched to the eval config order', () => {
  const cfg = parseEvalConfig('eval:\n  datasets:\n    gpqa: {n_samples_per_eval_prompt: 2}\n    aime: {n_samples_per_eval_prompt: 3}\n', 'c.yaml');
  const first = dataset(
    null,
    [
      [1, 0],
      [1, 1],
    ],
    { promptPrefix: 'x' },
  );
  const second = dataset(null, [[0, 0, 1]], { firstLine: 5, promptPrefix: 'y' });
  const r = analyzeEval('eval_3.jsonl', 'miles-sample', [...first, ...second], settings(), cfg);
  assert.deepEqual(
    r.datasets.map((d) => [d.name, d.samples, d.n]),
    [
      ['gpqa', 4, 2],
      ['aime', 3, 3],
    ],
  );
  assert.equal(r.metrics['eval/gpqa'], 0.75);
  assert.equal(r.metrics['eval/aime'], 1 / 3);
  // Names missing on one dataset only: the unnamed segment takes its config position.
  const named = dataset('gpqa', [
    [1, 0],
    [1, 1],
  ]);
  const r2 = analyzeEval('eval_3.jsonl', 'miles-sample', [...named, ...second], settings(), cfg);
  assert.deepEqual(
    r2.datasets.map((d) => d.name),
    ['gpqa', 'aime'],
  );
  // No config → the file's name.
  const r3 = analyzeEval('run/eval_3.jsonl', 'miles-sample', second, settings(), null);
  assert.deepEqual(
    r3.datasets.map((d) => d.name),
    ['eval_3'],
  );
});

test('index restarts only split miles files; other formats fall back to the file name', () => {
  const rows = [...dataset(null, [[1, 0]]), ...dataset(null, [[1, 1]], { firstLine: 3 })];
  const cfg = parseEvalConfig('datasets:\n  - name: a\n  - name: b\n', 'c.yaml');
  assert.deepEqual(
    analyzeEval('t.jsonl', 'miles-trajectory', rows, settings(), cfg).datasets.map((d) => d.name),
    ['a', 'b'],
  );
  assert.deepEqual(
    analyzeEval('t.jsonl', 'generic', rows, settings(), cfg).datasets.map((d) => d.name),
    ['t'],
  );
});

test('samples are sorted by index before cutting into groups (line order does not matter)', () => {
  const shuffled = [...SEED].reverse().map((s, i) => ({ ...s, line: i + 1 }));
  const r = analyzeEval('e.jsonl', 'miles-sample', shuffled, settings({ nSamplesPerEvalPrompt: 4 }), null);
  assert.equal(r.metrics['eval/aime-pass@2'], 0.6666666666666666);
  assert.equal(r.findings.length, 0);
});

test('miles-eval-trials: trials grouped per instance_id (trial_idx restarts per instance)', () => {
  const rows = ['a', 'b', 'a', 'b'].map((inst, i) => rec({ line: i + 1, groupKey: inst, promptKey: inst, index: i < 2 ? 0 : 1, reward: inst === 'a' ? 1 : 0 }));
  const r = analyzeEval('swe_trials.jsonl', 'miles-eval-trials', rows, settings({ nSamplesPerEvalPrompt: 2 }), null);
  assert.equal(r.findings.length, 0);
  assert.equal(r.metrics['eval/swe_trials-pass@2'], 0.5);
});

test("step of an eval file: records' step, else the number in its name", () => {
  assert.equal(analyzeEval('eval_12.jsonl', 'miles-sample', dataset('a', [[1]], { step: 40 }), settings(), null).step, 40);
  assert.equal(analyzeEval('dir/eval_12.jsonl', 'miles-sample', dataset('a', [[1]]), settings(), null).step, 12);
});
