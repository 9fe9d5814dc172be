// What miles main (31f1ca9) raises on compact / sub-agent rollouts after it dumped and logged them, and
// what its eval path logs for them (docs/framework-files.md#compact-rollouts). Fixtures by miles' own
// agentic generation, filters, conversion and eval path (scripts/gen-real-fixtures.py `miles_compact`,
// scripts/compact_fixtures.py), as JSON lines and as miles' `.pt` dump of the same samples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { loadEvalConfig } from '../../../server/src/core/eval/config';
import { computePassAtK } from '../../../server/src/core/eval/passAtK';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import type { RunReport } from '../../../server/src/core/vocabulary/types';
import { pyFloatRepr } from '../../../shared/pythonRepr';

const REAL = join(__dirname, '../../../../test/fixtures/real/miles');

interface Expected {
  settings: Partial<RolloutLensSettings>;
  metrics: Record<string, number> | null;
  train_crash?: string | null;
  crash?: string | null;
  eval_config?: string;
  rollout_ids?: (number | null)[];
}

function expected(rel: string): Expected {
  return JSON.parse(readFileSync(join(REAL, rel), 'utf8')) as Expected;
}

async function run(rel: string, want: Expected): Promise<RunReport> {
  const evalConfig = want.eval_config ? await loadEvalConfig(join(REAL, 'eval', want.eval_config), nodeFileAccess) : null;
  return analyzeFiles([{ path: join(REAL, rel), displayPath: rel }], {
    access: nodeFileAccess,
    settings: { ...DEFAULT_SETTINGS, ...want.settings },
    evalConfig,
  });
}

function same(actual: number | undefined, want: number, name: string): void {
  assert.ok(actual !== undefined, `${name} not recomputed`);
  assert.ok(actual === want || Math.abs(actual - want) <= 1e-15 * Math.abs(want), `${name}: engine ${actual}, miles ${want}`);
}

// 24: a reward function returning Python bools; miles' message prints them as Python does (`[False, False, True]`).
for (const step of [22, 23, 24]) {
  for (const file of [`rollout/rollout_${step}.jsonl`, `rollout_data/${step}.pt`]) {
    test(`rollout ${step} (${file}): the finding quotes what convert_samples_to_train_data raised, character for character`, async () => {
      const want = expected(`rollout/rollout_${step}.expected.json`);
      assert.ok(want.train_crash, 'miles raised');
      const r = await run(file, want);
      const crash = r.findings.filter((f) => f.code === 'train-data-crash');
      assert.equal(crash.length, 1);
      assert.equal(crash[0].severity, 'error');
      assert.ok(crash[0].message.includes(` raises ${want.train_crash} in _normalize_rewards_by_rollout`), crash[0].message);
      assert.ok(crash[0].message.startsWith("miles main (31f1ca9)'s convert_samples_to_train_data"), crash[0].message);
      // miles logged the step before it raised: every figure is still recomputed.
      for (const [name, v] of Object.entries(want.metrics!)) {
        if (name.startsWith('rollout/dynamic_filter/')) continue;
        if (name.startsWith('rollout/response_len/') && file.endsWith('.pt')) continue; // short masks: counted, see realMilesLengths
        same(r.files[0].metrics[name], v, name);
      }
    });
  }
}

test('rollout 22: the ValueError sits on the first sample of the rollout and lists its siblings', async () => {
  const want = expected('rollout/rollout_22.expected.json');
  const r = await run('rollout/rollout_22.jsonl', want);
  const f = r.findings.find((x) => x.code === 'train-data-crash')!;
  // "rows [8, 9, 10]": positions in the dumped step, the file's lines 9 to 11.
  assert.match(want.train_crash!, /rows \[8, 9, 10\]/);
  assert.equal(f.line, 9);
  assert.deepEqual(
    f.related!.map((x) => x.line),
    [10, 11],
  );
});

for (const step of [20, 21]) {
  test(`rollout ${step}: miles converted the step, so no train-data-crash`, async () => {
    const want = expected(`rollout/rollout_${step}.expected.json`);
    assert.equal(want.train_crash, null);
    for (const file of [`rollout/rollout_${step}.jsonl`, `rollout_data/${step}.pt`]) {
      const r = await run(file, want);
      assert.deepEqual(
        r.findings.filter((f) => f.code === 'train-data-crash'),
        [],
      );
    }
  });
}

test('rollout 23 with the zero-std filter: the filter raises first, so only filter-crash is reported', async () => {
  const want = expected('rollout/rollout_23.expected.json');
  const r = await run('rollout/rollout_23.jsonl', { ...want, settings: { ...want.settings, dynamicFilter: 'check_reward_nonzero_std' } });
  assert.equal(r.findings.filter((f) => f.code === 'filter-crash').length, 1);
  assert.deepEqual(
    r.findings.filter((f) => f.code === 'train-data-crash'),
    [],
  );
});

test('eval 121: attempts that fan out are logged sample by sample; every figure is miles own', async () => {
  const want = expected('eval/eval_121.expected.json');
  assert.ok(want.rollout_ids!.some((id) => id !== null));
  for (const file of ['eval/eval_121.jsonl', 'rollout_data/eval_121.pt']) {
    const r = await run(file, want);
    const metrics = r.files[0].metrics;
    for (const [name, v] of Object.entries(want.metrics!)) {
      if (name.includes('/response_len/') && file.endsWith('.pt')) continue;
      same(metrics[name], v, name);
    }
    for (const k of Object.keys(metrics)) assert.ok(k in want.metrics! || (k.includes('/response_len/') && file.endsWith('.pt')), `engine only: ${k}`);
    // The siblings are one dataset (their repeated index is no restart), and no n would fix miles' chunks.
    assert.deepEqual(
      r.findings.filter((f) => f.code === 'misgrouped-dataset'),
      [],
    );
    const info = r.findings.filter((f) => f.code === 'compact-rollouts');
    assert.equal(info.length, 1);
    assert.ok(info[0].message.startsWith('2 of 6 attempts of dataset swe-lite fan out'), info[0].message);
    assert.ok(info[0].message.includes('over 8 samples'), info[0].message);
    // pass@k by attempts: each attempt's first sample's reward (None: 0), 3 prompts × 2 attempts.
    const lines = readFileSync(join(REAL, 'eval/eval_121.jsonl'), 'utf8').trimEnd().split('\n');
    const seen = new Set<number>();
    const byAttempt: number[] = [];
    for (const l of lines) {
      const s = JSON.parse(l) as { index: number; reward: number | null };
      if (seen.has(s.index)) continue;
      seen.add(s.index);
      byAttempt.push(s.reward ?? 0);
    }
    const pass = computePassAtK(byAttempt, 2);
    assert.equal(pass.kind, 'metrics');
    if (pass.kind === 'metrics')
      for (const [k, v] of Object.entries(pass.values)) assert.ok(info[0].message.includes(`${k} = ${pyFloatRepr(v)}`), info[0].message);
  }
});

test('eval 120: miles pass@k over 15 samples of 3 prompts × 4 raises; the finding quotes it', async () => {
  const want = expected('eval/eval_120.expected.json');
  assert.ok(want.crash?.startsWith('AssertionError'));
  for (const file of ['eval/eval_120.jsonl', 'rollout_data/eval_120.pt']) {
    const r = await run(file, want);
    const crash = r.findings.filter((f) => f.code === 'metrics-crash');
    assert.equal(crash.length, 1);
    assert.ok(crash[0].message.includes(`raises ${want.crash}, so nothing of this evaluation is logged`), crash[0].message);
    assert.ok(crash[0].message.startsWith('2 of 12 attempts of dataset swe-mini fan out'), crash[0].message);
    assert.deepEqual(
      r.findings.filter((f) => f.code === 'misgrouped-dataset'),
      [],
    );
  }
});

test('eval 121 with one rollout_id on every sample (a step number, not siblings): read sample by sample', async () => {
  const want = expected('eval/eval_121.expected.json');
  const lines = readFileSync(join(REAL, 'eval/eval_121.jsonl'), 'utf8').trimEnd().split('\n');
  const dir = mkdtempSync(join(tmpdir(), 'compact-eval-'));
  try {
    const path = join(dir, 'eval_121.jsonl');
    writeFileSync(path, lines.map((l) => JSON.stringify({ ...(JSON.parse(l) as object), rollout_id: 121 })).join('\n') + '\n');
    const evalConfig = await loadEvalConfig(join(REAL, 'eval', want.eval_config!), nodeFileAccess);
    const r = await analyzeFiles([{ path, displayPath: 'eval_121.jsonl' }], {
      access: nodeFileAccess,
      settings: { ...DEFAULT_SETTINGS, ...want.settings },
      evalConfig,
    });
    // Samples of different indexes share the id: it names no attempt, so nothing fans out.
    assert.deepEqual(
      r.findings.filter((f) => f.code === 'compact-rollouts'),
      [],
    );
    assert.equal(r.files[0].metrics['eval/swe-lite'], want.metrics!['eval/swe-lite']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
