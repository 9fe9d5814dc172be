// A step's train_data (docs/semantics.md#train-inference-mismatch): every rank's file of a step,
// read without torch, gives the figures miles main (31f1ca9) logs from the batch, equal to what
// miles' own log_rollout_data, policy loss and aggregate_train_losses gave on the same data
// (test/fixtures/real/miles/mismatch, scripts/mismatch_fixtures.py: step 3 over two data-parallel
// ranks, step 4 over two context-parallel ranks), and the mismatch per token and per sample where
// the loss mask is 1, equal to numpy's over torch.load of the same files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { responseRanges } from '../../../server/src/core/train/cpSlices';
import { lossFigures } from '../../../server/src/core/train/tokenMismatch';
import { analyzeTrainStep, type TrainStepResult } from '../../../server/src/core/train/trainStep';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../lsp/fixtures';
import { parseContract } from '../../shared/jsonContract';
import { runCli, tempDir } from '../cli/run';

const DIR = join(repoRoot(), 'test/fixtures/real/miles/mismatch');

interface ExpectedStep {
  metrics: Record<string, number | string>;
  mismatch: {
    tokens: number;
    nonFinite: number;
    mean: number;
    p50: number;
    p99: number;
    max: number;
    worstSamples: { sample: number; mean: number; tokens: number; max: number }[];
    worstTokens: { sample: number; position: number; token: number; rolloutLogProb: number; trainLogProb: number; absDiff: number }[];
  };
}
const EXPECTED = (JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as { steps: Record<string, ExpectedStep> }).steps;

/** expected.json writes NaN and the infinities as Python's repr. */
function pyNumber(v: number | string): number {
  return typeof v === 'number' ? v : v === 'nan' ? NaN : v === 'inf' ? Infinity : -Infinity;
}

function relative(a: number, b: number): number {
  if (Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b))) return 0;
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
}

async function step(n: number): Promise<TrainStepResult> {
  const files = [0, 1].map((r) => ({ path: join(DIR, `train_data/${n}_${r}.pt`), displayPath: `train_data/${n}_${r}.pt` }));
  return analyzeTrainStep(nodeFileAccess, { step: n, files, join: null });
}

for (const n of [3, 4]) {
  test(`step ${n}: every figure miles logs from the batch equals miles' own`, async () => {
    const r = await step(n);
    const e = EXPECTED[String(n)];
    assert.deepEqual(Object.keys(r.metrics).sort(), Object.keys(e.metrics).sort());
    for (const [name, value] of Object.entries(e.metrics)) {
      const want = pyNumber(value);
      // Sums of Python numbers are float64 as in Python; tensor figures float32 in miles.
      const tolerance = r.float32Figures.includes(name) ? 1e-6 : 1e-15;
      assert.ok(relative(r.metrics[name], want) <= tolerance, `${name}: ${r.metrics[name]} vs miles' ${want}`);
    }
    assert.deepEqual(r.findings, []);
  });

  test(`step ${n}: the mismatch per token and per sample, where the loss mask is 1, equals numpy's`, async () => {
    const m = (await step(n)).mismatch!;
    const e = EXPECTED[String(n)].mismatch;
    assert.deepEqual([m.tokens, m.nonFinite, m.p50, m.p99, m.max, m.approximate], [e.tokens, e.nonFinite, e.p50, e.p99, e.max, false]);
    assert.ok(relative(m.mean, e.mean) <= 1e-12);
    assert.equal(m.worstSamples.length, e.worstSamples.length);
    m.worstSamples.forEach((w, i) => {
      const x = e.worstSamples[i];
      assert.deepEqual([w.sample, w.tokens, w.max], [x.sample, x.tokens, x.max]);
      assert.ok(relative(w.mean, x.mean) <= 1e-12, `sample ${w.sample}`);
    });
    assert.deepEqual(
      m.worstTokens,
      // Without a rollout dump to join, no token's sample has a line.
      e.worstTokens.map((t) => ({ ...t, line: null })),
    );
  });
}

test('the masked-out tool output (15 nats off) counts in neither figure nor distribution', async () => {
  const r = await step(3);
  // Every masked token of step 3 is within 25 nats; the tool spans' 15-nat tokens are all outside
  // the mask, so had they counted, the p50 would not be 0.04 nor the train figure 0.45.
  assert.ok(r.mismatch!.p50 < 0.1);
  assert.ok(r.metrics['train/train_rollout_logprob_abs_diff'] < 1);
});

test("miles' per-token loss figures: nan_to_num, the log-ratio clamp at ±20 and the KL clamp at 10", () => {
  assert.deepEqual(lossFigures(-Infinity, -1), { absDiff: 0, kl: 10 }, '-inf rollout: |diff| inf → 0; log-ratio +inf → 20 → KL 10');
  assert.deepEqual(lossFigures(-1, NaN), { absDiff: 0, kl: 0 }, 'NaN: both 0');
  assert.equal(lossFigures(-1, 2).kl, 10, 'log-ratio 3: exp(3) − 4 = 16.09, clamped to 10');
  assert.equal(lossFigures(-1, -31).kl, 10, 'log-ratio −30 → −20: 19, clamped to 10');
  const small = lossFigures(-1.5, -1.25);
  assert.equal(small.absDiff, 0.25);
  assert.ok(relative(small.kl, Math.exp(0.25) - 1.25) < 1e-6);
});

test("a context-parallel rank's response positions: miles' zigzag chunks, every position once over the ranks", () => {
  // A prompt of 5 and a response of 11 over cp 2 (chunks of 4): rank 0 holds logits 12-14, rank 1 4-11.
  assert.deepEqual(responseRanges(16, 11, 0, 2), [[8, 11]]);
  assert.deepEqual(responseRanges(16, 11, 1, 2), [
    [0, 4],
    [4, 8],
  ]);
  for (let total = 2; total < 40; total++)
    for (let response = 1; response < total; response++)
      for (const cp of [2, 3, 4]) {
        const seen = new Array<number>(response).fill(0);
        for (let rank = 0; rank < cp; rank++) for (const [a, b] of responseRanges(total, response, rank, cp)) for (let p = a; p < b; p++) seen[p]++;
        assert.ok(
          seen.every((c) => c === 1),
          `${total}/${response}/${cp}`,
        );
      }
});

function copyDump(dir: string, metrics?: (line: string) => string): void {
  for (const rel of ['rollout_data/3.pt', 'rollout_data/4.pt', 'train_data/3_0.pt', 'train_data/3_1.pt', 'train_data/4_0.pt', 'train_data/4_1.pt']) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    copyFileSync(join(DIR, rel), join(dir, rel));
  }
  const lines = readFileSync(join(DIR, 'metrics.jsonl'), 'utf8').split('\n');
  writeFileSync(join(dir, 'metrics.jsonl'), lines.map((l) => (metrics && l ? metrics(l) : l)).join('\n'));
}

test('check --format json: each step carries the batch figures and its mismatch; the logged values agree', () => {
  const r = runCli(['check', '--format', 'json', DIR]);
  assert.equal(r.status, 0, r.stderr);
  const report = parseContract(r.stdout);
  assert.deepEqual(
    report.findings.map((f) => f.code),
    [],
  );
  const steps = report.runs[0].steps;
  assert.deepEqual(
    steps.map((s) => [s.step, s.trainData?.samples]),
    [
      [3, 6],
      [4, 4],
    ],
  );
  const three = steps[0];
  assert.equal(three.metrics['rollout/log_probs'], null, 'NaN in the trainer log-probs: miles logs NaN (JSON null)');
  assert.ok(relative(three.metrics['train/train_rollout_kl']!, EXPECTED['3'].metrics['train/train_rollout_kl'] as number) < 1e-6);
  const m = three.trainData!.mismatch!;
  assert.equal(m.rolloutFile, join(DIR, 'rollout_data/3.pt'));
  assert.deepEqual(
    m.worstSamples.map((w) => [w.sample, w.line]),
    [
      [302, 3],
      [300, 1],
      [304, 5],
      [303, 4],
      [301, 2],
    ],
    "joined to the rollout dump: each sample's line is its Sample.index's",
  );
  const text = runCli(['check', DIR]).stdout;
  assert.match(
    text,
    /\n {4}train-inference mismatch \|Δ log-prob\| over 37 masked tokens \(2 not finite\): mean 0\.80281815456377\d*, p50 0\.04197832942008972, p99 17\.080000000000013, max 25\.0; worst sample 302 \(line 3\)/,
  );
});

test('a logged figure that differs from the batch is a metric-mismatch; one of another train/step numbering is not compared', (t) => {
  const dir = tempDir(t);
  copyDump(dir, (l) =>
    l.replace('"train/train_rollout_kl": 0.04071', '"train/train_rollout_kl": 0.05071').replace('"rollout/advantages": 0.5,', '"rollout/advantages": 0.49,'),
  );
  const report = parseContract(runCli(['check', '--format', 'json', dir]).stdout);
  assert.deepEqual(
    report.findings.map((f) => [f.code, f.message.split(':')[0]]),
    [
      ['metric-mismatch', 'rollout/advantages at step 4'],
      ['metric-mismatch', 'train/train_rollout_kl at step 4'],
    ],
  );
  // Two optimizer steps per rollout: train/step 6-9 are not rollouts 3-4, so nothing is compared.
  const other = tempDir(t);
  copyDump(other, (l) =>
    l.includes('"train/step"')
      ? l
          .replace(/"step": (\d)/, (_, s: string) => `"step": ${Number(s) * 2}`)
          .replace('"train/train_rollout_kl": 0.04071', '"train/train_rollout_kl": 0.05071')
      : l,
  );
  assert.deepEqual(parseContract(runCli(['check', '--format', 'json', other]).stdout).findings, []);
});

test("train_data whose samples are not in the step's rollout dump is train-data-misaligned", (t) => {
  const dir = tempDir(t);
  copyDump(dir);
  copyFileSync(join(DIR, 'train_data/4_0.pt'), join(dir, 'train_data/3_0.pt'));
  const report = parseContract(runCli(['check', '--format', 'json', dir]).stdout);
  const f = report.findings.filter((x) => x.code === 'train-data-misaligned');
  assert.equal(f.length, 1);
  assert.equal(f[0].file, join(dir, 'train_data/3_0.pt'));
  assert.match(f[0].message, /^4 of its 4 samples \(sample_indices 400, 401, 402, …\) are not in .*rollout_data\/3\.pt/);
});
