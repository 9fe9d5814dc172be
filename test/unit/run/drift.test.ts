// The drift finder (docs/semantics.md#log-prob-drift, docs/diagnostics.md#logprob-drift): the
// first step whose mismatch leaves the band of the run's early steps, with its excess by bucket.
// End to end on a run miles' own writers made (scripts/mismatch_fixtures.py drift_all): 9 steps,
// the trainer's log-probs 0.5 nats noisier from step 6 on in the samples with mixed weight
// versions only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { baselineSize, type BucketTable, type DriftStep, findDrift } from '../../../server/src/core/train/drift';
import { repoRoot } from '../../lsp/fixtures';
import { parseContract } from '../../shared/jsonContract';
import { runCli, tempDir } from '../cli/run';

const DIR = join(repoRoot(), 'test/fixtures/real/miles/drift');

function steps(
  means: number[],
  buckets: (i: number) => BucketTable = (i) => ({ 'weight versions': { one: { sum: means[i] * 100, tokens: 100 } } }),
): DriftStep[] {
  return means.map((mean, i) => ({ step: i, mean, tokens: 100, buckets: buckets(i), file: `rollout_data/${i}.pt` }));
}

test('the band: median and scaled MAD of the early steps (a third of the run, 3 to 10), at least a quarter over the median', () => {
  assert.deepEqual([2, 9, 12, 30, 60].map(baselineSize), [3, 3, 4, 10, 10]);
  // Early steps 0.10, 0.11, 0.12: median 0.11, MAD 0.01 → band up to 0.11 + 4·1.4826·0.01 = 0.1693.
  assert.equal(findDrift(steps([0.1, 0.11, 0.12, 0.16, 0.169])), null);
  const d = findDrift(steps([0.1, 0.11, 0.12, 0.16, 0.17, 0.5]))!;
  assert.equal(d.step, 4, 'the first step past the band, not the largest');
  assert.deepEqual([d.baseline.first, d.baseline.last, d.baseline.median, d.baseline.mad], [0, 2, 0.11, 0.009999999999999995]);
  // Identical early steps: the band is 25% over their median.
  assert.equal(findDrift(steps([0.2, 0.2, 0.2, 0.249])), null);
  assert.equal(findDrift(steps([0.2, 0.2, 0.2, 0.251]))!.step, 3);
  assert.equal(findDrift(steps([0.2, 0.2, 0.2])), null, 'no step after the band');
});

test("a bucket's share of the excess is Σ(|Δ| − median) over its tokens; the bucket most over its token share comes first", () => {
  const d = findDrift(
    steps([0.1, 0.1, 0.1, 0.4], (i): BucketTable =>
      i < 3
        ? {}
        : {
            // 40 mixed tokens at 0.85, 60 at 0.1: excess 40·0.75 = 30 of 30.
            'weight versions': { mixed: { sum: 34, tokens: 40 }, one: { sum: 6, tokens: 60 } },
            'token position': { '0–127': { sum: 40, tokens: 100 } },
          },
    ),
  )!;
  assert.equal(d.step, 3);
  assert.deepEqual(
    d.shares.map((s) => [s.dimension, s.bucket, Math.round(s.excessShare * 1000) / 1000, s.tokenShare]),
    [
      ['weight versions', 'mixed', 1, 0.4],
      ['token position', '0–127', 1, 1],
    ],
  );
});

test('check: drift injected from step 6 only in samples with mixed weight versions is found at step 6, that bucket named with most of the excess', () => {
  const report = parseContract(runCli(['check', '--format', 'json', DIR]).stdout);
  const drift = report.findings.filter((f) => f.code === 'logprob-drift');
  assert.equal(drift.length, 1);
  assert.equal(drift[0].file, join(DIR, 'rollout_data/6.pt'));
  assert.match(drift[0].message, /^step 6: the train-inference log-prob mismatch \(mean \|Δ\| [0-9.]+ over masked tokens\) leaves the band of steps 0–2 /);
  const first = /its excess by bucket: weight versions mixed: (\d+)% \((\d+)% of its tokens\)/.exec(drift[0].message);
  assert.ok(first, drift[0].message);
  assert.ok(Number(first[1]) >= 90 && Number(first[2]) < 60, drift[0].message);
  assert.equal(report.findings.length, 1, 'nothing else: the logged figures are not there, the steps are sound');
});

test('the same run before the drift has no drift finding', (t) => {
  const dir = tempDir(t);
  for (let s = 0; s < 6; s++)
    for (const rel of [`rollout_data/${s}.pt`, `train_data/${s}_0.pt`]) {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      copyFileSync(join(DIR, rel), join(dir, rel));
    }
  const report = parseContract(runCli(['check', '--format', 'json', dir]).stdout);
  assert.deepEqual(
    report.findings.map((f) => f.code),
    [],
  );
  assert.equal(report.runs[0].steps.filter((s) => s.trainData?.mismatch).length, 6);
});
