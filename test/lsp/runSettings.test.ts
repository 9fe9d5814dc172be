// Settings found like a linter's: a run opened without a workspace root and without client
// settings still gets the run's rollout-lens.yaml (nearest above the log, merged over the client's)
// and its eval config (beside the log, then upward, then the settings): the same findings as
// `check` on the run folder, and the quick fix. A config that cannot be used is a diagnostic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeAction, Diagnostic } from 'vscode-languageserver';
import { checkRun, diagnosticLines, findingLines } from '../shared/checkRun';
import { milesSample, repoRoot, rolloutLines, tempWorkspace } from './fixtures';
import { inWorkspace } from './harness';

function copyRun(ws: { path(name: string): string }): string {
  cpSync(join(repoRoot(), 'examples/run'), ws.path('run'), { recursive: true });
  return ws.path('run');
}

test("no workspace root, no client settings: an eval log gets the run's settings and eval config, as check does, and its quick fix", async () => {
  const ws = tempWorkspace('rl-runsettings-');
  const run = copyRun(ws);
  await inWorkspace(ws, { workspaceFolders: [], settings: () => ({}) }, async (h) => {
    const log = join(run, 'eval/eval_100.jsonl');
    const uri = pathToFileURL(log).href;
    const expected = findingLines(checkRun(run), log);
    assert.ok(expected.some((l) => l.startsWith('passk-group-size-mismatch\t')));
    const got = await h.openAndWait(uri, readFileSync(log, 'utf8'));
    assert.deepEqual(diagnosticLines(got), expected);
    const misgrouped = got.find((d) => d.code === 'misgrouped-dataset') as Diagnostic;
    const actions = (await h.client.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: misgrouped.range,
      context: { diagnostics: [misgrouped] },
    })) as CodeAction[];
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Set n_samples_per_eval_prompt of gpqa to 3 in eval_config.yaml'],
    );
  });
});

test('the nearest settings file wins and is merged over the client settings', async () => {
  const ws = tempWorkspace('rl-runsettings-');
  // Client: no dynamic filter and n = 4. Outer file: n = 8 (a wrong size for these groups of 4).
  // Inner file (nearest): the dynamic filter. Merged: n = 8 from the outer file is not used.
  mkdirSync(ws.path('runs/a'), { recursive: true });
  writeFileSync(ws.path('runs/rollout-lens.yaml'), 'nSamplesPerPrompt: 8\n');
  writeFileSync(ws.path('runs/a/rollout-lens.json'), '{"dynamicFilter": "check_reward_nonzero_std"}');
  await inWorkspace(ws, { settings: () => ({ nSamplesPerPrompt: 4, dynamicFilter: 'none' }) }, async (h) => {
    // Group 0: rewards all 1.0 (zero std); group 1 mixed. Groups of 4.
    const lines = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => milesSample({ group: i < 4 ? 0 : 1, index: i, reward: i < 4 || i % 2 ? '1.0' : '0.0' }));
    const inner = ws.write('runs/a/r.jsonl', `${lines.join('\n')}\n`);
    const outer = ws.write('runs/r.jsonl', `${lines.join('\n')}\n`);
    h.open(pathToFileURL(inner).href, `${lines.join('\n')}\n`);
    h.open(pathToFileURL(outer).href, `${lines.join('\n')}\n`);
    const a = await h.diagnostics(pathToFileURL(inner).href, (d) => d.length > 0);
    const b = await h.diagnostics(pathToFileURL(outer).href, (d) => d.length > 0);
    assert.ok(
      a.some((d) => d.code === 'zero-std-group'),
      'the inner file turns the filter on',
    );
    assert.ok(!a.some((d) => d.code === 'incomplete-group'), 'the client n (4) applies under the inner file');
    assert.ok(
      b.some((d) => d.code === 'incomplete-group'),
      'the outer file sets n = 8',
    );
    assert.ok(!b.some((d) => d.code === 'zero-std-group'), 'the client turns the filter off');
  });
});

test('a settings file or eval config that cannot be used is a diagnostic on the log, not only a log message', async () => {
  const ws = tempWorkspace('rl-runsettings-');
  const run = copyRun(ws);
  writeFileSync(join(run, 'eval_config.yaml'), 'eval:\n  datasets: [\n');
  mkdirSync(join(run, 'bad'));
  writeFileSync(join(run, 'bad/rollout-lens.yaml'), 'nSamplesPerPrompt: four\n');
  await inWorkspace(ws, { workspaceFolders: [], settings: () => ({}) }, async (h) => {
    const evalUri = pathToFileURL(join(run, 'eval/eval_100.jsonl')).href;
    const got = await h.openAndWait(evalUri, readFileSync(join(run, 'eval/eval_100.jsonl'), 'utf8'), (d) => d.some((x) => x.code === 'config-unreadable'));
    const config = got.find((d) => d.code === 'config-unreadable')!;
    assert.equal(config.range.start.line, 0);
    assert.match(String(config.message), /^eval config not used, the log is checked without it: .*eval_config\.yaml/);

    const badUri = pathToFileURL(join(run, 'bad/r.jsonl')).href;
    const bad = await h.openAndWait(badUri, `${rolloutLines().join('\n')}\n`, (d) => d.some((x) => x.code === 'config-unreadable'));
    assert.match(
      String(bad.find((d) => d.code === 'config-unreadable')!.message),
      /^run settings not used: .*rollout-lens\.yaml: nSamplesPerPrompt: expected number, received string/,
    );
  });
});
