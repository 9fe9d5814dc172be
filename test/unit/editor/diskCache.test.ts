// The disk cache of the run views keeps per-sample detail and findings only within its budget
// (in samples: a finding counts as one): a run folder's files over it are answered and not held
// (the server keeps no folder's samples after answering), the ones within it are kept and
// evicted oldest first (docs/editors.md's run views read files the editor has not opened through
// this cache). Each view asks for the least detail it needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CancellationToken } from 'vscode-languageserver';
import { DiskCache } from '../../../server/src/server/analysis/diskCache';
import { SettingsCache } from '../../../server/src/server/analysis/settingsCache';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../lsp/fixtures';
import { eachSample, groupOf, sampleAt, sampleCount } from '../../../server/src/core/inspect';
import type { FileAnalysis } from '../../../server/src/server/analysis/fileAnalysis';
import { runViewBuilder } from '../../../server/src/core/views/runView';

const ROOT = repoRoot();
const FOLDER = join(ROOT, 'examples/run/rollout');
const FILES = ['rollout_1.jsonl', 'rollout_2.jsonl', 'rollout_3.jsonl'].map((f) => join(FOLDER, f));
const SETTINGS = { nSamplesPerPrompt: 4, dynamicFilter: 'check_reward_nonzero_std' };

/** What a result weighs in the cache: its detail's samples and its findings. */
const weight = (r: FileAnalysis) => (r.report?.detail ? sampleCount(r.report.detail) : 0) + r.findings.length;

const cacheWith = (maxSamples?: number) =>
  new DiskCache(nodeFileAccess, new SettingsCache(null, SETTINGS, () => undefined), [ROOT], () => undefined, maxSamples);

test('a file over the sample budget is answered in full and not held', async () => {
  const roomy = cacheWith();
  const full = await roomy.analyze(FILES[0], CancellationToken.None);
  const n = weight(full);
  assert.ok((full.report?.detail?.samples.length ?? 0) > 1 && full.findings.length > 0);
  assert.deepEqual(roomy.held(), { files: 1, samples: n });
  assert.equal(await roomy.analyze(FILES[0], CancellationToken.None), full, 'a held file is answered from the cache');

  const tight = cacheWith(n - 1);
  const again = await tight.analyze(FILES[0], CancellationToken.None);
  assert.equal(weight(again), n);
  assert.deepEqual(again.report?.metrics, full.report?.metrics);
  assert.deepEqual(again.report?.detail?.groups, full.report?.detail?.groups);
  assert.deepEqual(tight.held(), { files: 0, samples: 0 });
  assert.equal(tight.holds(FILES[0]), false);
});

test('the files of a folder are held within the budget, oldest dropped first', async () => {
  const counts: number[] = [];
  const probe = cacheWith();
  for (const f of FILES) counts.push(weight(await probe.analyze(f, CancellationToken.None)));
  assert.deepEqual(probe.held(), { files: 3, samples: counts[0] + counts[1] + counts[2] });

  const budget = counts[1] + counts[2];
  const cache = cacheWith(budget);
  for (const f of FILES) await cache.analyze(f, CancellationToken.None);
  assert.ok(cache.held().samples <= budget);
  assert.equal(cache.holds(FILES[0]), false);
  assert.equal(cache.holds(FILES[2]), true);
  cache.clear();
  assert.deepEqual(cache.held(), { files: 0, samples: 0 });
});

test('the run views read a file kept as its columnar store exactly as one kept as records', async () => {
  const cache = cacheWith();
  for (const f of FILES) {
    const records = await cacheWith().analyze(f, CancellationToken.None, 'records');
    const stored = await cache.analyze(f, CancellationToken.None, 'store');
    const a = records.report!.detail!;
    const b = stored.report!.detail!;
    assert.ok(b.store && b.samples.length === 0 && sampleCount(b) === a.samples.length);
    assert.deepEqual([...eachSample(b)], a.samples);
    // The store form keeps each group's verdict by group id, not an outcome per group; the
    // facade builds the same outcome from it.
    assert.ok(b.verdicts && b.groups.length === 0 && a.groups.length > 0);
    for (const s of a.samples) {
      assert.deepEqual(sampleAt(b, s.line), sampleAt(a, s.line));
      assert.deepEqual(groupOf(b, s), groupOf(a, s));
    }
    assert.equal(sampleAt(b, 10_000), undefined);
    const view = (r: typeof records) => {
      const builder = runViewBuilder({ causes: r.settings });
      builder.add(r.report!);
      return builder.finish({ findings: [] });
    };
    assert.deepEqual(view(stored), view(records));
  }
  // A store-form result does not answer a request for records (a sample view reads records).
  const records = await cache.analyze(FILES[0], CancellationToken.None, 'records');
  assert.ok(records.report?.detail?.store === undefined && records.report!.detail!.samples.length > 0);
});

test('the counts of a folder need no detail: the none form holds the report counts and metrics only', async () => {
  const cache = cacheWith();
  for (const f of FILES) {
    const full = await cacheWith().analyze(f, CancellationToken.None, 'store');
    const bare = await cache.analyze(f, CancellationToken.None, 'none');
    assert.equal(bare.report?.detail, undefined);
    assert.deepEqual(bare.findings, []);
    assert.deepEqual([bare.report?.groups, bare.report?.metrics], [full.report?.groups, full.report?.metrics]);
    assert.equal(bare.recomputed?.step, full.recomputed?.step);
  }
  assert.deepEqual(cache.held(), { files: 3, samples: 0 });
  // A held none-form result does not answer a request for more; a store-form one answers both.
  const stored = await cache.analyze(FILES[0], CancellationToken.None, 'store');
  assert.ok(stored.report?.detail?.store);
  assert.equal(await cache.analyze(FILES[0], CancellationToken.None, 'none'), stored);
});
