import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { GOOD, GOOD2, runCli, tempDir } from './run';

test('cli --progress: one progress line per step file on stderr (not a terminal); without it, none', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'run'));
  for (let i = 1; i <= 3; i++) writeFileSync(join(dir, 'run', `rollout_${i}.jsonl`), `${GOOD}\n${GOOD2}\n`);
  const r = runCli(['check', '--progress', '--format', 'json', 'run'], dir);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.deepEqual(
    lines,
    [1, 2, 3].map((i) => `rollout-lens: [${i}/3] run/rollout_${i}.jsonl`),
  );
  assert.equal(JSON.parse(r.stdout).files.length, 3);
  assert.equal(runCli(['check', '--format', 'json', join(dir, 'run')]).stderr, '');
});

test('cli --jobs: a whole number of at least 1; --jobs 1 and --jobs 2 print the same report', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'a.jsonl');
  writeFileSync(file, `${GOOD}\n${GOOD2}\n{oops\n`);
  const one = runCli(['check', '--format', 'json', '--jobs', '1', file]);
  assert.equal(one.status, 1);
  assert.equal(runCli(['check', '--format', 'json', '--jobs', '2', file]).stdout, one.stdout);
  const bad = runCli(['check', '--jobs', '0', file]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--jobs: expected a whole number of at least 1, got "0"/);
});
