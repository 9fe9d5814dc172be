import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { naturalCompare, walkPaths } from '../../../server/src/core/locate/walk';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';

import { tempDir } from './helpers';

test('walk: natural order puts step 2 before step 10', () => {
  const names = ['rollout_10.jsonl', 'rollout_2.jsonl', 'rollout_1.jsonl', 'eval_100.jsonl', 'eval_20.jsonl'];
  assert.deepEqual(names.sort(naturalCompare), ['eval_20.jsonl', 'eval_100.jsonl', 'rollout_1.jsonl', 'rollout_2.jsonl', 'rollout_10.jsonl']);
});

test('walk: folders are searched recursively for *.jsonl and *.ndjson only; shown joined to the folder as given', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'run/rollout'), { recursive: true });
  mkdirSync(join(dir, 'run/eval'), { recursive: true });
  for (const f of ['run/rollout/10.jsonl', 'run/rollout/2.jsonl', 'run/eval/eval_4.ndjson', 'run/notes.txt', 'run/config.yaml', 'run/metrics.jsonl']) {
    writeFileSync(join(dir, f), '');
  }
  const r = await walkPaths([join(dir, 'run')], nodeFileAccess);
  assert.deepEqual(r.problems, []);
  assert.deepEqual(
    r.targets.map((x) => x.displayPath.slice(dir.length + 1)),
    ['run/metrics.jsonl', 'run/eval/eval_4.ndjson', 'run/rollout/2.jsonl', 'run/rollout/10.jsonl'],
  );
});

test('walk: a symlink loop ends; a file reached twice is analysed once', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'a/b'), { recursive: true });
  writeFileSync(join(dir, 'a/b/1.jsonl'), '');
  symlinkSync(join(dir, 'a'), join(dir, 'a/b/loop'));
  symlinkSync(join(dir, 'a/b/1.jsonl'), join(dir, 'a/link.jsonl'));
  const r = await walkPaths([join(dir, 'a')], nodeFileAccess);
  assert.equal(r.targets.length, 1);
});

test('walk: a missing path is a problem of a given path; a dangling link inside a folder is a problem, not a crash', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'run'));
  writeFileSync(join(dir, 'run/1.jsonl'), '');
  symlinkSync(join(dir, 'nowhere.jsonl'), join(dir, 'run/2.jsonl'));
  const r = await walkPaths([join(dir, 'run'), join(dir, 'missing.jsonl')], nodeFileAccess);
  assert.equal(r.targets.length, 1);
  assert.deepEqual(
    r.problems.map((p) => [p.given, p.message.replace(dir, '')]),
    [
      [false, `cannot read /run/2.jsonl: no such file or folder`],
      [true, `cannot read /missing.jsonl: no such file or folder`],
    ],
  );
});

test('walk: a folder that cannot be listed (EACCES injected: tests run as root) is a problem; the rest is still found', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'run/locked'), { recursive: true });
  writeFileSync(join(dir, 'run/1.jsonl'), '');
  writeFileSync(join(dir, 'run/locked/2.jsonl'), '');
  const access = {
    ...nodeFileAccess,
    readDir: async (path: string) => {
      if (path.endsWith('locked')) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      return nodeFileAccess.readDir(path);
    },
  };
  const r = await walkPaths([join(dir, 'run')], access);
  assert.deepEqual(
    r.targets.map((x) => x.displayPath.slice(dir.length)),
    ['/run/1.jsonl'],
  );
  assert.deepEqual(
    r.problems.map((p) => p.message.slice(p.message.indexOf(':'))),
    [': permission denied'],
  );
});
