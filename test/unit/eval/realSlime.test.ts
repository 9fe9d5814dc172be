// slime 624b824 files written by slime's own writer (scripts/gen-real-fixtures.py --slime) and the
// metrics slime's own functions logged for the same samples (the *.expected.json beside each file):
// detected as slime's, judged by slime's rules (core/vocabulary/frameworks.ts), named as slime names them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { analyzeFiles, frameworkOfFormat } from '../../../server/src/core/engine';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import type { RunReport } from '../../../server/src/core/vocabulary/types';

const REAL = join(__dirname, '../../../../test/fixtures/real');
const SLIME = join(REAL, 'slime');

function expected(rel: string): { metrics?: Record<string, number>; crash?: string | null } {
  return JSON.parse(readFileSync(join(SLIME, rel), 'utf8')) as { metrics?: Record<string, number>; crash?: string | null };
}

async function run(path: string, over: Partial<RolloutLensSettings> = {}, root = SLIME): Promise<RunReport> {
  return analyzeFiles([{ path: join(root, path), displayPath: path }], {
    access: nodeFileAccess,
    settings: { ...DEFAULT_SETTINGS, ...over },
    evalConfig: null,
  });
}

function same(actual: number | undefined, want: number, name: string): void {
  assert.ok(actual !== undefined, `${name} not recomputed`);
  assert.ok(actual === want || Math.abs(actual - want) <= 1e-15 * Math.abs(want), `${name}: engine ${actual}, slime ${want}`);
}

test("slime's files are detected as slime's: its Sample fields in JSON lines, a .pt root without metadata", async () => {
  assert.equal((await run('rollout/rollout_1.jsonl')).files[0].format, 'slime-sample');
  assert.equal((await run('rollout_data/1.pt')).files[0].format, 'slime-pt');
  assert.equal((await run('rollout_data/eval_100.pt')).files[0].format, 'slime-pt');
  assert.equal(frameworkOfFormat('slime-pt'), 'slime');
  assert.equal(frameworkOfFormat('miles-pt'), 'miles');
  assert.equal(frameworkOfFormat('verl-rollout'), 'verl');
  assert.equal(frameworkOfFormat('generic'), null);
  // miles' own dumps stay miles' (their root has metadata, their samples miles' fields).
  assert.equal((await run('miles/rollout_data/1.pt', {}, REAL)).files[0].format, 'miles-pt');
  assert.equal((await run('miles/rollout/rollout_1.jsonl', {}, REAL)).files[0].format, 'miles-sample');
  // The setting decides when it names a framework.
  assert.equal((await run('rollout_data/1.pt', { framework: 'miles' })).files[0].format, 'miles-pt');
  assert.equal((await run('miles/rollout/rollout_1.jsonl', { framework: 'slime' }, REAL)).files[0].format, 'slime-sample');
});

for (const file of ['rollout/rollout_1.jsonl', 'rollout_data/1.pt']) {
  test(`slime rollout (${file}): log_rollout_data's metrics and check_reward_nonzero_std's drops at slime's 1e-6, nothing else`, async () => {
    const want = expected('rollout/rollout_1.expected.json').metrics!;
    const r = await run(file, { dynamicFilter: 'check_reward_nonzero_std' });
    const m = r.files[0].metrics;
    for (const [name, v] of Object.entries(want)) same(m[name], v, name);
    // Rewards 4e-7 apart: dropped by slime's threshold (miles' 1e-8 keeps them).
    assert.equal(m['rollout/dynamic_filter/drop_zero_std_0.5'], 1);
    // No aborted-group filter: the group with an aborted sample is kept, no group_has_aborted drop.
    assert.equal(r.files[0].groups.dropped, 4);
    for (const name of Object.keys(m)) assert.ok(name in want, `engine only: ${name}`);
    assert.ok(!r.findings.some((f) => f.code === 'group-dropped' || f.code === 'abort-cause-unknown'));
  });
}

test("the same samples judged by miles' rules: threshold 1e-8, aborted groups dropped, miles' metric names", async () => {
  const r = await run('rollout/rollout_1.jsonl', { dynamicFilter: 'check_reward_nonzero_std', framework: 'miles' });
  const m = r.files[0].metrics;
  assert.equal(m['rollout/dynamic_filter/drop_zero_std_0.5'], undefined);
  assert.equal(m['rollout/dynamic_filter/drop_group_has_aborted_unknown'], 1);
  assert.ok('rollout/zero_std/all_zero_percentage' in m && 'rollout/weight_version/mean' in m);
});

for (const file of ['rollout/rollout_2.jsonl', 'rollout_data/2.pt']) {
  test(`slime rollout (${file}) with an all-aborted group: slime keeps it and its zero-std count raises; the finding says so`, async () => {
    const crash = expected('rollout/rollout_2.expected.json').crash!;
    assert.equal(crash, "TypeError: type NoneType doesn't define __round__ method");
    const f = (await run(file)).findings.filter((x) => x.code === 'metrics-crash');
    assert.equal(f.length, 1);
    assert.ok(f[0].message.includes(crash) && f[0].message.includes('slime 624b824'), f[0].message);
  });
}

for (const file of ['eval/eval_100.jsonl', 'rollout_data/eval_100.pt']) {
  test(`slime eval (${file}): log_eval_rollout_data's metrics per dataset, no none_reward_ratio`, async () => {
    const want = expected('eval/eval_100.expected.json').metrics!;
    const m = (await run(file)).files[0].metrics;
    assert.ok(Object.keys(want).length >= 24);
    for (const [name, v] of Object.entries(want)) same(m[name], v, name);
    for (const name of Object.keys(m)) assert.ok(name in want, `engine only: ${name}`);
  });
}

for (const file of ['eval/eval_101.jsonl', 'rollout_data/eval_101.pt']) {
  test(`slime eval (${file}) with a null reward: slime's sum raises, and the finding names its TypeError`, async () => {
    const crash = expected('eval/eval_101.expected.json').crash!;
    assert.equal(crash, "TypeError: unsupported operand type(s) for +: 'float' and 'NoneType'");
    const r = await run(file);
    const f = r.findings.filter((x) => x.code === 'metrics-crash');
    assert.equal(f.length, 1);
    assert.ok(f[0].message.includes(crash), f[0].message);
    assert.equal(f[0].line, 3);
    assert.equal(r.files[0].metrics['eval/odd'], undefined);
    assert.ok(!r.findings.some((x) => x.code === 'none-reward'));
  });
}
