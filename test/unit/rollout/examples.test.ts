// Integration: the real engine (streaming reader, format detection, normalisation) on the example
// run's rollout steps in examples/run/rollout/, with the run settings of examples/run/rollout-lens.yaml.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import type { RunReport } from '../../../server/src/core/vocabulary/types';
import { repoRoot } from '../../shared/repoRoot';
import { dropMetrics } from '../../shared/dropMetrics';

const RUN = join(repoRoot(), 'examples/run');

function runSettings(): RolloutLensSettings {
  const yaml = parse(readFileSync(join(RUN, 'rollout-lens.yaml'), 'utf8')) as Partial<RolloutLensSettings>;
  return { ...DEFAULT_SETTINGS, nSamplesPerPrompt: yaml.nSamplesPerPrompt ?? null, dynamicFilter: yaml.dynamicFilter ?? 'none' };
}

async function analyzeSteps(settings: RolloutLensSettings): Promise<RunReport> {
  const targets = [1, 2, 3].map((step) => ({
    path: join(RUN, `rollout/rollout_${step}.jsonl`),
    displayPath: `rollout/rollout_${step}.jsonl`,
  }));
  return analyzeFiles(targets, { access: nodeFileAccess, settings, evalConfig: null, keepDetail: true });
}

const at = (r: RunReport, file: string) => r.findings.filter((f) => f.file === file).map((f) => `${f.line} ${f.code}`);

test('example run: the settings file sets n_samples_per_prompt 4 and check_reward_nonzero_std', () => {
  const s = runSettings();
  assert.equal(s.nSamplesPerPrompt, 4);
  assert.equal(s.dynamicFilter, 'check_reward_nonzero_std');
});

test('example run, sync step 1: drop metrics per cause and zero-std, every finding where it belongs', async () => {
  const r = await analyzeSteps(runSettings());
  const f = r.files[0];
  assert.equal(f.format, 'miles-sample');
  assert.equal(f.kind, 'rollout');
  assert.equal(f.records, 32);
  assert.equal(f.invalidLines, 0);
  assert.deepEqual(f.groups, { total: 8, kept: 2, dropped: 6 });
  assert.deepEqual(dropMetrics(f.metrics), {
    'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable': 1,
    'rollout/dynamic_filter/drop_zero_std_1.0': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_SandboxUnavailable': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_unknown': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_TimeLimitExceeded': 1,
    'rollout/dynamic_filter/drop_zero_std_0.0': 1,
  });
  assert.deepEqual(at(r, 'rollout/rollout_1.jsonl'), [
    '7 group-dropped',
    '9 zero-std-group',
    '13 group-dropped',
    '18 group-dropped',
    '18 abort-cause-unknown',
    '22 infra-failure-scored',
    '26 group-dropped',
    '26 policy-failure-discarded',
    '29 zero-std-group',
  ]);
  const twoCauses = r.findings.find((x) => x.file === 'rollout/rollout_1.jsonl' && x.line === 13);
  assert.ok(twoCauses?.message.startsWith('group dropped: group_has_aborted_SandboxUnavailable — 2 of 4 samples of group 3 aborted'));
  assert.match(twoCauses?.message ?? '', /other aborted samples record: ServerUnreachable \(line 16\)/);
  assert.deepEqual(
    twoCauses?.related,
    [14, 15, 16].map((line) => ({ file: 'rollout/rollout_1.jsonl', line })),
  );
});

test('example run, fully-async step 2: interleaved lines, int reward zero_std_1, 0.25 → zero_std_0.2, shape findings', async () => {
  const r = await analyzeSteps(runSettings());
  const f = r.files[1];
  assert.equal(f.records, 31);
  assert.deepEqual(f.groups, { total: 8, kept: 5, dropped: 3 });
  assert.deepEqual(dropMetrics(f.metrics), {
    'rollout/dynamic_filter/drop_zero_std_1': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable': 1,
    'rollout/dynamic_filter/drop_zero_std_0.2': 1,
  });
  assert.deepEqual(at(r, 'rollout/rollout_2.jsonl'), [
    '6 misgrouped',
    '9 zero-std-group',
    '11 incomplete-group',
    '16 zero-std-group',
    '18 misgrouped',
    '29 group-dropped',
  ]);
  const messages = r.findings.filter((x) => x.file === 'rollout/rollout_2.jsonl').map((x) => x.message);
  assert.ok(messages.some((m) => m.startsWith('misgrouped: group 11 holds 2 different prompts — ')));
  assert.ok(messages.some((m) => m.startsWith('misgrouped: one prompt is spread over 2 groups (13, 12) — ')));
  assert.ok(messages.some((m) => m.startsWith('group 10 has 3 samples, expected n_samples_per_prompt = 4 — ')));
});

test('example run, step 3: AgentSetupFailed, VerifierError (policy cause aborted), NoModelCalls, empty exit_status → unknown', async () => {
  const r = await analyzeSteps(runSettings());
  assert.deepEqual(dropMetrics(r.files[2].metrics), {
    'rollout/dynamic_filter/drop_group_has_aborted_AgentSetupFailed': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_VerifierError': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_NoModelCalls': 1,
    'rollout/dynamic_filter/drop_zero_std_0.0': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_unknown': 1,
  });
  assert.deepEqual(at(r, 'rollout/rollout_3.jsonl'), [
    '1 group-dropped',
    '11 group-dropped',
    '11 policy-failure-discarded',
    '20 group-dropped',
    '25 zero-std-group',
    '30 group-dropped',
    '30 abort-cause-unknown',
  ]);
});

test('example run shows each rollout finding at least once', async () => {
  const r = await analyzeSteps(runSettings());
  const seen = new Set(r.findings.map((f) => f.code));
  for (const code of [
    'group-dropped',
    'zero-std-group',
    'abort-cause-unknown',
    'infra-failure-scored',
    'policy-failure-discarded',
    'incomplete-group',
    'misgrouped',
  ]) {
    assert.ok(seen.has(code), code);
  }
});

test('example run without the dynamic filter: only aborted-group drops, zero-std groups kept', async () => {
  const r = await analyzeSteps({ ...runSettings(), dynamicFilter: 'none' });
  assert.deepEqual(
    r.files.map((f) => f.groups.dropped),
    [4, 1, 4],
  );
  assert.ok(r.findings.every((f) => f.code !== 'zero-std-group'));
});
