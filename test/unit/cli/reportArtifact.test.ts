// `rollout-lens report` as a CI artifact: exit 0 once the file is written, whatever its findings;
// 1 when it is not (bad usage, nothing to read, cannot write); the findings by code with severity
// and message, capped with what is left out; and no absolute path anywhere in the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { GOOD, GOOD2, CLI, runCli, tempDir } from './run';

const ROOT = resolve(__dirname, '../../../..');

test('report exits 0 once written though the run has error findings; check exits 1 on the same run', (t) => {
  const dir = tempDir(t);
  const run = join(dir, 'run');
  cpSync(join(ROOT, 'examples/run'), run, { recursive: true });
  const out = join(dir, 'report.html');
  const r = runCli(['report', '--out', out, run]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^wrote .*report\.html: 4 steps, 28 groups \(14 dropped\), 4 eval rows, 31 findings, \d+ bytes\n$/);
  assert.equal(runCli(['check', run]).status, 1, 'the same run has error findings');
  const html = readFileSync(out, 'utf8');
  // No absolute path: not the folder given, not its parents, not the repository the CLI ran from.
  for (const abs of [run, dir, ROOT, CLI]) assert.ok(!html.includes(abs), `no ${abs} in the file`);
  // Paths relative to the path given, in the model and in the findings.
  assert.match(html, /"files":\["rollout\/rollout_1\.jsonl"\]/);
  assert.match(html, /<td class="mono">eval\/eval_100\.jsonl<\/td><td class="num">15<\/td><td class="text">dataset gpqa is misgrouped: /);
  assert.match(html, /<title>Rollout Lens report: run<\/title>/);
  // Findings by code, most severe first, each with its severity and count.
  const codes = [...html.matchAll(/<summary><span class="sev sev-(\w+)">\w+<\/span> <code>([\w-]+)<\/code>: (\d+)<\/summary>/g)].map((m) => [
    m[1],
    m[2],
    Number(m[3]),
  ]);
  assert.deepEqual(codes.slice(0, 2), [
    ['error', 'eval-all-aborted', 1],
    ['error', 'misgrouped-dataset', 1],
  ]);
  assert.equal(
    codes.reduce((a, c) => a + (c[2] as number), 0),
    31,
  );
  assert.ok(codes.some(([sev, code]) => sev === 'warning' && code === 'metric-mismatch'));
});

test('report caps each code at 20 findings and says how many more', (t) => {
  const dir = tempDir(t);
  const lines = [GOOD, GOOD2, ...Array.from({ length: 25 }, (_, i) => `{bad ${i}`)];
  writeFileSync(join(dir, 'a.jsonl'), `${lines.join('\n')}\n`);
  const out = join(dir, 'r.html');
  const r = runCli(['report', '--out', out, join(dir, 'a.jsonl')]);
  assert.equal(r.status, 0, r.stderr);
  const html = readFileSync(out, 'utf8');
  assert.match(html, /<code>invalid-json<\/code>: 25<\/summary>/);
  const section = html.slice(html.indexOf('data-code="invalid-json"'));
  const rows = section.slice(0, section.indexOf('</details>')).match(/<td class="mono">a\.jsonl<\/td>/g) ?? [];
  assert.equal(rows.length, 20);
  assert.match(section, /<p class="muted omitted">5 more not listed<\/p>/);
  assert.ok(!html.includes(dir));
});

test('report exits 1 when the file is not written: bad usage, nothing to read, an unwritable --out', (t) => {
  const dir = tempDir(t);
  for (const args of [
    ['report', 'x'],
    ['report'],
    ['report', '--out', 'r.html', '--format', 'json', 'x'],
    ['report', '--out', 'r.html', '--samples-per-cause', '0', 'x'],
  ]) {
    const r = runCli(args, dir);
    assert.equal(r.status, 1, args.join(' '));
    assert.match(r.stderr, /^rollout-lens: /);
    assert.equal(r.stdout, '');
  }
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  const none = runCli(['report', '--out', join(dir, 'none.html'), empty]);
  assert.equal(none.status, 1);
  assert.match(none.stderr, /no \*\.jsonl or \*\.ndjson files/);
  assert.equal(existsSync(join(dir, 'none.html')), false);
  writeFileSync(join(dir, 'a.jsonl'), `${GOOD}\n${GOOD2}\n`);
  const unwritable = runCli(['report', '--out', dir, join(dir, 'a.jsonl')]);
  assert.equal(unwritable.status, 1);
  assert.match(unwritable.stderr, /cannot write /);
});

test('report exits 0 when a path given cannot be read: the file is written from the rest and names what was not read', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'a.jsonl'), `${GOOD}\n${GOOD2}\n`);
  const out = join(dir, 'r.html');
  const r = runCli(['report', '--progress', '--out', out, join(dir, 'a.jsonl'), join(dir, 'missing.jsonl')]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /cannot read .*missing\.jsonl: no such file or folder/);
  const html = readFileSync(out, 'utf8');
  assert.match(
    html,
    /<section id="not-read"><h2>Not read<\/h2><p>This report is made from the rest\.<\/p><ul><li class="text">cannot read missing\.jsonl: no such file or folder<\/li><\/ul><\/section>/,
  );
  assert.ok(!html.includes(dir), 'no absolute path');
  assert.doesNotMatch(html, /\[1\/1\]/, 'progress lines are not problems');
});
