// `rollout-lens diff` as a CI gate, through the built CLI: an injected abort fails the gate naming
// its cause and sample, identical runs pass with every delta 0, a pass@k regression fails and
// noise does not, a summary serves as the baseline, and bad input exits 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { DIFF_CONTRACT } from '../../shared/compareContract';
import { EVAL_EDIT, editedEvalDump } from '../../shared/exampleRun';
import { copyMilesRun, dropOneGpqaReward, flipOneGpqa, INJECTED, injectSandboxAbort, regressAime } from '../../shared/compareRun';
import { runCli, tempDir } from '../cli/run';

function twoRuns(t: Parameters<typeof tempDir>[0], edit?: (candidate: string) => void): { dir: string; base: string; cand: string } {
  const dir = tempDir(t);
  const base = copyMilesRun(join(dir, 'base'));
  const cand = copyMilesRun(join(dir, 'cand'));
  edit?.(cand);
  return { dir, base, cand };
}

function jsonDiff(args: string[], cwd: string): { status: number | null; diff: ReturnType<typeof DIFF_CONTRACT.parse> } {
  const r = runCli(['diff', '--format', 'json', ...args], cwd);
  assert.equal(r.stderr, '');
  return { status: r.status, diff: DIFF_CONTRACT.parse(JSON.parse(r.stdout)) };
}

test('diff --gate: one injected SandboxUnavailable abort in a kept group fails, naming the cause and the sample', (t) => {
  const { dir } = twoRuns(t, injectSandboxAbort);
  const r = runCli(['diff', '--gate', 'base', 'cand'], dir);
  assert.equal(r.status, 1, r.stderr);
  const where = `cand/${INJECTED.file}:${INJECTED.line}`;
  assert.match(r.stdout, /\[drop-rate-increase\] group_has_aborted_SandboxUnavailable: drop rate 4\.1667% → 8\.3333% \(\+4\.1667 points, more than 2\)/);
  assert.ok(r.stdout.includes(`\n    ${where}\n`), r.stdout);

  const { status, diff } = jsonDiff(['--gate', 'base', 'cand'], dir);
  assert.equal(status, 1);
  assert.deepEqual(diff.gate.failures, [
    {
      rule: 'drop-rate-increase',
      message: 'group_has_aborted_SandboxUnavailable: drop rate 4.1667% → 8.3333% (+4.1667 points, more than 2)',
      evidence: [{ file: `cand/${INJECTED.file}`, line: INJECTED.line }],
    },
  ]);
  // The prompt's group flipped from kept to dropped, with both sides' samples.
  assert.deepEqual(diff.prompts.flips, { 'kept → group_has_aborted_SandboxUnavailable': 1 });
  const flip = diff.prompts.listed[0];
  assert.deepEqual([flip.kind, flip.baselineStep, flip.candidate], ['rollout', 2, { file: `cand/${INJECTED.file}`, line: INJECTED.line }]);
  assert.equal(flip.baseline.file, `base/${INJECTED.file}`);
  // Only step 2 changed.
  const step2 = diff.steps.find((s) => s.kind === 'rollout' && s.baseline === 2)!;
  assert.deepEqual(step2.dropRate, { baseline: 0.375, candidate: 0.5, delta: 0.125 });
  for (const s of diff.steps.filter((s) => s !== step2)) assert.equal(s.dropRate.delta ?? 0, 0);

  // Without --gate, diff only reports.
  assert.equal(runCli(['diff', 'base', 'cand'], dir).status, 0);
});

test('diff --gate: a new drop cause fails with its first sample as evidence', (t) => {
  const { dir } = twoRuns(t, (cand) => {
    const path = join(cand, INJECTED.file);
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace(
        /("index": 34,[^\n]*?)"status": "completed"([^\n]*?)"exit_status": "Submitted"/,
        '$1"status": "aborted"$2"exit_status": "ImagePullBackOff"',
      ),
    );
  });
  const { status, diff } = jsonDiff(['--gate', 'base', 'cand'], dir);
  assert.equal(status, 1);
  assert.equal(diff.gate.failures[0].rule, 'new-drop-cause');
  assert.match(diff.gate.failures[0].message, /^group_has_aborted_ImagePullBackOff: 1 group\(s\) dropped, none in the baseline$/);
  assert.deepEqual(diff.gate.failures[0].evidence, [{ file: `cand/${INJECTED.file}`, line: INJECTED.line }]);
  assert.equal(diff.causes.find((c) => c.reason === 'group_has_aborted_ImagePullBackOff')?.status, 'new');
});

test('diff --gate: identical runs pass with every delta 0 and no flipped prompt', (t) => {
  const { dir } = twoRuns(t);
  const { status, diff } = jsonDiff(['--gate', 'base', 'cand'], dir);
  assert.equal(status, 0);
  assert.deepEqual(diff.gate, { passed: true, failures: [] });
  assert.equal(diff.steps.length, 4);
  const deltas: (number | null)[] = [];
  for (const s of diff.steps) {
    for (const d of [s.groups, s.samples, s.dropRate, s.zeroStdShare, s.rewardMean, s.truncatedRatio, s.noneRewardRatio, ...Object.values(s.causes)])
      deltas.push(d.delta);
  }
  for (const c of diff.causes) deltas.push(c.groups.delta, c.ratePoints.delta);
  for (const d of diff.datasets) {
    deltas.push(d.samples.delta, d.noneReward.delta, d.score.delta, ...Object.values(d.passAtK).map((v) => v.delta));
    for (const v of [d.score, ...Object.values(d.passAtK)]) assert.deepEqual(v.interval, [0, 0]);
  }
  assert.ok(deltas.length > 50);
  assert.ok(
    deltas.every((d) => d === 0),
    JSON.stringify(deltas),
  );
  assert.deepEqual(diff.prompts.flips, {});
  assert.equal(diff.prompts.paired, 32);
});

test('diff --gate: a pass@k regression on every aime prompt fails; one gpqa attempt flipped (noise) passes', (t) => {
  const { dir } = twoRuns(t, regressAime);
  const { status, diff } = jsonDiff(['--gate', 'base', 'cand'], dir);
  assert.equal(status, 1);
  const rules = diff.gate.failures.map((f) => `${f.rule} ${f.message.split(':')[0]}`);
  assert.deepEqual(rules, [
    'score-regression aime (step 100 → 100)',
    'pass-at-k-regression aime (step 100 → 100)',
    'pass-at-k-regression aime (step 100 → 100)',
    'pass-at-k-regression aime (step 100 → 100)',
  ]);
  const aime = diff.datasets.find((d) => d.name === 'aime')!;
  assert.deepEqual([aime.passAtK['pass@1'].baseline, aime.passAtK['pass@1'].candidate], [1 / 3, 0]);
  assert.ok(aime.passAtK['pass@1'].interval![1] < 0);
  assert.deepEqual(diff.gate.failures[0].evidence, [
    { file: 'cand/eval/eval_100.jsonl', line: 1 },
    { file: 'base/eval/eval_100.jsonl', line: 1 },
  ]);
  assert.equal(diff.prompts.flips['solved → unsolved'], 3);

  const noisy = twoRuns(t, flipOneGpqa);
  const r = jsonDiff(['--gate', 'base', 'cand'], noisy.dir);
  assert.equal(r.status, 0, JSON.stringify(r.diff.gate));
  const gpqa = r.diff.datasets.find((d) => d.name === 'gpqa')!;
  assert.ok(gpqa.passAtK['pass@1'].delta! < 0);
  const [lo, hi] = gpqa.passAtK['pass@1'].interval!;
  assert.ok(lo < 0 && hi >= 0, `${lo}, ${hi}`);
});

test('diff --gate: an eval denominator that shrank fails, naming the first sample of the dataset on both sides', (t) => {
  const { dir } = twoRuns(t, dropOneGpqaReward);
  const { status, diff } = jsonDiff(['--gate', 'base', 'cand'], dir);
  assert.equal(status, 1);
  const shrank = diff.gate.failures.filter((f) => f.rule === 'eval-denominator-shrank');
  assert.deepEqual(shrank, [
    {
      rule: 'eval-denominator-shrank',
      message: 'gpqa (step 100 → 100): 12 → 12 samples, 1 → 2 without a reward',
      evidence: [
        { file: 'cand/eval/eval_100.jsonl', line: 13 },
        { file: 'base/eval/eval_100.jsonl', line: 13 },
      ],
    },
  ]);
  // With the rule off, a lone missing reward is no regression the interval can tell from noise.
  const cand = join(dir, 'cand');
  writeFileSync(join(cand, 'rollout-lens.yaml'), `${readFileSync(join(cand, 'rollout-lens.yaml'), 'utf8')}\ngate:\n  evalDenominatorShrank: false\n`);
  assert.equal(runCli(['diff', '--gate', 'base', 'cand'], dir).status, 0);
});

test('diff --gate: a metric-mismatch the baseline did not have fails, pointing at the metrics log', (t) => {
  const dir = tempDir(t);
  copyMilesRun(join(dir, 'base'), true);
  const cand = copyMilesRun(join(dir, 'cand'), true);
  // The example's metrics log already disagrees with its eval dump twice (pass@k by the global n,
  // the gpqa score); with one sample changed, on two more of its metrics.
  const dump = join(cand, EVAL_EDIT.file);
  writeFileSync(dump, editedEvalDump(readFileSync(dump, 'utf8')));
  const { status, diff } = jsonDiff(['--gate', 'base', 'cand'], dir);
  assert.equal(status, 1);
  assert.deepEqual(
    diff.gate.failures.map((f) => [f.rule, f.message, f.evidence]),
    [['new-metric-mismatch', 'eval step 100: 4 metric-mismatch finding(s), 2 in baseline step 100', [{ file: 'cand/metrics.jsonl', line: 1 }]]],
  );
  // The same mismatches on both sides are not new.
  const again = tempDir(t);
  for (const side of ['base', 'cand']) {
    const run = copyMilesRun(join(again, side), true);
    writeFileSync(join(run, EVAL_EDIT.file), editedEvalDump(readFileSync(join(run, EVAL_EDIT.file), 'utf8')));
  }
  assert.equal(jsonDiff(['--gate', 'base', 'cand'], again).status, 0);
});

test('diff: the bootstrap is deterministic for a seed', (t) => {
  const { dir } = twoRuns(t, flipOneGpqa);
  const intervals = (seed: string) => jsonDiff(['--seed', seed, 'base', 'cand'], dir).diff.datasets.map((d) => [d.score.interval, d.passAtK]);
  assert.deepEqual(intervals('7'), intervals('7'));
});

test('diff: a summary works as the baseline, giving the diff of the run it summarises', (t) => {
  const { dir } = twoRuns(t, injectSandboxAbort);
  const s = runCli(['summarize', 'base', '--out', 'base.summary.json'], dir);
  assert.equal(s.status, 0, s.stderr);
  assert.match(s.stderr, /^wrote base\.summary\.json: 4 steps, 4 files, \d+ bytes\n$/);
  const fromRun = jsonDiff(['--gate', 'base', 'cand'], dir);
  const fromSummary = jsonDiff(['--gate', 'base.summary.json', 'cand'], dir);
  assert.equal(fromSummary.status, 1);
  assert.deepEqual({ ...fromSummary.diff, baseline: { ...fromSummary.diff.baseline, source: 'base' } }, fromRun.diff);
  // Merged shards' summaries are a baseline too.
  assert.equal(runCli(['summarize', 'base/rollout', '--config', 'base/rollout-lens.yaml', '--out', 'r.json'], dir).status, 0);
  assert.equal(runCli(['summarize', 'base/eval', '--config', 'base/rollout-lens.yaml', '--out', 'e.json'], dir).status, 0);
  assert.equal(runCli(['summarize', '--merge', 'r.json', 'e.json', '--out', 'all.json'], dir).status, 0);
  const merged = jsonDiff(['base.summary.json', 'all.json'], dir).diff;
  assert.deepEqual(merged.gate, { passed: true, failures: [] });
  assert.equal(merged.steps.length, 4);
});

test('diff --gate: rules from gate: in rollout-lens.yaml; a bad rule is bad usage', (t) => {
  const { dir, cand } = twoRuns(t, injectSandboxAbort);
  const settings = join(cand, 'rollout-lens.yaml');
  const original = readFileSync(settings, 'utf8');
  const withGate = (section: string) => writeFileSync(settings, `${original}\ngate:\n${section}`);
  withGate('  dropRateIncrease: 5\n');
  assert.equal(runCli(['diff', '--gate', 'base', 'cand'], dir).status, 0);
  // check reads the same file, its gate section ignored (it is diff's).
  const check = runCli(['check', 'cand'], dir);
  assert.notEqual(check.status, 2, check.stderr);
  withGate('  dropRateIncrease: 4\n');
  assert.equal(runCli(['diff', '--gate', 'base', 'cand'], dir).status, 1);
  withGate('  dropRateIncrease: false\n');
  assert.equal(runCli(['diff', '--gate', 'base', 'cand'], dir).status, 0);
  // --config names the file the rules come from.
  assert.equal(runCli(['diff', '--gate', '--config', 'base/rollout-lens.yaml', 'base', 'cand'], dir).status, 1);
  withGate('  newDropCauses: true\n');
  const r = runCli(['diff', '--gate', 'base', 'cand'], dir);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown setting "newDropCauses" in gate/);
});

test('diff: --align pairs steps by position; bad usage and unreadable input exit 2', (t) => {
  const { dir } = twoRuns(t);
  const aligned = jsonDiff(['--align', 'last', '1', 'base', 'cand'], dir).diff;
  assert.deepEqual(
    aligned.steps.map((s) => `${s.kind} ${s.baseline}→${s.candidate}`),
    ['rollout 3→3', 'eval 100→100'],
  );
  assert.deepEqual(aligned.unpaired, { baseline: 2, candidate: 2 });
  const help = runCli(['diff', '--help'], dir);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: rollout-lens summarize .*\n(.*\n)*\s+--align first\|last <n> /);
  writeFileSync(join(dir, 'bad.json'), '{"version": 3, "steps": 3}');
  for (const [args, reason] of [
    [['diff', 'base'], /diff: give one <baseline> and one <candidate> \(got 1 paths\)/],
    [['diff', '--align', 'middle', '2', 'base', 'cand'], /--align: expected first or last, got "middle"/],
    [['diff', '--seed', '-1', 'base', 'cand'], /--seed: expected a whole number of at least 0/],
    [['diff', 'missing.json', 'cand'], /diff: cannot read missing\.json: ENOENT/],
    [['diff', 'bad.json', 'cand'], /diff: bad\.json: not a run summary/],
    [['summarize', '--merge', 'bad.json'], /summarize --merge: bad\.json: not a run summary/],
    [['summarize', '--format', 'json', 'base'], /--format: summarize writes JSON/],
  ] as [string[], RegExp][]) {
    const r = runCli(args, dir);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, reason);
  }
});
