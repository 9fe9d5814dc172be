import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT } from '../../shared/jsonContract';
import { GOOD, GOOD2, runCli, tempDir } from './run';
import { dropMetrics } from '../../shared/dropMetrics';

const ABORTED =
  '{"group_index": 1, "index": 2, "prompt": "q", "response": "", "response_length": 0, "status": "aborted", "reward": null, "metadata": {"exit_status": "SandboxUnavailable"}}';
const OK3 = '{"group_index": 1, "index": 3, "prompt": "q", "response": "x", "response_length": 1, "status": "completed", "reward": 0.0}';

function run(t: { after: (fn: () => void) => void }) {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'run/rollout'), { recursive: true });
  writeFileSync(
    join(dir, 'run/rollout/rollout_1.jsonl'),
    [GOOD, GOOD2, ABORTED, OK3, '{bad json', '{"group_index": 2, "index": 4, "status": 7, "prompt": "r", "response": "x"}', '{"group_index"'].join('\n'),
  );
  writeFileSync(join(dir, 'run/notes.jsonl'), '{"hello": "world"}\n');
  return dir;
}

test('cli JSON output matches the documented contract exactly (schema test)', (t) => {
  const dir = run(t);
  const r = runCli(['check', '--format', 'json', 'run'], dir);
  assert.equal(r.status, 1, r.stderr);
  const doc = CONTRACT.parse(JSON.parse(r.stdout));
  assert.deepEqual(
    doc.files.map((f) => [f.path, f.format, f.kind, f.records, f.invalidLines]),
    [
      ['run/notes.jsonl', 'unknown', 'unknown', 1, 0],
      ['run/rollout/rollout_1.jsonl', 'miles-sample', 'rollout', 4, 2],
    ],
  );
  assert.deepEqual(doc.files[1].groups, { total: 2, kept: 1, dropped: 1 });
  assert.deepEqual(dropMetrics(doc.files[1].metrics), { 'rollout/dynamic_filter/drop_group_has_aborted_SandboxUnavailable': 1 });
  const codes = doc.findings.map((f) => [f.file, f.line, f.code, f.severity]);
  assert.deepEqual(codes, [
    ['run/notes.jsonl', 1, 'unknown-format', 'warning'],
    ['run/rollout/rollout_1.jsonl', 3, 'group-dropped', 'warning'],
    ['run/rollout/rollout_1.jsonl', 5, 'invalid-json', 'error'],
    ['run/rollout/rollout_1.jsonl', 6, 'invalid-record', 'warning'],
    ['run/rollout/rollout_1.jsonl', 7, 'truncated-line', 'information'],
  ]);
  assert.deepEqual(doc.findings[1].related, [{ file: 'run/rollout/rollout_1.jsonl', line: 4 }]);
});

test('cli text output: findings as path:line:col: severity code: message, then a table per file', (t) => {
  const dir = run(t);
  const r = runCli(['check', 'run'], dir);
  const lines = r.stdout.split('\n');
  const findingLines = lines.filter((l) => /^run\//.test(l) && /: (error|warning|information|hint) /.test(l));
  assert.equal(findingLines.length, 5);
  for (const l of findingLines) assert.match(l, /^[^:]+:\d+:\d+: (error|warning|information|hint) [a-z-]+: .+$/);
  assert.ok(lines.includes("run/rollout/rollout_1.jsonl:5:2: error invalid-json: invalid JSON: expected a string key, found 'b' at column 2"));
  assert.ok(lines.includes('run/rollout/rollout_1.jsonl: miles-sample (rollout), 4 records, 2 invalid lines, groups: 2 total, 1 kept, 1 dropped'));
  assert.ok(
    lines.some((l) => /group_has_aborted_SandboxUnavailable\s+rollout\/dynamic_filter\/drop_group_has_aborted_SandboxUnavailable/.test(l)),
    'drop table',
  );
  assert.equal(lines.at(-2), '2 files checked: 1 error, 3 warnings, 1 information, 0 hints');
});

test('cli text output escapes terminal control sequences from log text and file names', (t) => {
  const dir = tempDir(t);
  const evil = 'x\u001b]8;;http://evil.example/\u0007click\u001b]8;;\u0007\u001b[2J\u009b31m\u202e';
  const jsonEvil = evil.replace(/[\u0000-\u001f\u007f-\u009f\u202e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  writeFileSync(
    join(dir, `${evil.replace(/\//g, '_')}.jsonl`),
    `{"group_index": 0, "index": 0, "prompt": "p", "response": "", "status": "aborted", "reward": null, "metadata": {"exit_status": "${jsonEvil}"}}\n`,
  );
  const r = runCli(['check', dir]);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  assert.match(r.stdout, /\\x1b\]8;;http:\/\/evil\.example\/\\x07click/);
});

test('cli: a file given directly is shown as given', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'one.jsonl'), `${GOOD}\n`);
  const r = runCli(['check', '--format', 'json', './one.jsonl'], dir);
  assert.equal(JSON.parse(r.stdout).files[0].path, './one.jsonl');
});

test('cli --fix without fixable findings says so', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'one.jsonl'), `${GOOD}\n`);
  const r = runCli(['check', '--fix', join(dir, 'one.jsonl')]);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /--fix: no finding carries a fix/);
});
