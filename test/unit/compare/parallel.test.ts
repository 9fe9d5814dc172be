// `summarize --jobs <n>`: files summarised on worker threads give the summary of `--jobs 1` to the
// byte (steps of several files, a metrics log compared with every file, eval datasets), and a
// folder that holds a miles run and a verl run is refused by `summarize` and `diff` with one message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { parseCompareCommand } from '../../../server/src/cli/compareArgs';
import { summarizeRun } from '../../../server/src/cli/summarize';
import { renderSummary } from '../../../server/src/core/compare/summaryJson';
import { defaultSummarizeJobs } from '../../../server/src/node/parallelSummarize';
import { copyMilesRun } from '../../shared/compareRun';
import { repoRoot } from '../../shared/repoRoot';
import { CLI, runCli, tempDir } from '../cli/run';

/** The example run with its metrics log, and 8 more copies of its rollout files in the same steps (rewards varied). */
function biggerRun(dir: string): string {
  const run = copyMilesRun(join(dir, 'run'), true);
  for (let k = 0; k < 8; k++) {
    mkdirSync(join(run, `more${k}`));
    for (const step of [1, 2, 3]) {
      const text = readFileSync(join(run, `rollout/rollout_${step}.jsonl`), 'utf8').replaceAll('"reward": 0.0', `"reward": 0.${k + 1}`);
      writeFileSync(join(run, `more${k}/rollout_${step}.jsonl`), text);
    }
  }
  return run;
}

test('summarize --jobs: worker threads give the summary of --jobs 1, byte for byte', async (t) => {
  const dir = tempDir(t);
  const run = biggerRun(dir);
  const config = join(run, 'rollout-lens.yaml');
  const one = runCli(['summarize', '--jobs', '1', '--config', config, 'run'], dir);
  assert.equal(one.status, 0, one.stderr);
  // The metrics log's findings reach the files they name, whichever thread read those.
  assert.match(one.stdout, /"metric-mismatch":\{"count":2,"file":"run\/metrics\.jsonl","line":1\}/);
  for (const jobs of ['2', '3', '5']) {
    const many = runCli(['summarize', '--jobs', jobs, '--config', config, 'run'], dir);
    assert.equal(many.status, 0, many.stderr);
    assert.equal(many.stdout, one.stdout, `--jobs ${jobs}`);
  }
  // The rows kept in a scratch file while the run is read come back as the summary built in memory has them.
  const parsed = parseCompareCommand(['summarize', '--jobs', '1', '--config', config, join(dir, 'run')]);
  assert.ok(parsed?.kind === 'summarize');
  const inMemory = await summarizeRun(parsed.args.check, { stdout: () => {}, stderr: () => {} });
  const absolute = runCli(['summarize', '--jobs', '2', '--config', config, join(dir, 'run')], dir);
  assert.equal(absolute.stdout, renderSummary(inMemory!.summary));
  // Without --config: each file's nearest settings file, as check reads it.
  const near = ['1', '3'].map((jobs) => runCli(['summarize', '--jobs', jobs, 'run'], dir).stdout);
  assert.equal(near[1], near[0]);
  // A file that cannot be read is reported and the rest summarised, on either path.
  writeFileSync(join(run, 'more0/rollout_9.jsonl'), '\u0000\u0001binary');
  const both = ['1', '2'].map((jobs) => runCli(['summarize', '--jobs', jobs, '--config', config, 'run'], dir));
  assert.equal(both[1].stdout, both[0].stdout);
  assert.equal(both[1].status, both[0].status);
});

test('summarize: the scratch file of prompt rows is gone once the summary is written, or could not be', (t) => {
  const dir = tempDir(t);
  const run = copyMilesRun(join(dir, 'run'));
  const scratch = join(dir, 'tmp');
  mkdirSync(scratch);
  const env = { ...process.env, TMPDIR: scratch };
  for (const args of [
    ['--jobs', '1'],
    ['--jobs', '2'],
    ['--out', join(dir, 'missing/x.json')],
  ]) {
    const r = spawnSync(process.execPath, [CLI, 'summarize', ...args, run], { env, encoding: 'utf8' });
    assert.equal(r.status, args[0] === '--out' ? 2 : 0, r.stderr);
    assert.deepEqual(readdirSync(scratch), []);
  }
});

test('summarize --jobs: the default is every core on 4 cores or more, else one thread', () => {
  assert.equal(defaultSummarizeJobs(1), 1);
  assert.equal(defaultSummarizeJobs(2), 1);
  assert.equal(defaultSummarizeJobs(3), 1);
  assert.equal(defaultSummarizeJobs(4), 4);
  assert.equal(defaultSummarizeJobs(16), 16);
});

test('a folder holding a miles run and a verl run: summarize and diff exit 2 naming both', (t) => {
  const dir = tempDir(t);
  cpSync(join(repoRoot(), 'examples/run'), join(dir, 'both'), { recursive: true });
  const message =
    /both: a miles run and a verl run \(both\/verl\/(rollout|validation)\/12\.jsonl, …\); a summary holds one run: give the folder or files of one of them\n/;
  for (const jobs of ['1', '2']) {
    const s = runCli(['summarize', '--jobs', jobs, 'both'], dir);
    assert.equal(s.status, 2);
    assert.match(s.stderr, message);
    assert.doesNotMatch(s.stderr, /cannot read/);
    const d = runCli(['diff', '--jobs', jobs, 'both', 'both'], dir);
    assert.equal(d.status, 2);
    assert.match(d.stderr, message);
    assert.match(d.stderr, /diff: both holds more than one run; diff compares one run with one run/);
    assert.equal(d.stdout, '');
  }
  // Each run's own folder is one run.
  assert.equal(runCli(['diff', 'both/verl', 'both/verl'], dir).status, 0);
});

test('summarize --jobs: a run with train_data (joined to its rollout dump) gives the summary of --jobs 1', (t) => {
  const dir = tempDir(t);
  cpSync(join(repoRoot(), 'test/fixtures/real/miles/mismatch'), join(dir, 'run'), { recursive: true });
  const [one, two] = ['1', '2'].map((jobs) => runCli(['summarize', '--jobs', jobs, 'run'], dir));
  assert.equal(one.status, 0, one.stderr);
  assert.match(one.stdout, /"kind":"rollout"/);
  assert.equal(two.stdout, one.stdout);
  assert.equal(two.status, one.status);
});
