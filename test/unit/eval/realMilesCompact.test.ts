// miles' compact / sub-agent rollouts (docs/framework-files.md#compact-rollouts): samples made by
// miles' own agentic generation (`agentic_tool_call.generate`, session server v2), filtered,
// flattened and dumped by its own functions, with what `log_rollout_data` logged and how
// `convert_samples_to_train_data` keyed the rollouts (scripts/gen-real-fixtures.py `miles_compact`),
// as JSON lines and as the `.pt` dump of the same samples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import type { RunReport } from '../../../server/src/core/vocabulary/types';
import { pyFloatRepr } from '../../../shared/pythonRepr';

const REAL = join(__dirname, '../../../../test/fixtures/real/miles');

interface Expected {
  settings: Partial<RolloutLensSettings>;
  metrics: Record<string, number>;
  samples: number;
  rollouts_by_group: Record<string, number>;
  samples_by_group: Record<string, number>;
  pass_at_k_by_rollouts: Record<string, number>;
}

function expected(step: number): Expected {
  return JSON.parse(readFileSync(join(REAL, `rollout/rollout_${step}.expected.json`), 'utf8')) as Expected;
}

async function run(rel: string, settings: Partial<RolloutLensSettings>): Promise<RunReport> {
  return analyzeFiles([{ path: join(REAL, rel), displayPath: rel }], {
    access: nodeFileAccess,
    settings: { ...DEFAULT_SETTINGS, ...settings },
    evalConfig: null,
    keepDetail: true,
  });
}

function same(actual: number | undefined, want: number, name: string): void {
  assert.ok(actual !== undefined, `${name} not recomputed`);
  assert.ok(actual === want || Math.abs(actual - want) <= 1e-15 * Math.abs(want), `${name}: engine ${actual}, miles ${want}`);
}

for (const step of [20, 21]) {
  for (const file of [`rollout/rollout_${step}.jsonl`, `rollout_data/${step}.pt`]) {
    test(`compact rollout ${step} (${file}): groups of n rollouts are whole; every figure miles logged; pass@k by rollouts stated`, async () => {
      const want = expected(step);
      const r = await run(file, want.settings);
      const report = r.files[0];
      // The dump's groups hold more samples than n, but n rollouts each: no incomplete-group.
      assert.ok(Object.values(want.samples_by_group).some((n) => n > 6));
      assert.ok(Object.values(want.rollouts_by_group).every((n) => n === 6));
      assert.deepEqual(
        r.findings.filter((f) => f.code === 'incomplete-group'),
        [],
      );
      assert.deepEqual(
        report.detail!.groups.map((g) => [g.key, g.lines.length]),
        Object.entries(want.samples_by_group),
      );
      // The dump holds the kept groups only (miles dumps after its filters): its drops are not in it.
      for (const [name, v] of Object.entries(want.metrics)) {
        if (name.startsWith('rollout/dynamic_filter/')) continue;
        if (name.startsWith('rollout/response_len/') && file.endsWith('.pt')) continue; // short masks: counted, see realMilesLengths
        same(report.metrics[name], v, name);
      }
      for (const k of Object.keys(report.metrics)) if (k.startsWith('passrate/')) assert.ok(k in want.metrics, `engine only: ${k}`);
      // The rollout_id is the rollout, not the step: the step is the file's (20, 21).
      assert.equal(report.step, step);
      const info = r.findings.filter((f) => f.code === 'compact-rollouts');
      assert.equal(info.length, 1);
      assert.equal(info[0].severity, 'information');
      const msg = info[0].message;
      for (const [k, v] of Object.entries(want.pass_at_k_by_rollouts)) assert.ok(msg.includes(`${k} = ${pyFloatRepr(v)}`), msg);
      const logged = Object.keys(want.metrics).some((k) => k.startsWith('passrate/'));
      assert.equal(msg.includes('logs no passrate/pass@k for this step'), !logged, msg);
      assert.ok(msg.includes('miles main (31f1ca9)'), msg);
    });
  }
}

test('compact rollout 20: the finding sits on the first fanned-out sample and lists its siblings', async () => {
  const r = await run('rollout/rollout_20.jsonl', expected(20).settings);
  const f = r.findings.find((x) => x.code === 'compact-rollouts')!;
  const lines = readFileSync(join(REAL, 'rollout/rollout_20.jsonl'), 'utf8').trimEnd().split('\n');
  const ids = lines.map((l) => (JSON.parse(l) as { rollout_id: number | null }).rollout_id);
  const first = ids.findIndex((id) => id !== null);
  assert.equal(f.line, first + 1);
  assert.deepEqual(
    f.related!.map((x) => x.line),
    ids.flatMap((id, k) => (id === ids[first] && k !== first ? [k + 1] : [])),
  );
});

test('compact rollout 20 with n = 5: the group is said to have 6 rollouts, its baseline taken over them', async () => {
  const r = await run('rollout/rollout_20.jsonl', { ...expected(20).settings, nSamplesPerPrompt: 5 });
  const f = r.findings.filter((x) => x.code === 'incomplete-group');
  assert.equal(f.length, 3);
  assert.ok(f[0].message.startsWith('group 2000 has 6 rollouts (9 samples; siblings share rollout_id)'), f[0].message);
  assert.ok(f[0].message.includes('taken over its 6 rollouts, one reward each'), f[0].message);
  // A group without fan-out keeps the per-sample wording.
  assert.ok(f[2].message.startsWith('group 2004 has 6 samples'), f[2].message);
});

test('rollout_id on samples of other indexes or groups (a step written there) names no rollout: samples are counted', async () => {
  const lines = readFileSync(join(REAL, 'rollout/rollout_20.jsonl'), 'utf8').trimEnd().split('\n');
  const text = lines.map((l) => JSON.stringify({ ...(JSON.parse(l) as object), rollout_id: 20 })).join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'compact-'));
  writeFileSync(join(dir, 'rollout_20.jsonl'), text + '\n');
  const r = await analyzeFiles([{ path: join(dir, 'rollout_20.jsonl'), displayPath: 'rollout_20.jsonl' }], {
    access: nodeFileAccess,
    settings: { ...DEFAULT_SETTINGS, nSamplesPerPrompt: 6 },
    evalConfig: null,
  });
  // One group alone: its samples share the id but not their index, so they are no copies of one input.
  const one = lines.filter((l) => (JSON.parse(l) as { group_index: number }).group_index === 2000);
  writeFileSync(join(dir, 'rollout_21.jsonl'), one.map((l) => JSON.stringify({ ...(JSON.parse(l) as object), rollout_id: 21 })).join('\n') + '\n');
  const single = await analyzeFiles([{ path: join(dir, 'rollout_21.jsonl'), displayPath: 'rollout_21.jsonl' }], {
    access: nodeFileAccess,
    settings: { ...DEFAULT_SETTINGS, nSamplesPerPrompt: 6 },
    evalConfig: null,
  });
  rmSync(dir, { recursive: true });
  assert.equal(r.findings.filter((f) => f.code === 'compact-rollouts').length, 0);
  assert.deepEqual(
    r.findings.filter((f) => f.code === 'incomplete-group').map((f) => f.group),
    ['2000', '2001'],
  );
  assert.deepEqual(
    single.findings.filter((f) => f.code === 'incomplete-group' || f.code === 'compact-rollouts').map((f) => [f.code, f.message.slice(0, 25)]),
    [['incomplete-group', 'group 2000 has 9 samples,']],
  );
});
