// The run view and sample view requests through the protocol: `rolloutLens/runView` on the example run's
// rollout folder (sources as URIs) and `rolloutLens/sampleView` on a sample read from disk and on an
// open document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  EvalDatasetsRequest,
  GroupsByCauseRequest,
  RunViewRequest,
  SampleViewRequest,
  type EvalDatasetsResult,
  type GroupsByCauseResult,
} from '../../shared/protocol';
import type { RunView } from '../../shared/runViewModel';
import type { SampleView } from '../../shared/sampleViewModel';
import { repoRoot, tempWorkspace } from './fixtures';
import { inWorkspace, withHarness } from './harness';
import { EXAMPLE_ROLLOUT, EXAMPLE_ROLLOUT_SETTINGS } from '../shared/exampleRun';

const ROOT = repoRoot();

test('runView on the example rollout folder: three steps, drops by reason, sources as URIs, excerpts', async () => {
  await withHarness({ workspaceFolders: [ROOT], settings: () => EXAMPLE_ROLLOUT_SETTINGS }, async (h) => {
    const view = (await h.client.sendRequest(RunViewRequest, { uri: pathToFileURL(EXAMPLE_ROLLOUT).href })) as RunView;
    assert.deepEqual(
      view.steps.map((s) => s.step),
      [1, 2, 3],
    );
    assert.equal(view.steps[0].drops['group_has_aborted_SandboxUnavailable'], 1);
    for (const s of view.steps) assert.ok(s.sources[0].startsWith('file://') && s.sources[0].endsWith(`rollout_${s.step}.jsonl`));
    const [ref] = view.samples['group_has_aborted_SandboxUnavailable'];
    assert.ok(ref.source.startsWith('file://'));
    assert.match(ref.prompt ?? '', /^Repository /);
  });
});

test('sampleView: a sample from disk, then the same line of an open document; no sample → null', async () => {
  await withHarness({ workspaceFolders: [ROOT], settings: () => EXAMPLE_ROLLOUT_SETTINGS }, async (h) => {
    const path = join(EXAMPLE_ROLLOUT, 'rollout_1.jsonl');
    const uri = pathToFileURL(path).href;
    const fromDisk = (await h.client.sendRequest(SampleViewRequest, { uri, line: 12 })) as SampleView;
    assert.deepEqual([fromDisk.line, fromDisk.status, fromDisk.cause?.name], [13, 'aborted', 'SandboxUnavailable']);
    assert.equal(fromDisk.verdict?.kind === 'rollout' && fromDisk.verdict.reason, 'group_has_aborted_SandboxUnavailable');
    h.open(uri, readFileSync(path, 'utf8'));
    const fromDoc = (await h.client.sendRequest(SampleViewRequest, { uri, line: 12 })) as SampleView;
    assert.deepEqual(fromDoc.siblings, fromDisk.siblings);
    assert.equal(await h.client.sendRequest(SampleViewRequest, { uri, line: 5000 }), null);
    await assert.rejects(h.client.sendRequest(SampleViewRequest, { uri, line: -1 }), /sampleView needs/);
  });
});

test('a file read from disk (its store and the verdicts of its groups) answers the views as its open document (records) does', async () => {
  await withHarness({ workspaceFolders: [ROOT], settings: () => EXAMPLE_ROLLOUT_SETTINGS }, async (h) => {
    for (const name of ['rollout_1.jsonl', 'rollout_2.jsonl', 'rollout_3.jsonl']) {
      const path = join(EXAMPLE_ROLLOUT, name);
      const uri = pathToFileURL(path).href;
      const text = readFileSync(path, 'utf8');
      const lines = text.split('\n').length - 1;
      const answers = async () => ({
        groups: (await h.client.sendRequest(GroupsByCauseRequest, { uri })) as GroupsByCauseResult,
        run: (await h.client.sendRequest(RunViewRequest, { uri })) as RunView,
        samples: await Promise.all(Array.from({ length: lines }, (_, line) => h.client.sendRequest(SampleViewRequest, { uri, line }))),
      });
      const fromDisk = await answers();
      h.open(uri, text);
      await h.waitFor('analysisChanged', () => h.changes.find((c) => c.uri === uri));
      const fromDoc = await answers();
      h.close(uri);
      assert.ok(fromDisk.groups.files[0].buckets.some((b) => b.groups.length > 0));
      assert.deepEqual(fromDisk.groups, fromDoc.groups, `${name}: groupsByCause`);
      assert.deepEqual(fromDisk.run, fromDoc.run, `${name}: runView`);
      assert.ok(fromDisk.samples.filter((v) => v !== null).length > 0);
      assert.deepEqual(fromDisk.samples, fromDoc.samples, `${name}: sampleView of every line`);
    }
  });
});

test('an eval dump read from disk (its store) answers the run view, its datasets and its samples as its open document (records) does', async () => {
  // Named without a step number: a miles sample's rollout_id is its rollout (miles main 31f1ca9), not
  // the step, so the run view has none; its three datasets each start on their own line.
  const ws = tempWorkspace();
  ws.write('eval_config.yaml', readFileSync(join(ROOT, 'examples/run/eval_config.yaml'), 'utf8'));
  const text = readFileSync(join(ROOT, 'examples/run/eval/eval_100.jsonl'), 'utf8');
  mkdirSync(ws.path('eval'));
  ws.write('eval/eval_last.jsonl', text);
  const uri = ws.uri('eval/eval_last.jsonl');
  await inWorkspace(ws, { settings: () => ({ evalConfig: ws.path('eval_config.yaml') }) }, async (h) => {
    const lines = text.split('\n').length - 1;
    const answers = async () => ({
      run: (await h.client.sendRequest(RunViewRequest, { uri })) as RunView,
      datasets: (await h.client.sendRequest(EvalDatasetsRequest, { uri })) as EvalDatasetsResult,
      samples: (await Promise.all(Array.from({ length: lines }, (_, line) => h.client.sendRequest(SampleViewRequest, { uri, line })))) as SampleView[],
    });
    const fromDisk = await answers();
    h.open(uri, text);
    await h.waitFor('analysisChanged', () => h.changes.find((c) => c.uri === uri));
    const fromDoc = await answers();
    assert.deepEqual(
      fromDisk.run.eval.map((e) => [e.step, e.dataset]),
      [
        [null, 'aime'],
        [null, 'gpqa'],
        [null, 'swe_verified'],
      ],
    );
    assert.deepEqual(new Set(fromDisk.datasets.datasets.map((d) => d.line)).size, 3, 'each dataset at its own first line');
    // Every sample in its dataset's prompt group: aime's 12 (no dataset recorded: the config's first) of 4, gpqa's 12 and swe_verified's 4 of 2.
    assert.deepEqual(
      fromDisk.samples.map((v) => (v.verdict?.kind === 'eval' && v.verdict.groupIndex !== null ? `${v.verdict.dataset}:${v.siblings.length}` : null)),
      [...Array<string>(12).fill('aime:4'), ...Array<string>(12).fill('gpqa:2'), ...Array<string>(4).fill('swe_verified:2')],
    );
    assert.deepEqual(fromDisk.run, fromDoc.run, 'runView');
    assert.deepEqual(fromDisk.datasets, fromDoc.datasets, 'evalDatasets');
    assert.deepEqual(fromDisk.samples, fromDoc.samples, 'sampleView of every line');
  });
});
