// Bad and unusual JSON values, class by class, through the real engine on real files: integers
// beyond 2^53, Python's int keys, duplicate keys, NaN and Infinity, lines that are no JSON object.
// Each is read as Python would read it, or is a clear finding on its own line with the rest of the
// file still analysed (test/reliability/badLines.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';

import { assertRestAnalysed, baseline, withBadLines } from './badLines';
import { check, codes, milesSample, tempDir, write } from './helpers';
import { dropMetrics } from '../shared/dropMetrics';

test('numbers beyond 2^53 as group keys: 9007199254740993 and 9007199254740992 (and 2^64±1, 10^30+1) stay distinct groups, keyed by their exact text', async (t) => {
  const dir = tempDir(t);
  const keys = [
    '9007199254740992',
    '9007199254740993',
    '18446744073709551615',
    '18446744073709551616',
    '18446744073709551617',
    '1000000000000000000000000000001',
    '1000000000000000000000000000000',
    '-9007199254740993',
    '-9007199254740992',
  ];
  const lines: string[] = [];
  keys.forEach((key, k) => {
    for (let i = 0; i < 2; i++) {
      const aborted = k % 2 === 1 && i === 1;
      lines.push(
        milesSample({
          group: 0,
          index: k * 2 + i,
          prompt: `p${key}`,
          status: aborted ? 'aborted' : 'completed',
          exitStatus: aborted ? 'SandboxUnavailable' : undefined,
          reward: aborted ? 'null' : `${i}.0`,
        }).replace('"group_index": 0', `"group_index": ${key}`),
      );
    }
  });
  const r = await check(write(dir, 'bigint.jsonl', `${lines.join('\n')}\n`));
  assert.equal(r.file.groups.total, keys.length, 'no two keys merged');
  assert.equal(r.file.groups.dropped, 4);
  assert.deepEqual(dropMetrics(r.file.metrics), { 'rollout/dynamic_filter/drop_group_has_aborted_SandboxUnavailable': 4 });
  const dropped = r.findings.filter((f) => f.code === 'group-dropped').map((f) => f.group);
  assert.deepEqual(
    dropped,
    keys.filter((_k, i) => i % 2 === 1),
    'findings name each group by its exact literal',
  );
  assert.deepEqual(
    codes(r.findings).filter((c) => c !== 'group-dropped'),
    [],
    'no misgrouping: each prompt is in its own group',
  );
});

test('integer group keys compare as Python ints: -0 and 0 are one group, 1.0 and 1 are one group (dict keys), 1e400 is not an integer', async (t) => {
  const dir = tempDir(t);
  const line = (key: string, index: number, prompt: string, reward: string) =>
    milesSample({ group: 0, index, prompt, reward }).replace('"group_index": 0', `"group_index": ${key}`);
  const text = [
    line('0', 0, 'p0', '1.0'),
    line('-0', 1, 'p0', '0.0'),
    line('1', 2, 'p1', '1.0'),
    line('1.0', 3, 'p1', '0.0'),
    line('1e400', 4, 'p2', '1.0'),
  ].join('\n');
  const r = await check(write(dir, 'python-ints.jsonl', `${text}\n`));
  assert.equal(r.file.groups.total, 2, JSON.stringify(r.findings.map((f) => [f.code, f.group])));
  assert.equal(r.file.records, 4);
  const invalid = r.findings.filter((f) => f.code === 'invalid-record');
  assert.equal(invalid.length, 1);
  assert.match(invalid[0].message, /field group_index: expected an integer, got Infinity/);
  assert.ok(!r.findings.some((f) => f.code === 'misgrouped'), 'no group holds two prompts, no prompt two groups');
});

test('duplicate keys: the last one wins, as JSON.parse and Python json do (group_index, status, reward, metadata, metadata.exit_status)', async (t) => {
  const dir = tempDir(t);
  const dup = [
    '{"group_index": 1, "index": 0, "prompt": "a", "response": "x", "status": "aborted", "status": "completed", "reward": null, "reward": 1.0, "group_index": 7}',
    '{"group_index": 7, "index": 1, "prompt": "a", "response": "", "status": "completed", "reward": 0.0, "status": "aborted", "metadata": {"exit_status": "TimeLimitExceeded"}, "metadata": {"exit_status": "AgentError", "exit_status": "ServerUnreachable"}}',
    '{"group_index": 8, "index": 2, "prompt": "b", "response": "x", "status": "completed", "reward": 1.0}',
    '{"group_index": 8, "index": 3, "prompt": "b", "response": "x", "status": "completed", "reward": 0.0}',
  ];
  for (const l of dup) assert.ok(JSON.parse(l)); // each line is JSON; JSON.parse keeps the last value of a repeated key
  const r = await check(write(dir, 'dup.jsonl', `${dup.join('\n')}\n`));
  const expect = dup.map((l) => JSON.parse(l) as { group_index: number; status: string; metadata?: { exit_status: string } });
  assert.equal(r.file.groups.total, 2, 'group 1 was overwritten by 7');
  assert.deepEqual(dropMetrics(r.file.metrics), { [`rollout/dynamic_filter/drop_group_has_aborted_${expect[1].metadata!.exit_status}`]: 1 });
  const dropped = r.findings.find((f) => f.code === 'group-dropped');
  assert.equal(dropped?.group, String(expect[0].group_index));
  assert.equal(dropped?.line, 2, 'reported on the aborted sample that names the reason (its last status wins)');
});

test('NaN and Infinity: rewards NaN/Infinity/-Infinity are numbers (zero_std_nan/inf/-inf); as group_index they are not integers; nan, -NaN, +Infinity, infinity are invalid JSON', async (t) => {
  const dir = tempDir(t);
  const lines = [
    milesSample({ group: 0, index: 0, reward: 'NaN' }),
    milesSample({ group: 0, index: 1, reward: 'NaN' }),
    milesSample({ group: 1, index: 2, reward: 'Infinity' }),
    milesSample({ group: 1, index: 3, reward: 'Infinity' }),
    milesSample({ group: 2, index: 4, reward: '-Infinity' }),
    milesSample({ group: 2, index: 5, reward: '-Infinity' }),
    milesSample({ group: 3, index: 6 }).replace('"group_index": 3', '"group_index": NaN'),
    milesSample({ group: 3, index: 7 }).replace('"index": 7', '"index": Infinity'),
    milesSample({ group: 4, index: 8, reward: 'nan' }),
    milesSample({ group: 4, index: 9, reward: '-NaN' }),
    milesSample({ group: 4, index: 10, reward: '+Infinity' }),
    milesSample({ group: 4, index: 11, reward: 'infinity' }),
  ];
  const r = await check(write(dir, 'nonfinite.jsonl', `${lines.join('\n')}\n`), { dynamicFilter: 'check_reward_nonzero_std' });
  assert.deepEqual(dropMetrics(r.file.metrics), {
    'rollout/dynamic_filter/drop_zero_std_nan': 1,
    'rollout/dynamic_filter/drop_zero_std_inf': 1,
    'rollout/dynamic_filter/drop_zero_std_-inf': 1,
  });
  assert.equal(r.file.records, 6);
  assert.equal(r.file.invalidLines, 6);
  const bad = r.findings
    .filter((f) => f.code === 'invalid-record' || f.code === 'invalid-json')
    .map((f) => [f.line, f.code, f.message.replace(/ at column \d+$/, '')]);
  assert.deepEqual(bad, [
    [7, 'invalid-record', 'invalid miles-sample record: field group_index: expected an integer, got NaN'],
    [8, 'invalid-record', 'invalid miles-sample record: field index: expected an integer, got Infinity'],
    [9, 'invalid-json', "invalid JSON: unexpected character 'a'"],
    [10, 'invalid-json', 'invalid JSON: invalid number: no digits'],
    [11, 'invalid-json', "invalid JSON: unexpected character '+'"],
    [12, 'invalid-json', "invalid JSON: unexpected character 'i'"],
  ]);
});

test('a JSON array, a bare number, a string, null, true as a line (first line too) → invalid-record "a line must be a JSON object"; the rest analysed', async (t) => {
  const dir = tempDir(t);
  const base = await baseline(dir);
  const values = ['[1, 2, 3]', '[]', '[{"group_index": 1}]', '42', '-1.5e3', 'NaN', '"a string"', 'null', 'true', 'false'];
  for (const [i, v] of values.entries()) {
    const at = i % 3 === 0 ? 0 : 5 + i;
    const { bytes, badLines } = withBadLines([{ at, bytes: Buffer.from(v) }]);
    await assertRestAnalysed(write(dir, `nonobject-${i}.jsonl`, bytes), badLines, base, /^invalid miles-sample record: a line must be a JSON object, got /);
  }
});
