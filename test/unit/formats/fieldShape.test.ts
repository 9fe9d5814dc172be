// A field a metric reads, of another shape than its writer gives it, is named once per file
// (docs/diagnostics.md#field-shape): miles' own Sample with weight_versions as span dicts
// (scripts/gen-real-fixtures.py miles_span_versions), as JSON lines and as miles' .pt dump.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { DEFAULT_SETTINGS } from '../../../shared/protocol';
import { analyzeFiles, RunAnalyzer } from '../../../server/src/core/engine';
import type { ReferencePaths } from '../../../server/src/core/formats/referencePaths';
import { scanLineFile } from '../../../server/src/core/scan/lineFileScan';
import { describeShape } from '../../../server/src/core/formats/fieldShape';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';

const MILES = join(__dirname, '../../../../test/fixtures/real/miles');

/** The report of one fixture, its scan taking the reference paths `reference` asks for (none: the engine's own entry). */
async function findings(rel: string, reference?: ReferencePaths) {
  const target = { path: join(MILES, rel), displayPath: rel };
  const options = { access: nodeFileAccess, settings: DEFAULT_SETTINGS, evalConfig: null };
  let r;
  if (reference === undefined) r = await analyzeFiles([target], options);
  else {
    const run = new RunAnalyzer(options);
    await run.add(await scanLineFile(target, options, undefined, reference));
    r = run.finish();
  }
  return { report: r, shapes: r.findings.filter((f) => f.code === 'field-shape') };
}

// Every reader: the per-line path (default), the whole scan, zod alone; a .pt's rows read directly.
for (const rel of ['rollout/rollout_7.jsonl', 'rollout_data/7.pt']) {
  for (const [way, options] of [
    ['default', undefined],
    ['whole scan', { fullScan: true }],
    ['zod only', { zodOnly: true }],
  ] as const) {
    test(`weight_versions as span dicts (${rel}, ${way}): one field-shape finding names the field and the shape`, async () => {
      const { report, shapes } = await findings(rel, options);
      assert.equal(shapes.length, 1, JSON.stringify(report.findings));
      assert.equal(shapes[0].line, 2);
      assert.match(shapes[0].message, /^weight_versions is a list whose items are not all str or int/);
      assert.ok(shapes[0].message.includes('weight_version/*'));
      // The metric it names is indeed not recomputed.
      assert.equal(report.files[0].metrics['rollout/weight_version/mean'], undefined);
    });
  }
}

test('a good file has no field-shape finding', async () => {
  for (const rel of ['rollout/rollout_1.jsonl', 'rollout_data/1.pt']) assert.deepEqual((await findings(rel)).shapes, []);
});

test('shapes are named as Python names them, the same for every reader', () => {
  assert.equal(describeShape({ a: 1 }), 'a dict');
  assert.equal(describeShape('3'), 'a str');
  assert.equal(describeShape(true), 'a bool');
  assert.equal(describeShape(3), 'a number');
  assert.equal(describeShape([{ a: 1 }]), describeShape([[1]]));
});
