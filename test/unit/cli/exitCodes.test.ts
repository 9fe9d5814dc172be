import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { GOOD, GOOD2, runCli, tempDir } from './run';

test('cli exit 0: no finding of severity error', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'a.jsonl'), `${GOOD}\n${GOOD2}\n`);
  const r = runCli(['check', join(dir, 'a.jsonl')]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
});

test('cli exit 1: at least one error finding (invalid-json); --exit-zero turns it into 0', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'a.jsonl'), `${GOOD}\n{oops\n`);
  assert.equal(runCli(['check', join(dir, 'a.jsonl')]).status, 1);
  const r = runCli(['check', '--exit-zero', join(dir, 'a.jsonl')]);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /error invalid-json/);
});

test('cli exit 2: bad usage, with the reason on stderr', () => {
  for (const [args, reason] of [
    [[], /missing command: check/],
    [['lint', 'x'], /unknown command "lint"/],
    [['check'], /no <path> given/],
    [['check', '--format', 'xml', 'x'], /--format: expected one of text, json, got "xml"/],
    [['check', '--n-samples-per-prompt', '0', 'x'], /--n-samples-per-prompt: expected a whole number of at least 1, got "0"/],
    [['check', '--dynamic-filter', 'std', 'x'], /--dynamic-filter: expected one of none, check_reward_nonzero_std/],
    [['check', '--framework', 'trl', 'x'], /--framework: expected one of auto, miles, slime, verl/],
    [['check', '--bogus', 'x'], /Unknown option '--bogus'/],
    [['check', '--out', 'r.html', 'x'], /--out: only for report/],
  ] as [string[], RegExp][]) {
    const r = runCli(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, reason);
    assert.equal(r.stdout, '');
  }
});

test('cli exit 2: an unreadable input path (message on stderr)', (t) => {
  const r = runCli(['check', join(tempDir(t), 'missing.jsonl')]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /cannot read .*missing\.jsonl: no such file or folder/);
});

test('cli exit 2: a folder without logs', (t) => {
  const r = runCli(['check', tempDir(t)]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /no \*\.jsonl or \*\.ndjson files/);
});

test('cli exit 2 but the readable files are still reported when one given path is missing', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'a.jsonl'), `${GOOD}\n`);
  const r = runCli(['check', '--format', 'json', join(dir, 'a.jsonl'), join(dir, 'b.jsonl')]);
  assert.equal(r.status, 2);
  assert.equal(JSON.parse(r.stdout).files.length, 1);
});

test('cli --help prints usage and exits 0; --version prints the package version', () => {
  const h = runCli(['--help']);
  assert.equal(h.status, 0);
  assert.match(h.stdout, /^usage: rollout-lens check \[options\] <path>\.\.\./);
  const v = runCli(['--version']);
  assert.match(v.stdout, /^\d+\.\d+\.\d+\n$/);
});
