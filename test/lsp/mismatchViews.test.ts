// The editor's views of the train–inference mismatch over a real LSP connection, on a run miles' own
// writers made (test/fixtures/real/miles/drift: 9 steps of rollout_data and train_data, the trainer's
// log-probs noisier from step 6 on in samples with mixed weight versions): the run view's chart data
// is `check --format json`'s `trainData.mismatch` per step, its drift step and message are the
// `logprob-drift` finding's, the run status carries that finding; the sample view of a dump sample
// gives its rollout and trainer log-probs along the response with the step's worst token in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { PT_VIEW_SCHEME, RunStatusRequest, RunViewRequest, SampleViewRequest, WorkspaceTrustNotification, type RunStatusResult } from '../../shared/protocol';
import type { RunView } from '../../shared/runViewModel';
import type { SampleView } from '../../shared/sampleViewModel';
import { CONTRACT } from '../shared/jsonContract';
import { loadTokenTexts } from '../../server/src/core/tokenizer/tokenText';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';
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
    const qwen = await loadTokenTexts(nodeFileAccess, join(ROOT, 'test/fixtures/real/tokenizers/qwen3'));
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
    // Every step's worst samples and tokens are check's, each placed on its line of the step's rollout dump.
    for (const [i, s] of steps.entries()) {
      const x = s.trainData!.mismatch as {
        worstSamples: { sample: number; line: number; mean: number; tokens: number; max: number }[];
        worstTokens: { sample: number; line: number; position: number; token: number; absDiff: number; rolloutLogProb: number; trainLogProb: number }[];
      };
      const dump = pathToFileURL(join(DRIFT, `rollout_data/${s.step}.pt`)).href;
      assert.deepEqual(
        m.steps[i].worstSamples.map((w) => [w.sample, w.line, w.mean, w.tokens, w.max, w.source]),
        x.worstSamples.map((w) => [w.sample, w.line, w.mean, w.tokens, w.max, dump]),
      );
      assert.deepEqual(
        m.steps[i].worstTokens.map((w) => [w.sample, w.line, w.position, w.token, w.absDiff, w.rolloutLogProb, w.trainLogProb, w.text, w.source]),
        x.worstTokens.map((w) => [w.sample, w.line, w.position, w.token, w.absDiff, w.rolloutLogProb, w.trainLogProb, qwen.text(w.token), dump]),
      );
      assert.ok(x.worstTokens.length > 0 && x.worstTokens.every((w) => w.line >= 1), `step ${s.step}: its worst tokens are on lines`);
    }
    assert.deepEqual(m.tokenizer, { file: 'test/fixtures/real/tokenizers/qwen3/tokenizer.json', decoder: 'ByteLevel', from: 'setting', namedBy: null });
    assert.equal(m.tokenizerProblem, null);
    assert.equal(view.findings['logprob-drift'], 1, 'the run view lists the drift finding');

    const status = (await h.client.sendRequest(RunStatusRequest, { uri })) as RunStatusResult;
    assert.deepEqual(status.drift, { step: 6, message: drift[0].message }, 'the run status names the drift step the run view marks');
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
    assert.deepEqual(t.tokenizer, { file: 'test/fixtures/real/tokenizers/qwen3/tokenizer.json', decoder: 'ByteLevel', from: 'setting', namedBy: null });
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
    assert.deepEqual(dumpView.runs[0].mismatch, {
      steps: [],
      stepsWithoutLogProbs: [1, 2],
      drift: null,
      tokenizer: { file: 'test/fixtures/real/tokenizers/qwen3/tokenizer.json', decoder: 'ByteLevel', from: 'setting', namedBy: null },
      tokenizerProblem: null,
    });
  });
});

test("the run's tokenizer from the run itself: a checkpoint the dashboard names outside an untrusted workspace is not read until trust is granted", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-lsp-run-tokenizer-'));
  try {
    const ws = join(dir, 'ws');
    const run = join(ws, 'drift');
    cpSync(DRIFT, run, { recursive: true });
    // The checkpoint outside the workspace, named by miles' own meta.json (scripts/gen-dashboard-meta.py).
    const checkpoint = join(dir, 'Qwen3-0.6B');
    mkdirSync(checkpoint);
    cpSync(join(ROOT, 'test/fixtures/real/tokenizers/qwen3/tokenizer.json'), join(checkpoint, 'tokenizer.json'));
    const meta = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/real/miles/dashboard-meta/dump/dashboard/meta.json'), 'utf8')) as {
      args: Record<string, unknown>;
    };
    meta.args.hf_checkpoint = checkpoint;
    mkdirSync(join(run, 'dashboard'));
    writeFileSync(join(run, 'dashboard', 'meta.json'), JSON.stringify(meta));
    await withHarness({ workspaceFolders: [ws], initializationOptions: { workspaceTrusted: false }, settings: () => ({}) }, async (h) => {
      const uri = pathToFileURL(run).href;
      const before = ((await h.client.sendRequest(RunViewRequest, { uri })) as RunView).runs[0].mismatch!;
      assert.equal(before.tokenizer, null);
      assert.equal(
        before.tokenizerProblem,
        `${join(run, 'dashboard', 'meta.json')} names hf_checkpoint ${checkpoint}: outside the workspace, which is not trusted: not read (trust the workspace, or set rolloutLens.tokenizer in your user settings to that checkpoint)`,
      );
      assert.ok(before.steps.every((s) => s.worstTokens.every((t) => t.text === null)));
      await h.client.sendNotification(WorkspaceTrustNotification, { trusted: true });
      const after = ((await h.client.sendRequest(RunViewRequest, { uri })) as RunView).runs[0].mismatch!;
      assert.deepEqual(after.tokenizer, {
        file: join(checkpoint, 'tokenizer.json'),
        decoder: 'ByteLevel',
        from: 'hf_checkpoint',
        namedBy: 'drift/dashboard/meta.json',
      });
      const qwen = await loadTokenTexts(nodeFileAccess, checkpoint);
      assert.deepEqual(
        after.steps.flatMap((s) => s.worstTokens.map((t) => t.text)),
        before.steps.flatMap((s) => s.worstTokens.map((t) => qwen.text(t.token!))),
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
