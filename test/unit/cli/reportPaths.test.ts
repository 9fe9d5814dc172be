import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { relativeModel, reportPaths } from '../../../server/src/cli/reportPaths';
import { tempDir } from './run';

test('reportPaths: relative to the innermost folder given; a file given by its name; messages cut of the folders', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'run', 'inner', 'rollout'), { recursive: true });
  writeFileSync(join(dir, 'single.jsonl'), '');
  const paths = reportPaths([join(dir, 'run'), join(dir, 'run', 'inner'), join(dir, 'single.jsonl')], '/elsewhere');
  assert.equal(paths.show(join(dir, 'run', 'a.jsonl')), 'a.jsonl');
  assert.equal(paths.show(join(dir, 'run', 'inner', 'rollout', '1.jsonl')), join('rollout', '1.jsonl'));
  assert.equal(paths.show(join(dir, 'single.jsonl')), 'single.jsonl');
  assert.equal(paths.title(), 'run, inner, single.jsonl');
  assert.equal(paths.inText(`eval config ${join(dir, 'run', 'eval_config.yaml')}: bad`), 'eval config eval_config.yaml: bad');
});

test('reportPaths: a relative folder given is resolved against the working folder', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'examples', 'run'), { recursive: true });
  const paths = reportPaths(['examples/run'], dir);
  assert.equal(paths.show('examples/run/rollout/rollout_1.jsonl'), join('rollout', 'rollout_1.jsonl'));
  assert.equal(paths.title(), 'run');
});

test('relativeModel: path fields shown relative, other strings only cut of the folders given (log text kept)', (t) => {
  const dir = tempDir(t);
  const run = join(dir, 'run');
  mkdirSync(run);
  const paths = reportPaths([run]);
  const model = {
    steps: [{ files: [join(run, 'a.jsonl')], sources: [join(run, 'a.jsonl')], drops: { '/bin/sh': 1 } }],
    samples: { r: [{ file: join(run, 'a.jsonl'), source: join(run, 'a.jsonl'), cause: '/bin/sh failed', prompt: `cat ${run}/secret` }] },
  };
  assert.deepEqual(relativeModel(model, paths), {
    steps: [{ files: ['a.jsonl'], sources: ['a.jsonl'], drops: { '/bin/sh': 1 } }],
    samples: { r: [{ file: 'a.jsonl', source: 'a.jsonl', cause: '/bin/sh failed', prompt: 'cat secret' }] },
  });
});
