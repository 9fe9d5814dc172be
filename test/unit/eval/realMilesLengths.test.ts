// miles' effective response lengths (`sum(loss_mask)`) from loss masks as long as real ones:
// rollout_71 / eval_171 were written by miles' own writer (scripts/gen-real-fixtures.py
// --only-lengths), as its `.pt` dump and as JSON lines, with what log_rollout_data and
// log_eval_rollout_data logged for them (docs/pt.md: a counted run of ints keeps its sum).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_SETTINGS } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { readPt } from '../../../server/src/core/reader/pt/ptFile';
import { sampleLine } from '../../../server/src/core/reader/pt/serialize';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import type { RunReport } from '../../../server/src/core/vocabulary/types';

const REAL = join(__dirname, '../../../../test/fixtures/real/miles');

function metricsOf(rel: string): Record<string, number> {
  return (JSON.parse(readFileSync(join(REAL, rel), 'utf8')) as { metrics: Record<string, number> }).metrics;
}

async function run(rel: string): Promise<RunReport> {
  return analyzeFiles([{ path: join(REAL, rel), displayPath: rel }], { access: nodeFileAccess, settings: DEFAULT_SETTINGS, evalConfig: null });
}

/** Every figure miles logged, recomputed with the same value (float64 on both sides). */
function assertSame(got: Record<string, number>, want: Record<string, number>, file: string): void {
  for (const [name, v] of Object.entries(want)) {
    assert.ok(name in got, `${file}: ${name} not recomputed`);
    assert.ok(got[name] === v || Math.abs(got[name] - v) <= 1e-15 * Math.abs(v), `${file}: ${name}: engine ${got[name]}, miles ${v}`);
  }
}

test('miles .pt dump with long loss masks: rollout/response_len/* are the masks sums, as log_rollout_data logged (and its JSON lines)', async () => {
  const want = metricsOf('rollout/rollout_71.expected.json');
  assert.ok(['mean', 'median', 'max', 'min'].every((s) => `rollout/response_len/${s}` in want));
  for (const rel of ['rollout_data/71.pt', 'rollout/rollout_71.jsonl']) {
    const r = await run(rel);
    assert.equal(r.files[0].format, rel.endsWith('.pt') ? 'miles-pt' : 'miles-sample');
    assertSame(r.files[0].metrics, want, rel);
  }
});

test('miles eval .pt dump with long loss masks: eval/<ds>/response_len/* per dataset, as log_eval_rollout_data logged', async () => {
  const want = metricsOf('eval/eval_171.expected.json');
  assert.ok('eval/dataset 2/response_len/max' in want);
  for (const rel of ['rollout_data/eval_171.pt', 'eval/eval_171.jsonl']) assertSame((await run(rel)).files[0].metrics, want, rel);
});

test('a counted loss mask carries its sum in the sample line: {"$numbers": count, "$sum": sum}; a counted run of floats has no sum', async () => {
  const masks: unknown[] = [];
  const logProbs: unknown[] = [];
  await readPt(nodeFileAccess, join(REAL, 'rollout_data/71.pt'), {
    summarize: true,
    onSample: (value) => {
      const line = JSON.parse(sampleLine(value)) as { loss_mask: unknown; rollout_log_probs: unknown };
      masks.push(line.loss_mask);
      logProbs.push(line.rollout_log_probs);
    },
  });
  const lines = readFileSync(join(REAL, 'rollout/rollout_71.jsonl'), 'utf8').trim().split('\n');
  const full = lines.map((l) => JSON.parse(l) as { loss_mask: number[] | null; rollout_log_probs: number[] });
  assert.equal(masks.length, full.length);
  full.forEach((s, i) => {
    const mask = s.loss_mask;
    // Lists of 8 numbers or fewer are kept whole; None stays null.
    const want = mask === null ? null : mask.length <= 8 ? mask : { $numbers: mask.length, $sum: mask.reduce((a, b) => a + b, 0) };
    assert.deepEqual(masks[i], want, `sample ${i}`);
    const lp = s.rollout_log_probs;
    assert.deepEqual(logProbs[i], lp.length <= 8 ? lp : { $numbers: lp.length }, `sample ${i}: floats are counted, not summed`);
  });
});
