// slime 624b824's eval path on attempts that fan out into siblings sharing rollout_id (compact rollouts,
// docs/framework-files.md#compact-rollouts): written by slime's own save_debug_rollout_data, its figures
// or what it raised from its own log_eval_rollout_data (scripts/gen-real-fixtures.py --slime).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';

const REAL = join(__dirname, '../../../../test/fixtures/real/slime');

interface Expected {
  settings: Partial<RolloutLensSettings>;
  metrics: Record<string, number> | null;
  crash: string | null;
}

function expected(step: number): Expected {
  return JSON.parse(readFileSync(join(REAL, `eval/eval_${step}.expected.json`), 'utf8')) as Expected;
}

async function findingsAndMetrics(rel: string, want: Expected) {
  const r = await analyzeFiles([{ path: join(REAL, rel), displayPath: rel }], {
    access: nodeFileAccess,
    settings: { ...DEFAULT_SETTINGS, ...want.settings },
    evalConfig: null,
  });
  return { findings: r.findings, metrics: r.files[0].metrics, format: r.files[0].format };
}

for (const file of ['eval/eval_102.jsonl', 'rollout_data/eval_102.pt']) {
  test(`slime eval 102 (${file}): every figure slime logged over the samples; the fan-out named with slime's version`, async () => {
    const want = expected(102);
    const r = await findingsAndMetrics(file, want);
    assert.ok(r.format.startsWith('slime-'), r.format);
    for (const [name, v] of Object.entries(want.metrics!)) {
      if (name.includes('/response_len/') && file.endsWith('.pt')) continue;
      assert.equal(r.metrics[name], v, name);
    }
    const info = r.findings.filter((f) => f.code === 'compact-rollouts');
    assert.equal(info.length, 1);
    assert.ok(info[0].message.includes("slime 624b824's eval path logs every sample"), info[0].message);
    assert.ok(!info[0].message.includes('miles'), info[0].message);
    assert.deepEqual(
      r.findings.filter((f) => f.code === 'misgrouped-dataset'),
      [],
    );
  });
}

for (const file of ['eval/eval_103.jsonl', 'rollout_data/eval_103.pt']) {
  test(`slime eval 103 (${file}): slime's pass@k assertion is quoted as a metrics-crash`, async () => {
    const want = expected(103);
    assert.ok(want.crash?.startsWith('AssertionError'));
    const r = await findingsAndMetrics(file, want);
    const crash = r.findings.filter((f) => f.code === 'metrics-crash');
    assert.equal(crash.length, 1);
    assert.ok(crash[0].message.includes(`raises ${want.crash}, so nothing of this evaluation is logged`), crash[0].message);
  });
}
