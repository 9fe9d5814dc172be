import { test } from 'node:test';
import assert from 'node:assert/strict';

import { scanPath, tempDir, writeLines } from './helpers';

const MILES = '"prompt": "p", "response": "r"';

/** Each line: a miles sample with one field of the wrong type, and what the message must say. */
const WRONG: [string, string, RegExp][] = [
  ['group_index as a string', `{"group_index": "3", "index": 0, ${MILES}}`, /field group_index: expected an integer, got "3"/],
  ['index as a float', `{"group_index": 3, "index": 1.5, ${MILES}}`, /field index: expected an integer, got 1.5/],
  [
    'unknown status',
    `{"group_index": 3, "index": 0, ${MILES}, "status": "done"}`,
    /field status: expected one of pending, completed, truncated, aborted, failed, got "done"/,
  ],
  [
    'reward as a string',
    `{"group_index": 3, "index": 0, ${MILES}, "reward": "1.0"}`,
    /field reward: expected a number, a boolean, an object of named rewards, or null, got "1.0"/,
  ],
  ['reward as an array', `{"group_index": 3, "index": 0, ${MILES}, "reward": [1]}`, /field reward: .*got an array/],
  [
    'exit_status as a number',
    `{"group_index": 3, "index": 0, ${MILES}, "metadata": {"exit_status": 5}}`,
    /field metadata.exit_status: expected a string .*got 5/,
  ],
  ['metadata as a list', `{"group_index": 3, "index": 0, ${MILES}, "metadata": []}`, /field metadata: .*got an array/],
  ['response_length as a string', `{"group_index": 3, "index": 0, ${MILES}, "response_length": "7"}`, /field response_length: expected an integer, got "7"/],
];

for (const [what, line, message] of WRONG) {
  test(`invalid-record (warning): miles-sample with ${what} says which field, what it was, what was expected`, async (t) => {
    const good = `{"group_index": 1, "index": 0, ${MILES}, "status": "completed", "reward": 1.0}`;
    const p = writeLines(tempDir(t), 'r.jsonl', [good, line, good]);
    const s = await scanPath(p);
    assert.equal(s.format, 'miles-sample');
    assert.equal(s.records, 2, 'the bad line does not stop the file');
    assert.equal(s.invalidLines, 1);
    const f = s.findings.find((x) => x.code === 'invalid-record');
    assert.ok(f);
    assert.equal(f.severity, 'warning');
    assert.equal(f.line, 2);
    assert.match(f.message, /^invalid miles-sample record: /);
    assert.match(f.message, message);
  });
}

test('invalid-record: trials without instance_id, verl with a numeric output, metrics without an object', async (t) => {
  const dir = tempDir(t);
  const trials = writeLines(dir, 't.jsonl', [
    '{"instance_id": "a", "trial_idx": 0, "status_code": 0}',
    '{"instance_id": null, "trial_idx": 1, "status_code": 0}',
  ]);
  assert.match((await scanPath(trials)).findings[0].message, /invalid miles-eval-trials record: field instance_id: expected a string or an integer, got null/);
  const verl = writeLines(dir, 'v.jsonl', ['{"input": "q", "output": "a", "score": 1.0}', '{"input": "q", "output": 7, "score": 1.0}']);
  assert.match((await scanPath(verl)).findings[0].message, /invalid verl-rollout record: field output: expected a string, got 7/);
  const metrics = writeLines(dir, 'm.jsonl', ['{"step": 1, "metrics": {"a": 1}}', '{"step": 2, "metrics": 3}']);
  assert.match((await scanPath(metrics)).findings[0].message, /invalid miles-metrics record: field metrics: expected an object, got 3/);
});

test('invalid-json (error): reason and column, the rest of the file is still read', async (t) => {
  const good = `{"group_index": 1, "index": 0, ${MILES}}`;
  const p = writeLines(tempDir(t), 'j.jsonl', [good, '{"group_index": 1, "index": 1, "tokens": [1, 2,]}', good]);
  const s = await scanPath(p);
  assert.equal(s.records, 2);
  assert.equal(s.invalidLines, 1);
  const [f] = s.findings;
  assert.equal(f.code, 'invalid-json');
  assert.equal(f.severity, 'error');
  assert.equal(f.line, 2);
  assert.equal(f.column, 48);
  assert.equal(f.message, "invalid JSON: unexpected character ']' at column 48");
});

test('invalid-json: the column counts UTF-16 units, not bytes', async (t) => {
  const p = writeLines(tempDir(t), 'u.jsonl', ['{"s": "ééé", x}']);
  const s = await scanPath(p);
  assert.equal(s.findings[0].column, 14);
});
