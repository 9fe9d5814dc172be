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
