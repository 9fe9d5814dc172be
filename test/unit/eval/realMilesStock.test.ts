// miles' stock configurations (docs/framework-files.md, "Stock configurations"): files written by
// miles' own writers from rewards of its own `rm_type dapo`, and the metrics, drops and exceptions
// its own functions gave for them (scripts/gen-real-fixtures.py `miles_stock`), as JSON lines and
// as the `.pt` dump of the same samples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { loadEvalConfig } from '../../../server/src/core/eval/config';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import type { RunReport } from '../../../server/src/core/vocabulary/types';

const REAL = join(__dirname, '../../../../test/fixtures/real/miles');

interface Expected {
  settings: Partial<RolloutLensSettings>;
  metrics?: Record<string, number>;
  crash?: string | null;
  filter_raised_by_group?: Record<string, string>;
}

function expected(rel: string): Expected {
  return JSON.parse(readFileSync(join(REAL, rel), 'utf8')) as Expected;
}

async function run(rel: string, settings: Partial<RolloutLensSettings>, config: string | null = null): Promise<RunReport> {
  const evalConfig = config === null ? null : await loadEvalConfig(join(REAL, config), nodeFileAccess);
  return analyzeFiles([{ path: join(REAL, rel), displayPath: rel }], {
    access: nodeFileAccess,
    settings: { ...DEFAULT_SETTINGS, ...settings },
    evalConfig,
    keepDetail: true,
  });
}

/** The same double, or within one rounding of a mean (both compute in float64). */
function same(actual: number | undefined, want: number, name: string): void {
  assert.ok(actual !== undefined, `${name} not recomputed`);
  assert.ok(actual === want || Math.abs(actual - want) <= 1e-15 * Math.abs(want), `${name}: engine ${actual}, miles ${want}`);
}

for (const file of ['eval/eval_110.jsonl', 'rollout_data/eval_110.pt']) {
  test(`dapo eval with --eval-reward-key acc (bools), zero_std/* by --reward-key, metadata_overrides: every figure miles logged (${file})`, async () => {
    const want = expected('eval/eval_110.expected.json');
    const r = await run(file, want.settings, 'eval/eval_config_110.yaml');
    const m = r.files[0].metrics;
    assert.deepEqual(
      r.files[0].detail!.datasets.map((d) => [d.name, d.samples, d.n]),
      [
        ['aime24', 12, 4],
        ['math500', 4, 2],
      ],
    );
    for (const [name, v] of Object.entries(want.metrics!)) {
      if (name.includes('/response_len/') && file.endsWith('.pt')) continue; // .pt loss-mask sums: another change
      same(m[name], v, name);
    }
    // Bools count as 1 in the score and pass@k; zero_std reads the score -1.0, not acc False.
    assert.equal(want.metrics!['eval/aime24'], 1 / 3);
    assert.equal(m['eval/math500/zero_std/count_-1.0'], 1);
    assert.equal(m['eval/math500/zero_std/count_0'], undefined);
    assert.deepEqual(
      r.findings.filter((f) => f.severity === 'error' || f.code === 'none-reward').map((f) => f.code),
      [],
    );
  });
}

test('dapo eval read under --eval-reward-key acc alone: get_reward_value gives the dicts; round(dict) raises, and the finding says so', async () => {
  const want = expected('eval/eval_111.expected.json');
  assert.equal(want.crash, "TypeError: type dict doesn't define __round__ method");
  const r = await run('eval/eval_111.jsonl', want.settings);
  const f = r.findings.filter((x) => x.code === 'metrics-crash');
  assert.equal(f.length, 1);
  assert.ok(f[0].message.includes(want.crash!), f[0].message);
  // With --reward-key set as well, get_reward_value gives numbers: no crash.
  const keyed = await run('eval/eval_111.jsonl', { ...want.settings, rewardKey: 'score' });
  assert.equal(keyed.findings.filter((x) => x.code === 'metrics-crash').length, 0);
});

for (const step of [10, 11, 12]) {
  for (const file of [`rollout/rollout_${step}.jsonl`, `rollout_data/${step}.pt`]) {
    test(`rollout ${step} (${file}): passrate/pass@k, drops, zero_std/* and what check_reward_nonzero_std raised, as miles`, async () => {
      const want = expected(`rollout/rollout_${step}.expected.json`);
      const r = await run(file, want.settings);
      const m = r.files[0].metrics;
      const names = Object.keys(want.metrics!);
      assert.ok(names.includes('passrate/pass@4'));
      for (const name of names) {
        if (name.startsWith('rollout/response_len/') && file.endsWith('.pt')) continue; // .pt loss-mask sums: another change
        same(m[name], want.metrics![name], name);
      }
      for (const k of Object.keys(m))
        if (k.startsWith('passrate/') || k.startsWith('rollout/dynamic_filter/')) assert.ok(k in want.metrics!, `engine only: ${k}`);
      const raised = Object.values(want.filter_raised_by_group!);
      const crashes = r.findings.filter((f) => f.code === 'filter-crash');
      assert.equal(crashes.length, raised.length);
      for (const [k, f] of crashes.entries()) assert.ok(f.message.includes(raised[k]), f.message);
    });
  }
}

test('rollout 12: the filter-crash sits on the completed sample of reward None, its group kept', async () => {
  const r = await run('rollout/rollout_12.jsonl', expected('rollout/rollout_12.expected.json').settings);
  const f = r.findings.find((x) => x.code === 'filter-crash')!;
  assert.equal(f.line, 6);
  assert.equal(f.group, '1');
  assert.equal(f.severity, 'error');
  assert.ok(r.files[0].detail!.groups.find((g) => g.key === '1')!.kept);
  // Without the dynamic filter nothing raises.
  const off = await run('rollout/rollout_12.jsonl', { nSamplesPerPrompt: 4 });
  assert.equal(off.findings.filter((x) => x.code === 'filter-crash').length, 0);
});

test('passrate/pass@k without --n-samples-per-prompt: not recomputed where the groups differ in size', async () => {
  const r = await run('rollout/rollout_10.jsonl', { rewardKey: 'score' });
  assert.equal(r.files[0].metrics['passrate/pass@1'], undefined);
});
