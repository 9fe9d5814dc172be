// The zero-std filter end to end (docs/semantics.md#zero-std-filter, #reward-value): reward values
// read from real log text by the engine's reader (int vs float literal, Python's NaN/Infinity,
// object rewards with a reward key) decide the zero-std reasons.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { dropMetrics } from '../../shared/dropMetrics';

const dir = mkdtempSync(join(tmpdir(), 'rollout-lens-rollout-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A miles Sample line; `reward` is written as given (raw JSON text). */
function line(group: number, index: number, reward: string, extra = ''): string {
  return (
    `{"group_index": ${group}, "index": ${index}, "rollout_id": 5, "prompt": "Solve task ${group}.", "response": "x",` +
    ` "response_length": 1, "tokens": [1, 2], "label": "a", "reward": ${reward}, "status": "completed",` +
    ` "metadata": {${extra}}}`
  );
}

let fileNo = 0;

async function metricsOf(lines: string[], over: Partial<RolloutLensSettings> = {}) {
  const path = join(dir, `rollout_${++fileNo}.jsonl`);
  writeFileSync(path, lines.join('\n') + '\n');
  const settings = { ...DEFAULT_SETTINGS, dynamicFilter: 'check_reward_nonzero_std' as const, ...over };
  const r = await analyzeFiles([{ path, displayPath: 'r.jsonl' }], { access: nodeFileAccess, settings, evalConfig: null });
  assert.equal(r.files[0].kind, 'rollout');
  return r;
}

test('from log text: reward written 1 gives zero_std_1, written 1.0 gives zero_std_1.0', async () => {
  const r = await metricsOf([line(0, 0, '1'), line(0, 1, '1'), line(1, 2, '1.0'), line(1, 3, '1.0')]);
  assert.deepEqual(dropMetrics(r.files[0].metrics), { 'rollout/dynamic_filter/drop_zero_std_1': 1, 'rollout/dynamic_filter/drop_zero_std_1.0': 1 });
});

test('from log text: Python NaN and Infinity rewards give zero_std_nan and zero_std_inf', async () => {
  const r = await metricsOf([line(0, 0, 'NaN'), line(0, 1, 'NaN'), line(1, 2, 'Infinity'), line(1, 3, 'Infinity'), line(2, 4, '-Infinity'), line(2, 5, '0.0')]);
  assert.deepEqual(dropMetrics(r.files[0].metrics), {
    'rollout/dynamic_filter/drop_zero_std_nan': 1,
    'rollout/dynamic_filter/drop_zero_std_inf': 1,
    'rollout/dynamic_filter/drop_zero_std_-inf': 1,
  });
});

test('from log text: 0.25 → zero_std_0.2 and 0.15 → zero_std_0.1 (0.15 is stored below the tie)', async () => {
  const r = await metricsOf([line(0, 0, '0.25'), line(0, 1, '0.25'), line(1, 2, '0.15'), line(1, 3, '0.15')]);
  assert.deepEqual(dropMetrics(r.files[0].metrics), { 'rollout/dynamic_filter/drop_zero_std_0.2': 1, 'rollout/dynamic_filter/drop_zero_std_0.1': 1 });
});

test('object rewards: reward[rewardKey] is the value the filter sees (and its literal type)', async () => {
  const obj = (score: string, fmt: string) => `{"score": ${score}, "format": ${fmt}}`;
  const lines = [line(0, 0, obj('1', '0.5')), line(0, 1, obj('1', '0.0')), line(1, 2, obj('0.0', '1.0')), line(1, 3, obj('1.0', '1.0'))];
  const byScore = await metricsOf(lines, { rewardKey: 'score' });
  assert.deepEqual(dropMetrics(byScore.files[0].metrics), { 'rollout/dynamic_filter/drop_zero_std_1': 1 });
  const byFormat = await metricsOf(lines, { rewardKey: 'format' });
  assert.deepEqual(dropMetrics(byFormat.files[0].metrics), { 'rollout/dynamic_filter/drop_zero_std_1.0': 1 });
});

test('object rewards without a reward key are null rewards: such groups are never zero-std', async () => {
  const r = await metricsOf([line(0, 0, '{"score": 1.0}'), line(0, 1, '{"score": 1.0}')]);
  assert.deepEqual(dropMetrics(r.files[0].metrics), {});
  assert.deepEqual(r.files[0].groups, { total: 1, kept: 1, dropped: 0 });
});

test('from log text: status aborted with metadata.exit_status names the reason', async () => {
  const aborted = (g: number, i: number, meta: string) => line(g, i, 'null', meta).replace('"status": "completed"', '"status": "aborted"');
  const r = await metricsOf([
    aborted(0, 0, '"exit_status": "ServerUnreachable"'),
    line(0, 1, '1.0'),
    aborted(1, 2, '"exit_status": ""'),
    line(1, 3, '0.0'),
    aborted(2, 4, ''),
  ]);
  assert.deepEqual(dropMetrics(r.files[0].metrics), {
    'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_unknown': 2,
  });
});
