import { test } from 'node:test';
import assert from 'node:assert/strict';

import { promptUid } from '../../../server/src/core/formats/verl';
import type { SampleRecord } from '../../../server/src/core/vocabulary/types';

import { fixture, scanPath, tempDir, writeLines } from './helpers';

/** The fields that matter, without line/offset/byteLength noise. */
function core(s: SampleRecord) {
  const { line, offset, byteLength, ...rest } = s;
  void offset;
  void byteLength;
  return { line, ...rest };
}

test('normalise miles-sample: group key, index, status, aborted, reward (int/float), cause, response length, prompt hash', async () => {
  const s = await scanPath(fixture('miles-sample.jsonl'));
  assert.equal(s.invalidLines, 0);
  const [a, b, c] = s.samples.toArray().map(core);
  assert.deepEqual(
    { ...a, promptKey: typeof a.promptKey },
    {
      line: 1,
      groupKey: '12',
      index: 48,
      dataset: null,
      promptKey: 'string',
      status: 'completed',
      aborted: false,
      reward: 1,
      rewardIsInt: false,
      cause: 'Submitted',
      responseLength: 17,
      step: null,
      // loss_mask summed (17 ones), weight_versions built, no prefix_cache_info → zeros.
      miles: { effectiveLength: 17, weightVersions: ['7'], cachedTokens: 0, totalPromptTokens: 0, repetition: false },
    },
  );
  assert.equal(b.aborted, true);
  assert.equal(b.status, 'aborted');
  assert.equal(b.reward, null);
  assert.equal(b.cause, 'ServerUnreachable');
  assert.equal(b.promptKey, a.promptKey, 'same prompt, same key');
  assert.equal(c.reward, 1);
  assert.equal(c.rewardIsInt, true, 'reward 1 is a Python int');
  assert.equal(c.status, 'truncated');
  assert.equal(c.cause, null, 'no exit_status → null');
  assert.notEqual(c.promptKey, a.promptKey);
});

test('normalise miles-sample: dataset in docs/semantics.md#formats order (dataset, metadata.dataset, metadata.dataset_name, data_source)', async (t) => {
  const base = '"index": 0, "prompt": "p", "response": "r", "status": "completed", "reward": 0.0';
  const p = writeLines(tempDir(t), 'eval_1.jsonl', [
    `{${base}, "dataset": "a", "metadata": {"dataset": "b", "dataset_name": "c"}, "data_source": "d"}`,
    `{${base}, "metadata": {"dataset": "b", "dataset_name": "c"}, "data_source": "d"}`,
    `{${base}, "metadata": {"dataset_name": "c"}, "data_source": "d"}`,
    `{${base}, "data_source": "d"}`,
    `{${base}}`,
  ]);
  const s = await scanPath(p);
  assert.deepEqual(
    s.samples.toArray().map((x) => x.dataset),
    ['a', 'b', 'c', 'd', null],
  );
});

test('normalise miles-sample: object reward resolved with rewardKey; eval files use evalRewardKey first', async (t) => {
  const dir = tempDir(t);
  const line = '{"group_index": 0, "index": 0, "prompt": "p", "response": "r", "status": "completed", "reward": {"acc": 1, "format": 0.5}}';
  const train = writeLines(dir, 'rollout_1.jsonl', [line]);
  assert.deepEqual(
    (await scanPath(train, { rewardKey: 'acc' })).samples.toArray().map((x) => [x.reward, x.rewardIsInt]),
    [[1, true]],
  );
  assert.deepEqual(
    (await scanPath(train, { rewardKey: 'format' })).samples.toArray().map((x) => [x.reward, x.rewardIsInt]),
    [[0.5, false]],
  );
  const ev = writeLines(dir, 'eval_1.jsonl', [line]);
  assert.equal((await scanPath(ev, { rewardKey: 'acc', evalRewardKey: 'format' })).samples.at(0).reward, 0.5);
  assert.equal((await scanPath(ev, { rewardKey: 'acc' })).samples.at(0).reward, 1, 'evalRewardKey falls back to rewardKey');
});

test('normalise: an object reward without a reward key → one invalid-record finding per file, rewards missing', async (t) => {
  const line = '{"group_index": 0, "index": 0, "prompt": "p", "response": "r", "status": "completed", "reward": {"acc": 1}}';
  const p = writeLines(tempDir(t), 'r.jsonl', [line, line]);
  const s = await scanPath(p);
  assert.equal(s.records, 2);
  assert.equal(s.invalidLines, 0);
  assert.deepEqual(
    s.samples.toArray().map((x) => x.reward),
    [null, null],
  );
  assert.equal(s.findings.length, 1);
  assert.equal(s.findings[0].code, 'invalid-record');
  assert.match(s.findings[0].message, /reward is an object of named rewards \("acc"\) and no reward key is set/);
  const missing = await scanPath(p, { rewardKey: 'score' });
  assert.match(missing.findings[0].message, /the reward object has no key "score" \(keys: "acc"\)/);
});

test('normalise miles-sample: NaN and Infinity rewards are kept as numbers', async (t) => {
  const p = writeLines(tempDir(t), 'r.jsonl', [
    '{"group_index": 0, "index": 0, "prompt": "p", "response": "r", "status": "completed", "reward": NaN}',
    '{"group_index": 0, "index": 1, "prompt": "p", "response": "r", "status": "completed", "reward": -Infinity}',
  ]);
  const s = await scanPath(p);
  assert.ok(Number.isNaN(s.samples.at(0).reward));
  assert.equal(s.samples.at(1).reward, -Infinity);
});

test('normalise miles-trajectory: sample_index is the index; object reward needs a key', async () => {
  const s = await scanPath(fixture('eval_20.jsonl'), { evalRewardKey: 'acc' });
  assert.deepEqual(
    s.samples.toArray().map((x) => [x.groupKey, x.index, x.status, x.aborted, x.reward, x.rewardIsInt]),
    [
      ['0', 0, 'completed', false, 1, false],
      ['0', 1, 'aborted', true, null, false],
      ['1', 2, 'truncated', false, 0, true],
    ],
  );
  assert.equal(s.samples.at(0).promptKey, s.samples.at(1).promptKey);
});

test('normalise miles-eval-trials: aborted by status_code -1, by error, or by an infrastructure exit_status', async () => {
  const s = await scanPath(fixture('trials.jsonl'));
  assert.deepEqual(
    s.samples.toArray().map((x) => [x.groupKey, x.index, x.aborted, x.status, x.reward, x.cause]),
    [
      ['django__django-11099', 0, false, null, 1, 'Submitted'],
      ['django__django-11099', 1, true, 'aborted', null, null],
      ['astropy__astropy-12907', 0, false, null, 0, 'TimeLimitExceeded'],
      ['astropy__astropy-12907', 1, true, 'aborted', null, 'SandboxUnavailable'],
    ],
  );
  assert.equal(s.samples.at(0).promptKey, 'django__django-11099');
  assert.equal(s.samples.at(2).rewardIsInt, true);
});

test('normalise miles-eval-trials: a user infraCauses entry makes its exit_status an abort', async (t) => {
  const p = writeLines(tempDir(t), 't.jsonl', ['{"instance_id": "a", "trial_idx": 0, "status_code": 0, "reward": 0, "exit_status": "DockerPullFailed"}']);
  assert.equal((await scanPath(p)).samples.at(0).aborted, false);
  assert.equal((await scanPath(p, { infraCauses: ['DockerPullFailed'] })).samples.at(0).aborted, true);
});

test('normalise miles-metrics: numeric metrics only, step and step_key kept', async () => {
  const s = await scanPath(fixture('metrics.jsonl'));
  assert.equal(s.samples.length, 0);
  assert.equal(s.records, 2);
  const [m1, m2] = s.metricsRecords;
  assert.equal(m1.step, 3);
  assert.equal(m1.stepKey, 'rollout/step');
  assert.deepEqual(m1.metrics, { 'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable': 2, 'rollout/raw_reward': 0.4375, 'perf/step_time': 81.2 });
  assert.deepEqual(m2.metrics, { 'eval/aime': 0.3, 'eval/aime-pass@2': 0.45 });
});

test('normalise verl v1: prompt uid = uid without its last two _ parts; empty output = aborted; score and extras are vars', async () => {
  const s = await scanPath(fixture('verl-rollout.jsonl'));
  assert.deepEqual(
    s.samples.toArray().map((x) => [x.groupKey, x.aborted, x.reward, x.rewardIsInt, x.step]),
    [
      ['6f1c2a7e-9d0b-4a51-8f0e-3c2b1a0d9e8f', false, 1, false, 42],
      ['6f1c2a7e-9d0b-4a51-8f0e-3c2b1a0d9e8f', true, 0, false, 42],
      ['0a9b8c7d-1e2f-4a3b-9c8d-7e6f5a4b3c2d', false, 1, true, 42],
    ],
  );
  assert.deepEqual(s.samples.at(0).vars, { score: 1, acc: 1 });
  assert.equal(s.samples.at(0).promptKey, s.samples.at(1).promptKey);
});

test('normalise verl legacy (no uid): identical inputs form one group wherever they are (_balance_batch scatters them)', async () => {
  const s = await scanPath(fixture('verl-legacy.jsonl'));
  assert.deepEqual(
    s.samples.toArray().map((x) => x.groupKey),
    ['input#0', 'input#0', 'input#1', 'input#0'],
  );
});

test('normalise verl-validation: reward field is the reward, data_source the dataset, score/reward/acc are vars', async () => {
  const s = await scanPath(fixture('verl-validation.jsonl'));
  assert.deepEqual(
    s.samples.toArray().map((x) => [x.groupKey, x.dataset, x.reward, x.vars]),
    [
      ['u1', 'openai/gsm8k', 1, { score: 1, reward: 1, acc: 1 }],
      ['u1', 'openai/gsm8k', 0, { score: 0, reward: 0, acc: 0 }],
    ],
  );
});

test('normalise generic: fields mapped by JSON pointers', async () => {
  const s = await scanPath(fixture('generic.jsonl'), {
    fields: { groupKey: '/meta/group', index: '/meta/i', status: '/meta/state', reward: '/score/value', cause: '/meta/why', dataset: '/meta/ds', prompt: '/q' },
  });
  assert.deepEqual(
    s.samples.toArray().map((x) => [x.groupKey, x.index, x.status, x.aborted, x.reward, x.rewardIsInt, x.cause, x.dataset]),
    [
      ['7', 0, 'completed', false, 1, true, null, 'mbpp'],
      ['7', 1, 'aborted', true, null, false, 'ServerUnreachable', 'mbpp'],
    ],
  );
  assert.ok(s.samples.at(0).promptKey);
  assert.equal(s.samples.at(0).promptKey, s.samples.at(1).promptKey);
});

test('verl prompt uid: only two trailing integer parts are stripped', () => {
  assert.equal(promptUid('abc_0_3'), 'abc');
  assert.equal(promptUid('a_b_c_12_0'), 'a_b_c');
  assert.equal(promptUid('6f1c2a7e-9d0b'), '6f1c2a7e-9d0b');
  assert.equal(promptUid('prompt_12'), 'prompt_12');
  assert.equal(promptUid('x_1_y'), 'x_1_y');
  assert.equal(promptUid('_0_1'), '_0_1');
  assert.equal(promptUid('a__1'), 'a__1');
});
