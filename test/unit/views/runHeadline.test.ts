// The run view's run-level parts (core/views/runHeadline.ts, runViewRows.ts, runViewEval.ts): the
// header sentence naming the worst step and why, drops as a share of each step's groups, one run
// per framework and root (miles and verl never share an axis), verl's own figures (critic/score/mean
// over kept rows and over all attempts, val-core per data source, also in a verl-only folder),
// findings as rows with their messages (metric-mismatch included), and a metrics log's values
// beside the recomputed ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import type { ReasonInfo, StepRow } from '../../../shared/runViewModel';
import { analyzeFiles } from '../../../server/src/core/engine';
import { planRun } from '../../../server/src/core/run/plan';
import type { Finding } from '../../../server/src/core/vocabulary/types';
import { dropShares, dropsByFamily, headlines, reasonFamily, stepHeadline, worstStep } from '../../../server/src/core/views/runHeadline';
import { buildRunView, runViewBuilder } from '../../../server/src/core/views/runView';
import { FindingRows, MAX_FINDING_ROWS, RecomputedByStep } from '../../../server/src/core/views/runViewRows';
import { walkPaths } from '../../../server/src/core/locate/walk';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../shared/repoRoot';

const RUN = join(repoRoot(), 'examples/run');

async function viewOf(folder: string, keepDetail: true | 'store' = 'store') {
  const yaml = parse(readFileSync(join(RUN, 'rollout-lens.yaml'), 'utf8')) as Partial<RolloutLensSettings>;
  const settings: RolloutLensSettings = { ...DEFAULT_SETTINGS, ...yaml, evalConfig: join(RUN, yaml.evalConfig ?? 'eval_config.yaml') };
  const walk = await walkPaths([folder], nodeFileAccess);
  const report = await analyzeFiles(walk.targets, { access: nodeFileAccess, settings, keepDetail });
  return { report, view: buildRunView(report, { causes: settings, plan: planRun(walk.targets, [folder]) }) };
}

test('example run: the header sentence names the worst step and why, by family', async () => {
  const { view } = await viewOf(RUN);
  const miles = view.runs.findIndex((r) => r.framework === 'miles');
  assert.equal(view.runs[miles].headline, 'step 1: 6 of 8 groups dropped: 2 infrastructure aborts, 1 policy abort, 1 unknown, 2 zero-std');
  // Two runs in the folder: the view's sentence names the run of its worst step (by its framework, the only miles run).
  assert.equal(view.headline, 'miles run, step 1: 6 of 8 groups dropped: 2 infrastructure aborts, 1 policy abort, 1 unknown, 2 zero-std');
  // verl dropped nothing: no sentence for its run.
  assert.equal(view.runs.find((r) => r.framework === 'verl')?.headline, null);
});

test('header sentence: other aborts, drops no metric names, other reasons by name; one run alone is not named', () => {
  const reasons = new Map<string, ReasonInfo>([
    ['group_has_aborted_Weird', info('group_has_aborted_Weird', 'aborted', 'Weird', 'unclassified')],
    ['group_has_aborted_SandboxUnavailable', info('group_has_aborted_SandboxUnavailable', 'aborted', 'SandboxUnavailable', 'infrastructure')],
    ['zero_std_0.0', info('zero_std_0.0', 'zero-std', null, null)],
    ['over_length', info('over_length', 'other', null, null)],
  ]);
  const drops = { group_has_aborted_Weird: 2, group_has_aborted_SandboxUnavailable: 1, unknown: 3, 'zero_std_0.0': 1, over_length: 1 };
  assert.deepEqual(dropsByFamily(drops, reasons), ['1 infrastructure abort', '2 other aborts', '3 unknown', '1 zero-std', '1 over_length']);
  const row = { step: 4, files: ['a.jsonl'], groups: 1, dropped: 1, drops: { 'zero_std_0.0': 1 } };
  assert.equal(stepHeadline(row, reasons), 'step 4: 1 of 1 group dropped: 1 zero-std');
  assert.equal(stepHeadline({ ...row, step: null }, reasons), 'a.jsonl: 1 of 1 group dropped: 1 zero-std');
});

function info(reason: string, kind: ReasonInfo['kind'], cause: string | null, causeClass: ReasonInfo['causeClass']): ReasonInfo {
  return { reason, metric: null, kind, cause, causeClass, reward: null, family: reasonFamily({ kind, causeClass }), groups: 0 };
}

test('the view’s sentence names a run by its root too when two runs share a framework', () => {
  const reasons = new Map<string, ReasonInfo>([['zero_std_0.0', info('zero_std_0.0', 'zero-std', null, null)]]);
  const row = (run: number, dropped: number): StepRow => ({
    ...({} as StepRow),
    run,
    step: 1,
    files: ['x'],
    groups: 4,
    dropped,
    drops: { 'zero_std_0.0': dropped },
  });
  const runs = [
    { root: 'a', framework: 'miles' as const, headline: null, prompts: null, promptGroupsOmitted: 0, mismatch: null },
    { root: 'b', framework: 'miles' as const, headline: null, prompts: null, promptGroupsOmitted: 0, mismatch: null },
  ];
  const said = headlines(runs, [row(0, 1), row(1, 2)], reasons);
  assert.deepEqual(said.perRun, ['step 1: 1 of 4 groups dropped: 1 zero-std', 'step 1: 2 of 4 groups dropped: 2 zero-std']);
  assert.equal(said.overall, 'miles run b, step 1: 2 of 4 groups dropped: 2 zero-std');
  assert.equal(headlines(runs.slice(0, 1), [row(0, 1)], reasons).overall, 'step 1: 1 of 4 groups dropped: 1 zero-std');
});

test('worst step: the largest share dropped, then the most groups, then the earliest; none when nothing dropped', () => {
  const rows = [
    { step: 1, groups: 289, dropped: 13 },
    { step: 2, groups: 8, dropped: 1 },
    { step: 3, groups: 16, dropped: 2 },
    { step: 4, groups: 8, dropped: 1 },
  ];
  assert.equal(worstStep(rows)?.step, 3);
  assert.equal(worstStep([rows[1], rows[3]])?.step, 2);
  assert.equal(worstStep([{ step: 1, groups: 8, dropped: 0 }]), null);
});

test('families: aborts by their cause class, zero-std apart, the rest other', () => {
  assert.equal(reasonFamily({ kind: 'aborted', causeClass: 'infrastructure' }), 'infrastructure');
  assert.equal(reasonFamily({ kind: 'aborted', causeClass: 'policy' }), 'policy');
  assert.equal(reasonFamily({ kind: 'aborted', causeClass: 'unclassified' }), 'other');
  assert.equal(reasonFamily({ kind: 'aborted', causeClass: 'scored' }), 'other');
  assert.equal(reasonFamily({ kind: 'zero-std', causeClass: null }), 'zero-std');
  assert.equal(reasonFamily({ kind: 'other', causeClass: null }), 'other');
});

test('drop shares: each cause over the step’s groups, so 13 of 289 is 4.5%, not a sliver', async () => {
  assert.deepEqual(dropShares({ groups: 289, drops: { a: 13 } }), { a: 13 / 289 });
  assert.deepEqual(dropShares({ groups: 0, drops: {} }), {});
  const { view } = await viewOf(RUN);
  for (const row of view.steps) {
    const sum = Object.values(row.dropShare).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - row.dropped / row.groups) < 1e-12, `step ${row.step}`);
    for (const [reason, share] of Object.entries(row.dropShare)) assert.equal(share, row.drops[reason] / row.groups);
  }
  assert.equal(view.steps.find((s) => s.step === 1)?.dropShare['group_has_aborted_ServerUnreachable'], 1 / 8);
});

test('runs: miles and verl under one root are two runs; every step and eval row is in its own framework’s run', async () => {
  const { view } = await viewOf(RUN);
  assert.deepEqual(
    view.runs.map((r) => [r.root, r.framework]),
    [
      [RUN, 'miles'],
      [RUN, 'verl'],
    ],
  );
  const stepsOf = (framework: string) => view.steps.filter((s) => view.runs[s.run].framework === framework);
  assert.deepEqual(
    stepsOf('miles').map((s) => s.step),
    [1, 2, 3],
  );
  assert.deepEqual(
    stepsOf('verl').map((s) => s.step),
    [12],
  );
  assert.ok(stepsOf('verl')[0].files.every((f) => f.includes('/verl/')));
  assert.ok(stepsOf('miles').every((s) => s.files.every((f) => !f.includes('/verl/'))));
  for (const e of view.eval) assert.equal(view.runs[e.run].framework, e.file.includes('/verl/') ? 'verl' : 'miles');
});

test('verl: critic/score/mean over kept rows and over all attempts, val-core per data source, in a verl-only folder too', async () => {
  for (const folder of [RUN, join(RUN, 'verl')]) {
    const { view, report } = await viewOf(folder);
    const verl = view.runs.findIndex((r) => r.framework === 'verl');
    assert.ok(verl >= 0, folder);
    const [step] = view.steps.filter((s) => s.run === verl);
    const file = report.files.find((f) => f.format === 'verl-rollout')!;
    assert.equal(step.scoreMeanKept, file.metrics['critic/score/mean']);
    assert.equal(step.scoreMeanKept, 0.46153846153846156);
    // The denominator-inflation finding's "over all 16 attempts the mean score is 0.375".
    assert.equal(step.scoreMeanAllAttempts, 0.375);
    const [gsm8k] = view.eval.filter((e) => e.run === verl);
    assert.deepEqual([gsm8k.dataset, gsm8k.score, gsm8k.valCore], ['gsm8k', 0.875, { 'val-core/gsm8k/acc/mean@4': 0.875 }]);
  }
  const { view } = await viewOf(join(RUN, 'verl'));
  assert.deepEqual(
    view.runs.map((r) => r.framework),
    ['verl'],
  );
  // miles rows have no verl figures.
  const { view: all } = await viewOf(RUN);
  for (const s of all.steps.filter((r) => all.runs[r.run].framework === 'miles')) assert.deepEqual([s.scoreMeanKept, s.scoreMeanAllAttempts], [null, null]);
});

test('findings as rows: severity, message, file and line, errors first; metric-mismatch included; counts kept past the cap', async () => {
  const { view, report } = await viewOf(RUN);
  assert.equal(view.findingRows.length, report.findings.length);
  assert.equal(view.findingRowsOmitted, 0);
  const severities = view.findingRows.map((f) => f.severity);
  assert.equal(severities.lastIndexOf('error'), severities.filter((s) => s === 'error').length - 1, 'errors first');
  const mismatch = view.findingRows.filter((f) => f.code === 'metric-mismatch');
  assert.equal(mismatch.length, 2);
  assert.ok(mismatch.some((f) => f.message.startsWith('eval/gpqa at step 100: logged 0.6363636363636364, recomputed 0.5833333333333334')));
  assert.equal(view.findings['metric-mismatch'], 2);

  const rows = new FindingRows();
  const finding = (i: number, severity: Finding['severity']): Finding => ({
    code: 'group-dropped',
    severity,
    file: 'r.jsonl',
    line: i + 1,
    message: `m${i}`,
    group: null,
    dataset: null,
    fix: null,
  });
  for (let i = 0; i < MAX_FINDING_ROWS + 5; i++) rows.add(finding(i, 'warning'));
  rows.add(finding(999, 'error'));
  const listed = rows.finish();
  assert.equal(listed.rows.length, MAX_FINDING_ROWS);
  assert.equal(listed.omitted, 6);
  assert.deepEqual([listed.rows[0].severity, listed.rows[0].line], ['error', 1000]);
  assert.equal(rows.counts['group-dropped'], MAX_FINDING_ROWS + 6);
});

test('logged metrics beside the recomputed ones: the same metric at the same step, in the run that recomputed it', async () => {
  const { view } = await viewOf(RUN);
  const miles = view.runs.findIndex((r) => r.framework === 'miles');
  const gpqa = view.logged.find((l) => l.metric === 'eval/gpqa')!;
  assert.deepEqual(gpqa, { run: miles, metric: 'eval/gpqa', step: 100, logged: 0.6363636363636364, recomputed: 0.5833333333333334 });
  assert.equal(view.logged.length, 10, 'the ten eval metrics metrics.jsonl logs at step 100, all recomputed');

  const by = new RecomputedByStep();
  by.add(0, 3, { 'rollout/a': 1 });
  by.add(1, 3, { 'rollout/a': 2, 'rollout/b': 5 });
  assert.deepEqual(
    by.pair([
      { step: 3, metrics: { 'rollout/a': 1.5, 'rollout/b': 5, 'rollout/never': 1 } },
      { step: null, metrics: { 'rollout/a': 0 } },
    ]),
    [
      { run: 0, metric: 'rollout/a', step: 3, logged: 1.5, recomputed: 1 },
      { run: 1, metric: 'rollout/b', step: 3, logged: 5, recomputed: 5 },
    ],
  );
});

test('a step’s rows keep their run when files come in any order', async () => {
  const yaml = parse(readFileSync(join(RUN, 'rollout-lens.yaml'), 'utf8')) as Partial<RolloutLensSettings>;
  const settings: RolloutLensSettings = { ...DEFAULT_SETTINGS, ...yaml, evalConfig: join(RUN, yaml.evalConfig ?? 'eval_config.yaml') };
  const walk = await walkPaths([RUN], nodeFileAccess);
  const report = await analyzeFiles(walk.targets, { access: nodeFileAccess, settings, keepDetail: 'store' });
  const plan = planRun(walk.targets, [RUN]);
  const forward = runViewBuilder({ causes: settings, plan });
  const backward = runViewBuilder({ causes: settings, plan });
  for (const f of report.files) forward.add(f);
  for (const f of report.files.slice().reverse()) backward.add(f);
  const a = forward.finish(report);
  const b = backward.finish(report);
  const key = (s: StepRow) => [a.runs[s.run].framework, s.step, s.groups];
  assert.deepEqual(
    a.steps.map(key),
    b.steps.map((s) => [b.runs[s.run].framework, s.step, s.groups]),
  );
  assert.deepEqual(a.runs, b.runs);
});
