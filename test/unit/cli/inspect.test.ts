// `rollout-lens inspect <file> <line>`: the engine's inspection of one sample, as terminal-safe text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GOOD, GOOD2, runCli, tempDir } from './run';

const ABORTED =
  '{"group_index": 1, "index": 2, "prompt": "q", "response": "", "response_length": 0, "status": "aborted", "reward": null, "metadata": {"exit_status": "SandboxUnavailable", "error": "sandbox \\u001b[31mdown\\u202e"}}';
const OK3 = '{"group_index": 1, "index": 3, "prompt": "q", "response": "x", "response_length": 1, "status": "completed", "reward": 0.0}';

test('cli inspect: a dropped sample shows its group, the filter, the metric, its cause and the logged message, escaped', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'rollout_1.jsonl'), [GOOD, GOOD2, ABORTED, OK3].join('\n') + '\n');
  const r = runCli(['inspect', 'rollout_1.jsonl', '3'], dir);
  assert.equal(r.status, 0, r.stderr);
  // The step is the file name's: a miles sample's rollout_id is its rollout, not the step.
  assert.match(r.stdout, /^line 3 · status aborted · reward null · index 2 · step 1 \(miles-sample, rollout\)$/m);
  assert.match(r.stdout, /^group 1: 2 samples, dropped by the aborted-group filter, reason group_has_aborted_SandboxUnavailable$/m);
  assert.match(
    r.stdout,
    /^counted in rollout\/dynamic_filter\/drop_group_has_aborted_SandboxUnavailable \(per-cause drop reasons\); miles main \(31f1ca9\) logs rollout\/dynamic_filter\/drop_group_has_aborted \(sync\)/m,
  );
  assert.match(r.stdout, /^ {2}line 3: aborted, reward null, cause SandboxUnavailable {2}<- this sample$/m);
  assert.match(r.stdout, /^cause SandboxUnavailable: infrastructure$/m);
  assert.match(r.stdout, /^metadata\.error: sandbox \\x1b\[31mdown\\u202e$/m);
  assert.doesNotMatch(r.stdout, /[\u001b\u202e]/);
});

test("cli inspect: a completed sample's Submitted is its exit status, never a cause; a failed member keeps its cause", (t) => {
  const dir = tempDir(t);
  const submitted = (index: number, reward: string) =>
    `{"group_index": 1, "index": ${index}, "prompt": "q", "response": "x", "response_length": 1, "status": "completed", "reward": ${reward}, "metadata": {"exit_status": "Submitted"}}`;
  writeFileSync(join(dir, 'rollout_1.jsonl'), [submitted(0, '1.0'), submitted(1, '0.0'), ABORTED].join('\n') + '\n');
  const r = runCli(['inspect', 'rollout_1.jsonl', '1'], dir);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^line 1 · status completed · reward 1 · index 0 · step 1 · exit status Submitted \(miles-sample, rollout\)$/m);
  assert.match(r.stdout, /^ {2}line 1: completed, reward 1 {2}<- this sample$/m);
  assert.match(r.stdout, /^ {2}line 2: completed, reward 0$/m);
  assert.match(r.stdout, /^ {2}line 3: aborted, reward null, cause SandboxUnavailable$/m);
  assert.doesNotMatch(r.stdout, /cause Submitted/);
});

test('cli inspect: a line without a sample exits 1; a missing line number is a usage error', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'rollout_1.jsonl'), [GOOD, GOOD2].join('\n') + '\n');
  const none = runCli(['inspect', 'rollout_1.jsonl', '9'], dir);
  assert.equal(none.status, 1);
  assert.match(none.stderr, /no sample on line 9/);
  const usage = runCli(['inspect', 'rollout_1.jsonl'], dir);
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /inspect: give one <file> and one <line>/);
});

test("cli inspect of a .pt dump's aborted sample: its failure from the dump, whether or not the analysis could keep its line", () => {
  // 1.pt line 6: built in full by the analysis's own reading; shared/6.pt line 10: it holds token
  // ids of an earlier sample (test/fixtures/pt/shared/generate.py), so it is read again.
  for (const [fixture, line, cause] of [
    ['test/fixtures/pt/run/rollout_data/1.pt', '6', 'ServerUnreachable'],
    ['test/fixtures/pt/shared/6.pt', '10', 'ServerUnreachable'],
  ]) {
    const r = runCli(['inspect', join(__dirname, '../../../..', fixture), line]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^line ${line} · status aborted · .*\\(miles-pt, rollout\\)$`, 'm'));
    assert.match(r.stdout, new RegExp(`^metadata\\.exit_status: ${cause}$`, 'm'));
    assert.doesNotMatch(r.stdout, /line detail unavailable/);
  }
});
