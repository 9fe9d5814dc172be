// The run view request drawn again as its run changes: a new step file, then its growth, are in the
// next answer; files unchanged since the last answer are not read again (their part of the model
// is kept by their stamp), and the answer equals a fresh server's. A folder's metrics log is
// compared with its run, so metric-mismatch findings are listed with their messages, again from
// the kept parts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { RunViewRequest } from '../../shared/protocol';
import type { RunView } from '../../shared/runViewModel';
import { repoRoot, tempWorkspace } from './fixtures';
import { withHarness } from './harness';
import { EXAMPLE_ROLLOUT, EXAMPLE_ROLLOUT_SETTINGS } from '../shared/exampleRun';

const ROOT = repoRoot();

test('runView follows its folder: a new step file and its growth; kept parts answer as a fresh server does', async () => {
  const ws = tempWorkspace();
  try {
    const folder = join(ws.dir, 'rollout');
    cpSync(EXAMPLE_ROLLOUT, folder, { recursive: true });
    const uri = pathToFileURL(folder).href;
    const lines = readFileSync(join(folder, 'rollout_2.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.stringify({ ...JSON.parse(l), rollout_id: 4 }));
    const step4 = join(folder, 'rollout_4.jsonl');
    const samplesAt = (v: RunView, step: number) => v.steps.find((s) => s.step === step)?.samples;
    let last: RunView | undefined;
    await withHarness({ workspaceFolders: [ws.dir], settings: () => EXAMPLE_ROLLOUT_SETTINGS }, async (h) => {
      const first = (await h.client.sendRequest(RunViewRequest, { uri })) as RunView;
      assert.deepEqual(
        first.steps.map((s) => s.step),
        [1, 2, 3],
      );
      writeFileSync(step4, lines.slice(0, 8).join('\n') + '\n');
      const appeared = (await h.client.sendRequest(RunViewRequest, { uri })) as RunView;
      assert.deepEqual(
        appeared.steps.map((s) => s.step),
        [1, 2, 3, 4],
      );
      assert.equal(samplesAt(appeared, 4), 8);
      assert.deepEqual(appeared.steps.slice(0, 3), first.steps, 'the unchanged steps as before');
      appendFileSync(step4, lines.slice(8).join('\n') + '\n');
      last = (await h.client.sendRequest(RunViewRequest, { uri })) as RunView;
      assert.equal(samplesAt(last, 4), lines.length);
      assert.equal(last.totals.samples, first.totals.samples + lines.length);
    });
    await withHarness({ workspaceFolders: [ws.dir], settings: () => EXAMPLE_ROLLOUT_SETTINGS }, async (h) => {
      const fresh = (await h.client.sendRequest(RunViewRequest, { uri })) as RunView;
      assert.deepEqual(last, fresh);
    });
  } finally {
    ws.remove();
  }
});

test('runView on the example run: metric-mismatch listed with its message, twice the same (the second from kept parts)', async () => {
  const run = join(ROOT, 'examples/run');
  const settings = parse(readFileSync(join(run, 'rollout-lens.yaml'), 'utf8')) as Record<string, unknown>;
  await withHarness({ workspaceFolders: [run], settings: () => ({ ...settings, evalConfig: join(run, 'eval_config.yaml') }) }, async (h) => {
    const uri = pathToFileURL(run).href;
    const a = (await h.client.sendRequest(RunViewRequest, { uri })) as RunView;
    const b = (await h.client.sendRequest(RunViewRequest, { uri })) as RunView;
    assert.deepEqual(a, b);
    assert.equal(a.findings['metric-mismatch'], 2);
    const gpqa = a.findingRows.find((f) => f.code === 'metric-mismatch' && f.message.startsWith('eval/gpqa at step 100'));
    assert.ok(gpqa, JSON.stringify(a.findingRows.map((f) => f.code)));
    assert.equal(gpqa.severity, 'warning');
    assert.ok(gpqa.source.startsWith('file://') && gpqa.source.endsWith('metrics.jsonl'));
    assert.deepEqual(
      a.runs.map((r) => r.framework),
      ['miles', 'verl'],
    );
    assert.equal(a.runs[0].headline, 'step 1: 6 of 8 groups dropped: 2 infrastructure aborts, 1 policy abort, 1 unknown, 2 zero-std');
  });
});
