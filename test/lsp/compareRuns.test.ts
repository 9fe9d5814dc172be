// `rolloutLens/compareRuns` over a real LSP connection: two copies of the example miles run, one
// with an injected SandboxUnavailable abort, compared by the server give exactly what the built
// CLI's `diff --format json` gives for the same folders (the same engine function), the flipped
// prompt with both sides' samples and the failing gate; identical runs pass; a summary file serves
// as the baseline; dump folders with train_data gate on their mismatch as the CLI does; a missing
// run or bad parameters are an InvalidParams error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ErrorCodes, ResponseError } from 'vscode-languageserver-protocol';

import { CompareRunsRequest, type RunDiff } from '../../shared/protocol';
import { DIFF_CONTRACT } from '../shared/compareContract';
import { copyMilesRun, INJECTED, injectSandboxAbort } from '../shared/compareRun';
import { EVAL_EDIT, editedEvalDump } from '../shared/exampleRun';
import { repoRoot } from './fixtures';
import { withHarness } from './harness';

const CLI = join(repoRoot(), 'dist/cli.js');

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function cliDiff(baseline: string, candidate: string): RunDiff {
  const r = cli(['diff', '--format', 'json', baseline, candidate]);
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  return JSON.parse(r.stdout) as RunDiff;
}

function twoRuns(
  t: { after: (fn: () => void) => void },
  edit?: (candidate: string) => void,
  withMetricsLog = false,
): { dir: string; base: string; cand: string } {
  const dir = mkdtempSync(join(tmpdir(), 'rl-compare-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const base = copyMilesRun(join(dir, 'base'), withMetricsLog);
  const cand = copyMilesRun(join(dir, 'cand'), withMetricsLog);
  edit?.(cand);
  return { dir, base, cand };
}

const uri = (path: string) => pathToFileURL(path).href;

test('compareRuns: an injected abort, as the CLI diff reports it: the flipped prompt with both samples, the gate failing', async (t) => {
  const { dir, base, cand } = twoRuns(t, injectSandboxAbort);
  await withHarness({ workspaceFolders: [dir] }, async (h) => {
    const diff = await h.client.sendRequest(CompareRunsRequest, { baseline: uri(base), candidate: uri(cand) });
    DIFF_CONTRACT.parse(diff);
    assert.deepEqual(diff, cliDiff(base, cand));
    assert.equal(diff.baseline.source, base);
    assert.equal(diff.candidate.source, cand);
    assert.equal(diff.gate.passed, false);
    assert.deepEqual(
      diff.gate.failures.map((f) => [f.rule, f.evidence]),
      [['drop-rate-increase', [{ file: join(cand, INJECTED.file), line: INJECTED.line }]]],
    );
    assert.deepEqual(diff.prompts.flips, { 'kept → group_has_aborted_SandboxUnavailable': 1 });
    const [flip] = diff.prompts.listed;
    assert.deepEqual(flip.candidate, { file: join(cand, INJECTED.file), line: INJECTED.line });
    assert.equal(flip.baseline.file, join(base, INJECTED.file));
    const cause = diff.causes.find((c) => c.reason === 'group_has_aborted_SandboxUnavailable')!;
    assert.deepEqual([cause.status, cause.groups.delta], ['both', 1]);
    // One log on each side: the step it holds, as the CLI compares the two files.
    const [b2, c2] = [join(base, INJECTED.file), join(cand, INJECTED.file)];
    const files = await h.client.sendRequest(CompareRunsRequest, { baseline: uri(b2), candidate: uri(c2) });
    assert.deepEqual(files, cliDiff(b2, c2));
    assert.deepEqual(
      files.steps.map((s) => [s.kind, s.baseline, s.candidate]),
      [['rollout', 2, 2]],
    );
  });
});

test('compareRuns: a folder’s metrics log is compared with its files: a new metric-mismatch fails the gate, as in the CLI', async (t) => {
  const { dir, base, cand } = twoRuns(
    t,
    (run) => {
      const dump = join(run, EVAL_EDIT.file);
      writeFileSync(dump, editedEvalDump(readFileSync(dump, 'utf8')));
    },
    true,
  );
  await withHarness({ workspaceFolders: [dir] }, async (h) => {
    const diff = await h.client.sendRequest(CompareRunsRequest, { baseline: uri(base), candidate: uri(cand) });
    assert.deepEqual(diff, cliDiff(base, cand));
    assert.deepEqual(
      diff.gate.failures.map((f) => [f.rule, f.message, f.evidence]),
      [['new-metric-mismatch', 'eval step 100: 4 metric-mismatch finding(s), 2 in baseline step 100', [{ file: join(cand, 'metrics.jsonl'), line: 1 }]]],
    );
  });
});

test('compareRuns: identical runs pass with no flipped prompt; maxPrompts lists fewer, counts all', async (t) => {
  const { dir, base, cand } = twoRuns(t);
  await withHarness({ workspaceFolders: [dir] }, async (h) => {
    const diff = await h.client.sendRequest(CompareRunsRequest, { baseline: uri(base), candidate: uri(cand) });
    assert.deepEqual(diff.gate, { passed: true, failures: [] });
    assert.deepEqual(diff.prompts.flips, {});
    assert.equal(diff.prompts.paired, 32);
    for (const s of diff.steps) assert.equal(s.dropRate.delta, 0);
  });
  const flipped = twoRuns(t, injectSandboxAbort);
  await withHarness({ workspaceFolders: [flipped.dir] }, async (h) => {
    const none = await h.client.sendRequest(CompareRunsRequest, { baseline: uri(flipped.base), candidate: uri(flipped.cand), maxPrompts: 0 });
    assert.deepEqual([none.prompts.listed.length, none.prompts.omitted], [0, 1]);
  });
});

test('compareRuns: a run summary as the baseline gives what the CLI gives with it', async (t) => {
  const { dir, base, cand } = twoRuns(t, injectSandboxAbort);
  const summary = join(dir, 'base.summary.json');
  const made = cli(['summarize', '--out', summary, base]);
  assert.equal(made.status, 0, made.stderr);
  await withHarness({ workspaceFolders: [dir] }, async (h) => {
    const diff = await h.client.sendRequest(CompareRunsRequest, { baseline: uri(summary), candidate: uri(cand) });
    assert.deepEqual(diff, cliDiff(summary, cand));
    assert.equal(diff.baseline.source, summary);
    assert.equal(diff.gate.failures[0]?.rule, 'drop-rate-increase');
  });
});

test('compareRuns: the gate’s rules come from `gate:` in the settings file above the candidate; a bad rule is InvalidParams', async (t) => {
  const { dir, base, cand } = twoRuns(t, injectSandboxAbort);
  const settings = join(cand, 'rollout-lens.yaml');
  const original = readFileSync(settings, 'utf8');
  await withHarness({ workspaceFolders: [dir] }, async (h) => {
    writeFileSync(settings, `${original}\ngate:\n  dropRateIncrease: 5\n`);
    const lenient = await h.client.sendRequest(CompareRunsRequest, { baseline: uri(base), candidate: uri(cand) });
    assert.deepEqual(lenient.gate, { passed: true, failures: [] });
    assert.deepEqual(lenient, cliDiff(base, cand));
  });
  writeFileSync(settings, `${original}\ngate:\n  dropRateIncrease: -1\n`);
  await withHarness({ workspaceFolders: [dir] }, async (h) => {
    await assert.rejects(
      h.client.sendRequest(CompareRunsRequest, { baseline: uri(base), candidate: uri(cand) }),
      (err: unknown) => err instanceof ResponseError && err.code === ErrorCodes.InvalidParams && err.message.startsWith(`${settings}: `),
    );
  });
});

test('compareRuns: a missing run, a file that is no summary, or bad parameters: InvalidParams', async (t) => {
  const { dir, base } = twoRuns(t);
  await withHarness({ workspaceFolders: [dir] }, async (h) => {
    const fails = async (params: unknown, message: RegExp) => {
      await assert.rejects(
        h.client.sendRequest(CompareRunsRequest, params as never),
        (err: unknown) => err instanceof ResponseError && err.code === ErrorCodes.InvalidParams && message.test(err.message),
      );
    };
    await fails({ baseline: uri(base), candidate: uri(join(dir, 'nowhere')) }, /^cannot read the run .*nowhere/);
    await fails({ baseline: uri(join(base, 'rollout-lens.yaml')), candidate: uri(base) }, /rollout-lens\.yaml: neither a run folder, a log/);
    const notSummary = join(dir, 'not.summary.json');
    writeFileSync(notSummary, '{"version": 3, "steps": "no"}');
    await fails({ baseline: uri(notSummary), candidate: uri(base) }, /not\.summary\.json: not a run summary: /);
    // A summary holds one run: a folder of a miles and a verl run is refused, as the CLI refuses it.
    const example = join(repoRoot(), 'examples/run');
    await fails(
      { baseline: uri(example), candidate: uri(base) },
      /^cannot read the run .*verl[\\/]rollout[\\/]12\.jsonl: a verl file in a miles run \(a summary holds one run\)$/,
    );
    await fails({ baseline: uri(base) }, /^compareRuns needs \{ baseline, candidate \}/);
    await fails({ baseline: uri(base), candidate: uri(base), maxPrompts: -1 }, /^maxPrompts must be a whole number$/);
  });
});

test('compareRuns: dump folders with train_data, as the CLI diff reads them: the mismatch-increase gate fails', async (t) => {
  // Two runs by miles' own dump functions (scripts/mismatch_fixtures.py gate_pair): the candidate drifts from step 2.
  const dir = mkdtempSync(join(tmpdir(), 'rl-compare-train-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const pair = join(repoRoot(), 'test/fixtures/real/miles/mismatch-gate');
  const [base, cand] = [join(dir, 'base'), join(dir, 'cand')];
  cpSync(join(pair, 'baseline'), base, { recursive: true });
  cpSync(join(pair, 'candidate'), cand, { recursive: true });
  await withHarness({ workspaceFolders: [dir] }, async (h) => {
    const diff = await h.client.sendRequest(CompareRunsRequest, { baseline: uri(base), candidate: uri(cand) });
    DIFF_CONTRACT.parse(diff);
    assert.deepEqual(diff, cliDiff(base, cand));
    assert.deepEqual(
      diff.gate.failures.map((f) => [f.rule, f.evidence]),
      [['mismatch-increase', [{ file: join(cand, 'train_data/2_0.pt'), line: 1 }]]],
    );
  });
});
