// The sample view model on the example run and on hand-written lines: the group's
// verdict and siblings come from the inspection facade, the conversation, token facts, weight
// versions and metadata from the line; a 50 MB line gives a small model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { logProbSummary, LOG_PROB_POINTS, MAX_TEXT_CHARS, parseLine } from '../../../server/src/core/views/sampleValues';
import { readSampleView } from '../../../server/src/core/views/sampleView';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../shared/repoRoot';

const RUN = join(repoRoot(), 'examples/run');

async function inspected(path: string, settings: RolloutLensSettings) {
  const report = await analyzeFiles([{ path, displayPath: path }], { access: nodeFileAccess, settings, keepDetail: true });
  return { report: report.files[0], path, access: nodeFileAccess, settings };
}

test('example step 1, line 13: aborted SandboxUnavailable sample, its dropped group and siblings', async () => {
  const yaml = parse(readFileSync(join(RUN, 'rollout-lens.yaml'), 'utf8')) as Partial<RolloutLensSettings>;
  const settings = { ...DEFAULT_SETTINGS, nSamplesPerPrompt: yaml.nSamplesPerPrompt ?? null, dynamicFilter: yaml.dynamicFilter ?? 'none' };
  const file = await inspected(join(RUN, 'rollout/rollout_1.jsonl'), settings);
  const view = (await readSampleView(file, 13))!;
  assert.deepEqual([view.line, view.status, view.aborted, view.reward, view.group, view.index, view.step], [13, 'aborted', true, null, '3', 12, 1]);
  assert.deepEqual(view.verdict, {
    kind: 'rollout',
    kept: false,
    reason: 'group_has_aborted_SandboxUnavailable',
    droppedBy: 'aborted-group',
    metric: 'rollout/dynamic_filter/drop_group_has_aborted_SandboxUnavailable',
    formerly: [
      { name: 'rollout/dynamic_filter/drop_group_has_aborted', mode: 'sync' },
      { name: 'rollout/fully_async/aborted_groups_filtered', mode: 'fully async' },
    ],
    namedBy: 13,
  });
  assert.deepEqual(view.cause, { name: 'SandboxUnavailable', class: 'infrastructure' });
  assert.deepEqual(
    view.siblings.map((s) => [s.line, s.status, s.current]),
    [
      [13, 'aborted', true],
      [14, 'completed', false],
      [15, 'completed', false],
      [16, 'aborted', false],
    ],
  );
  assert.equal(view.siblings[3].cause, 'ServerUnreachable');
  assert.deepEqual(
    view.prompt.map((m) => m.role),
    ['system', 'user'],
  );
  assert.equal(view.label?.text, 'tests/test_issue_1111.py::test_regression');
  assert.deepEqual(view.tokens, {
    responseLength: 0,
    tokens: 8,
    lossMask: { length: 0, ones: 0, coverage: null },
    logProbs: { count: 0, mean: null, min: null, max: null, points: [] },
  });
  assert.deepEqual(view.weightVersions, { values: [], distinct: [], mixed: false });
  assert.equal(view.metadata?.kind, 'object');
  assert.match(view.raw, /"exit_status": "SandboxUnavailable"/);
  assert.equal(view.unavailable, null);
  // It wrote no response: the view says why instead of showing an empty one.
  assert.deepEqual([view.response, view.responseNote], [null, '(no output: aborted)']);
  // Named as the file is shown (relative to its folder, by the caller), with its line.
  assert.equal((await readSampleView(file, 13, 'rollout/rollout_1.jsonl'))!.title, 'rollout/rollout_1.jsonl:13');
  const completed = (await readSampleView(file, 14))!;
  assert.equal(completed.responseNote, null);
  assert.ok(completed.response && completed.response.text.length > 0);
  assert.equal(await readSampleView(file, 1000), undefined);
});

test('a line with tool calls, token facts, mixed weight versions, object rewards and NaN', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-sampleview-'));
  try {
    const line = JSON.stringify({
      group_index: 0,
      index: 0,
      prompt: 'fix the bug',
      messages: [
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"cmd":"ls"}' } }] },
        { role: 'tool', tool_call_id: 'c1', name: 'bash', content: [{ type: 'text', text: 'a.py' }] },
      ],
      response: 'done',
      tokens: [1, 2, 3, 4, 5, 6],
      loss_mask: [1, 1, 0, 1],
      rollout_log_probs: [-0.5, -1.5, 'x', -0.25],
      weight_versions: ['7', '7', '8'],
      reward: { acc: 1, fmt: 0.5 },
      status: 'completed',
      metadata: { exit_status: 'Submitted', deep: { a: [1, 2, 3] } },
    }).replace('"x"', 'NaN');
    const path = join(dir, 'r.jsonl');
    writeFileSync(path, `${line}\n`);
    const file = await inspected(path, { ...DEFAULT_SETTINGS, rewardKey: 'acc' });
    const view = (await readSampleView(file, 1))!;
    assert.deepEqual(view.prompt, [{ role: 'user', content: { text: 'fix the bug' }, name: null, toolCalls: [], toolCallId: null }]);
    assert.deepEqual(view.conversation[0].toolCalls, [{ id: 'c1', name: 'bash', arguments: { text: '{"cmd":"ls"}' } }]);
    assert.deepEqual([view.conversation[1].role, view.conversation[1].toolCallId, view.conversation[1].content?.text], ['tool', 'c1', 'a.py']);
    assert.deepEqual(view.rewards, { acc: 1, fmt: 0.5 });
    assert.equal(view.reward, 1);
    assert.deepEqual(view.tokens.lossMask, { length: 4, ones: 3, coverage: 0.75 });
    assert.deepEqual(view.tokens.logProbs, { count: 4, mean: -0.75, min: -1.5, max: -0.25, points: [-0.5, -1.5, 0, -0.25] });
    assert.deepEqual(view.weightVersions, { values: ['7', '7', '8'], distinct: ['7', '8'], mixed: true });
    // A finished attempt's exit_status (Submitted) is its exit status, not a failure cause.
    assert.equal(view.cause, null);
    assert.equal(view.verdict?.kind, 'rollout');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a 50 MB line: clipped response, summarised log-probs, a model under 1 MB', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-sampleview-'));
  try {
    const path = join(dir, 'big.jsonl');
    const n = 2_000_000;
    const probs = Array.from({ length: n }, (_, i) => -((i % 1000) / 1000));
    const line = JSON.stringify({
      group_index: 0,
      index: 0,
      prompt: 'p',
      response: 'x'.repeat(40_000_000),
      rollout_log_probs: probs,
      status: 'completed',
      reward: 1.0,
    });
    assert.ok(line.length > 50_000_000);
    writeFileSync(path, `${line}\n`);
    const file = await inspected(path, DEFAULT_SETTINGS);
    const view = (await readSampleView(file, 1))!;
    assert.deepEqual(view.response, { text: 'x'.repeat(MAX_TEXT_CHARS), length: 40_000_000 });
    assert.equal(view.tokens.logProbs?.count, n);
    assert.equal(view.tokens.logProbs?.points.length, LOG_PROB_POINTS);
    assert.equal(view.tokens.logProbs?.min, -0.999);
    assert.ok(view.rawClipped);
    const size = JSON.stringify(view).length;
    assert.ok(size < 1024 * 1024, `${size} characters`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('parseLine reads Python NaN and Infinity outside strings only', () => {
  assert.deepEqual(parseLine('{"a": NaN, "b": [-Infinity, Infinity], "c": "NaN Infinity \\" NaN"}'), { a: null, b: [null, null], c: 'NaN Infinity " NaN' });
  assert.deepEqual(logProbSummary([]), { count: 0, mean: null, min: null, max: null, points: [] });
});
