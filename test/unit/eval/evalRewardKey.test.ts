// Reward values (docs/semantics.md#reward-value) through the real reader: an eval log with object rewards, scored by `evalRewardKey`
// (falling back to `rewardKey`), then analysed by the eval side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeFiles } from '../../../server/src/core/engine';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { settings } from './records';

function evalLog(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rl-evalkey-'));
  // One prompt, 4 attempts; accuracy and format disagree on purpose.
  const rewards = [
    { accuracy: 1.0, format: 0.0 },
    { accuracy: 0.0, format: 1.0 },
    { accuracy: 1.0, format: 1.0 },
    { accuracy: 1.0, format: 0.5 },
  ];
  const lines = rewards.map((reward, index) =>
    JSON.stringify({
      group_index: null,
      index,
      rollout_id: 3,
      prompt: 'What is 6 * 7?',
      response: '42',
      response_length: 1,
      label: '42',
      reward,
      status: 'completed',
      metadata: { dataset_name: 'arith' },
    }),
  );
  const path = join(dir, 'eval_3.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

test('eval object rewards: evalRewardKey picks the score; rewardKey is the fallback', async () => {
  const path = evalLog();
  const run = async (s: Parameters<typeof settings>[0]) =>
    (
      await analyzeFiles([{ path, displayPath: 'eval_3.jsonl' }], {
        access: nodeFileAccess,
        settings: settings({ nSamplesPerEvalPrompt: 4, ...s }),
        evalConfig: null,
      })
    ).files[0].metrics;
  const byAccuracy = await run({ evalRewardKey: 'accuracy', rewardKey: 'format' });
  assert.equal(byAccuracy['eval/arith'], 0.75);
  assert.equal(byAccuracy['eval/arith-pass@1'], 0.75);
  const byFormat = await run({ rewardKey: 'format' });
  assert.equal(byFormat['eval/arith'], 0.625);
  assert.equal(byFormat['eval/arith-pass@1'], 0.5);
});

/** An eval log of groups of `rewards` (each a JSON text as Python's json writes it), scored by `acc`. */
function nanEvalLog(groups: string[][]): string {
  const dir = mkdtempSync(join(tmpdir(), 'rl-evalnan-'));
  const lines = groups.flatMap((rewards, group) =>
    rewards.map((reward, i) =>
      JSON.stringify({
        group_index: group,
        index: group * 10 + i,
        rollout_id: 3,
        prompt: `p${group}`,
        response: 'r',
        response_length: 1,
        label: 'l',
        reward: '@',
        status: 'completed',
        metadata: { dataset_name: 'arith' },
      }).replace('"@"', reward),
    ),
  );
  const path = join(dir, 'eval_3.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

async function zeroStdOf(path: string, n: number) {
  const r = await analyzeFiles([{ path, displayPath: 'eval_3.jsonl' }], {
    access: nodeFileAccess,
    settings: settings({ nSamplesPerEvalPrompt: n, evalRewardKey: 'acc', rewardKey: null }),
    evalConfig: null,
  });
  return { crashes: r.findings.filter((f) => f.code === 'metrics-crash').map((f) => f.message), metrics: r.files[0].metrics };
}

test('zero_std/* under no reward key compares reward dicts as Python: a NaN item equals no other sample’s', async () => {
  // Two dicts of equal items but a NaN each: `d1 == d2` is False (two NaN floats), so no group is
  // zero-std and round() is never reached.
  const apart = await zeroStdOf(
    nanEvalLog([
      ['{"acc": 1.0, "x": NaN}', '{"acc": 1.0, "x": NaN}'],
      ['{"acc": 0.0, "x": [NaN]}', '{"acc": 0.0, "x": [NaN]}'],
    ]),
    2,
  );
  assert.deepEqual(apart.crashes, []);
  assert.equal(apart.metrics['eval/arith'], 0.5);
  // Without the NaN the dicts are equal: round(dict) raises, as miles does.
  const equal = await zeroStdOf(nanEvalLog([['{"acc": 1.0, "x": 2}', '{"acc": 1.0, "x": 2}']]), 2);
  assert.equal(equal.crashes.length, 1);
  assert.ok(equal.crashes[0].includes("TypeError: type dict doesn't define __round__ method"), equal.crashes[0]);
});

test('zero_std/* under no reward key: a group of one dict holding a NaN equals itself (items compared by identity first)', async () => {
  const alone = await zeroStdOf(nanEvalLog([['{"acc": 1.0, "x": NaN}'], ['{"acc": 0.0, "x": {"y": NaN}}']]), 1);
  assert.equal(alone.crashes.length, 1);
  assert.ok(alone.crashes[0].startsWith('2 groups with every reward the same reward object'), alone.crashes[0]);
});
