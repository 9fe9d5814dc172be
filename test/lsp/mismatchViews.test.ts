// The editor's views of the train–inference mismatch over a real LSP connection, on a run miles' own
// writers made (test/fixtures/real/miles/drift: 9 steps of rollout_data and train_data, the trainer's
// log-probs noisier from step 6 on in samples with mixed weight versions): the run view's chart data
// is `check --format json`'s `trainData.mismatch` per step, its drift step and message are the
// `logprob-drift` finding's, the run status carries that finding; the sample view of a dump sample
// gives its rollout and trainer log-probs along the response with the step's worst token in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { PT_VIEW_SCHEME, RunStatusRequest, RunViewRequest, SampleViewRequest, type RunStatusResult } from '../../shared/protocol';
import type { RunView } from '../../shared/runViewModel';
import type { SampleView } from '../../shared/sampleViewModel';
import { CONTRACT } from '../shared/jsonContract';
import { repoRoot } from './fixtures';
import { withHarness } from './harness';

const ROOT = repoRoot();
const DRIFT = join(ROOT, 'test/fixtures/real/miles/drift');
const DUMP = join(ROOT, 'test/fixtures/pt/dumpdir');
const CLI = join(ROOT, 'dist/cli.js');

test('run view, run status and sample view read a dump folder’s train_data as check does', async () => {
  const r = spawnSync(process.execPath, [CLI, 'check', '--format', 'json', DRIFT], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const doc = CONTRACT.parse(JSON.parse(r.stdout));
  const steps = doc.runs[0].steps.filter((s) => s.trainData?.mismatch);
  assert.equal(steps.length, 9);
  const drift = doc.findings.filter((f) => f.code === 'logprob-drift');
  assert.equal(drift.length, 1);
  assert.match(drift[0].message, /^step 6: /);

  // The run's tokenizer, relative to the workspace folder: a subset of Qwen3's real tokenizer.json.
  await withHarness({ workspaceFolders: [ROOT], settings: () => ({ tokenizer: 'test/fixtures/real/tokenizers/qwen3' }) }, async (h) => {
    const uri = pathToFileURL(DRIFT).href;
    const view = (await h.client.sendRequest(RunViewRequest, { uri })) as RunView;
    assert.equal(view.runs.length, 1);
    const m = view.runs[0].mismatch;
    assert.ok(m, 'the run view has the mismatch of a run with train_data');
    assert.deepEqual(
      m.steps.map((s) => [s.step, s.tokens, s.mean, s.p50, s.p99, s.max]),
      steps.map((s) => {
        const x = s.trainData!.mismatch as { tokens: number; mean: number; p50: number; p99: number; max: number };
        return [s.step, x.tokens, x.mean, x.p50, x.p99, x.max];
      }),
    );
    assert.deepEqual(m.drift, { step: 6, message: drift[0].message });
    assert.deepEqual(m.stepsWithoutLogProbs, []);
    const worst = (steps[6].trainData!.mismatch as { worstSamples: { sample: number; line: number }[] }).worstSamples[0];
    assert.deepEqual([m.steps[6].worstSample?.sample, m.steps[6].worstSample?.line], [worst.sample, worst.line]);
    assert.equal(view.findings['logprob-drift'], 1, 'the run view lists the drift finding');

    const status = (await h.client.sendRequest(RunStatusRequest, { uri })) as RunStatusResult;
    const on6 = status.files.find((f) => f.uri === pathToFileURL(join(DRIFT, 'rollout_data/6.pt')).href);
    assert.ok(
      on6?.diagnostics.some((d) => d.code === 'logprob-drift' && d.message === drift[0].message),
      'the run status carries the drift finding',
    );
    assert.equal(status.findings.warning + status.findings.error + status.findings.information + status.findings.hint, doc.findings.length);

    // The sample view of step 6's worst sample (its line in the dump), through the dump's JSON Lines view.
    const worstToken = (
      steps[6].trainData!.mismatch as {
        worstTokens: { sample: number; position: number; token: number; rolloutLogProb: number; trainLogProb: number; absDiff: number }[];
      }
    ).worstTokens[0];
    const pt = join(DRIFT, 'rollout_data/6.pt');
    const viewUri = `${PT_VIEW_SCHEME}:${pathToFileURL(`${pt}.jsonl`).pathname}?${encodeURIComponent(pathToFileURL(pt).href)}`;
    const line = (steps[6].trainData!.mismatch as { worstSamples: { sample: number; line: number }[] }).worstSamples.find(
      (w) => w.sample === worstToken.sample,
    )!.line;
    const sample = (await h.client.sendRequest(SampleViewRequest, { uri: viewUri, line: line - 1 })) as SampleView;
    assert.equal(sample.index, worstToken.sample);
    const t = sample.trainMismatch;
    assert.ok(t, 'the sample view has its train_data');
    assert.equal(t.files.length, 1);
    assert.match(t.files[0], /(^|\/)drift\/train_data\/6_0\.pt$/, 'named as the sample file is named');
    assert.ok(!t.files[0].startsWith('/'), t.files[0]);
    assert.deepEqual(
      [t.worstTokens[0].position, t.worstTokens[0].token, t.worstTokens[0].rolloutLogProb, t.worstTokens[0].trainLogProb, Math.abs(t.worstTokens[0].delta)],
      [worstToken.position, worstToken.token, worstToken.rolloutLogProb, worstToken.trainLogProb, worstToken.absDiff],
    );
    // Its text from the tokenizer setting: Qwen3's id 35102 is `ĠWorkshop`, " Workshop".
    assert.deepEqual([worstToken.token, t.worstTokens[0].text, t.tokenTexts?.[worstToken.position]], [35102, ' Workshop', ' Workshop']);
    assert.deepEqual(t.tokenizer, { file: 'test/fixtures/real/tokenizers/qwen3/tokenizer.json', decoder: 'ByteLevel' });
    // check says the same with --tokenizer, in its JSON and its text.
    const named = spawnSync(process.execPath, [CLI, 'check', '--format', 'json', '--tokenizer', join(ROOT, 'test/fixtures/real/tokenizers/qwen3'), DRIFT], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const withText = CONTRACT.parse(JSON.parse(named.stdout)).runs[0].steps.filter((s) => s.trainData?.mismatch)[6].trainData!.mismatch as {
      worstTokens: { token: number; text?: string }[];
    };
    assert.deepEqual([withText.worstTokens[0].token, withText.worstTokens[0].text], [35102, ' Workshop']);
    const text = spawnSync(process.execPath, [CLI, 'check', '--tokenizer', 'test/fixtures/real/tokenizers/qwen3', DRIFT], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.match(text.stdout, /worst token: sample 603 position 8 \(token 35102 “ Workshop”\), \|Δ\| /);

    // A dump folder whose train_data holds no trainer log_probs: the run says so, no chart of nothing.
    const dumpView = (await h.client.sendRequest(RunViewRequest, { uri: pathToFileURL(DUMP).href })) as RunView;
    assert.deepEqual(dumpView.runs[0].mismatch, { steps: [], stepsWithoutLogProbs: [1, 2], drift: null });
  });
});
