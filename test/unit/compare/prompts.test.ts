// Prompt history: `rollout-lens prompts` (through the built CLI) on a run whose prompts come back
// across steps, by the JSON contract; the same figures from a summary, in the text with `file:line`,
// and in the report's run view; exit statuses; and a summary's size per prompt-step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { promptHistories, promptLearning } from '../../../server/src/core/compare/promptHistory';
import type { RunView } from '../../../shared/runViewModel';
import { PROMPT_LEARNING_CONTRACT, PROMPTS_CONTRACT, SUMMARY_CONTRACT } from '../../shared/compareContract';
import { writeHistoryRun, writeLargeRun } from '../../shared/promptRun';
import { runCli, tempDir } from '../cli/run';

type Report = ReturnType<typeof PROMPTS_CONTRACT.parse>;

function jsonPrompts(args: string[], cwd: string): Report {
  const r = runCli(['prompts', '--format', 'json', ...args], cwd);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return PROMPTS_CONTRACT.parse(JSON.parse(r.stdout));
}

/** A prompt of the plan by its first group's sample (ids are hashes of the prompt text). */
function byFirstPlace(report: Report, file: string, line: number): Report['prompts'][number] {
  const found = report.prompts.find((p) => p.groups[0].file === file && p.groups[0].line === line);
  assert.ok(found, `${file}:${line}`);
  return found;
}

test('prompts: each prompt’s groups across steps, first solved step, regressions, steps dropped and no-gradient tokens', (t) => {
  const dir = tempDir(t);
  writeHistoryRun(join(dir, 'run'));
  const report = jsonPrompts(['run'], dir);
  assert.deepEqual([report.source, report.framework, report.rolloutSteps, report.prompts.length], ['run', 'miles', 4, 4]);
  const r = (step: number) => `run/rollout/rollout_${step}.jsonl`;
  const a = byFirstPlace(report, r(1), 1);
  assert.deepEqual(
    a.groups.map((g) => [g.step, g.state, g.passes, g.samples, g.tokens, g.file, g.line]),
    [
      [1, 'zero_std_0', 0, 4, 40, r(1), 1],
      [2, 'kept', 2, 4, 40, r(2), 1],
      [3, 'zero_std_0', 0, 4, 40, r(3), 1],
      [4, 'zero_std_1', 4, 4, 40, r(4), 1],
    ],
  );
  assert.deepEqual(a.firstSolved, { step: 2, file: r(2), line: 1 });
  assert.deepEqual(a.regressions, [{ solvedStep: 2, unsolved: { step: 3, file: r(3), line: 1 } }]);
  assert.deepEqual([a.stepsDropped, a.wastedTokens, a.tokens], [3, 120, 160]);

  const b = byFirstPlace(report, r(1), 5);
  assert.deepEqual(
    b.groups.map((g) => [g.step, g.state, g.passes]),
    [
      [1, 'kept', 0],
      [3, 'zero_std_0', 0],
    ],
  );
  assert.deepEqual([b.firstSolved, b.regressions, b.stepsDropped, b.wastedTokens, b.tokens], [null, [], 1, 40, 80]);

  // An aborted attempt drops its group, named by the aborted sample (line 7 of step 4).
  const c = byFirstPlace(report, r(1), 9);
  assert.deepEqual(
    c.groups.map((g) => [g.step, g.state, g.passes, g.line]),
    [
      [1, 'kept', 1, 9],
      [2, 'kept', 2, 5],
      [4, 'group_has_aborted_SandboxUnavailable', 1, 7],
    ],
  );
  assert.deepEqual([c.firstSolved?.step, c.regressions, c.stepsDropped, c.wastedTokens], [1, [], 1, 40]);

  const d = byFirstPlace(report, r(2), 9);
  assert.deepEqual([d.groups.length, d.groups[0].state, d.firstSolved?.step, d.stepsDropped, d.wastedTokens], [1, 'zero_std_1', 2, 1, 40]);

  // The run: B never learned; A and C solved and sampled again (A at 3 and 4, C at 2 and 4).
  const l = report.learning;
  assert.deepEqual([l.prompts, l.groups], [4, 10]);
  assert.deepEqual(l.neverLearned, { count: 1, tokens: 80, examples: [{ id: b.id, groups: 2, tokens: 80, step: 3, file: r(3), source: r(3), line: 5 }] });
  assert.deepEqual([l.solvedStillSampled.count, l.solvedStillSampled.groups, l.solvedStillSampled.tokens], [2, 4, 160]);
  assert.deepEqual(
    l.solvedStillSampled.examples.map((e) => [e.id, e.tokens, e.step, e.line]),
    [
      [c.id, 80, 2, 5],
      [a.id, 80, 3, 1],
    ],
  );
  assert.deepEqual([l.waste.tokens, l.waste.totalTokens, l.waste.groups], [240, 400, 6]);
  assert.deepEqual(l.waste.examples[0], { id: a.id, groups: 4, tokens: 120, step: 1, file: r(1), source: r(1), line: 1 });

  // The waste is the summary's own dropped tokens, counted from the same rows.
  const s = runCli(['summarize', 'run'], dir);
  const summary = SUMMARY_CONTRACT.parse(JSON.parse(s.stdout));
  assert.equal(
    summary.steps.reduce((n, st) => n + st.droppedTokens, 0),
    l.waste.tokens,
  );
});

test('prompts: a summary gives the same histories; --prompt narrows; the text names each group’s sample', (t) => {
  const dir = tempDir(t);
  writeHistoryRun(join(dir, 'run'));
  const fromRun = jsonPrompts(['run'], dir);
  assert.equal(runCli(['summarize', 'run', '--out', 'run.summary.json'], dir).status, 0);
  const fromSummary = jsonPrompts(['run.summary.json'], dir);
  assert.deepEqual({ ...fromSummary, source: 'run' }, fromRun);

  const a = byFirstPlace(fromRun, 'run/rollout/rollout_1.jsonl', 1);
  const one = jsonPrompts(['--prompt', a.id, 'run.summary.json'], dir);
  assert.deepEqual(one.prompts, [a]);
  assert.deepEqual(one.learning, fromRun.learning, 'the run’s figures, whichever prompt is listed');

  const text = runCli(['prompts', '--prompt', a.id, 'run'], dir);
  assert.equal(text.status, 0, text.stderr);
  const lines = text.stdout.split('\n');
  assert.equal(lines[0], 'run (miles): 4 rollout steps, 4 prompts in 10 groups');
  assert.ok(lines.includes('never learned: 1 prompt (25%), 80 response tokens'), text.stdout);
  assert.ok(lines.includes('no gradient: 240 of 400 response tokens (60%) in 6 dropped groups'), text.stdout);
  const own = lines.slice(lines.indexOf('') + 1, -1);
  assert.deepEqual(own, [
    `prompt ${a.id}: 4 groups, first solved at step 2 run/rollout/rollout_2.jsonl:1, 1 regression, 3 steps dropped, 120 of 160 response tokens without gradient`,
    '  step 1: zero_std_0, 0/4 passed, 40 tokens  run/rollout/rollout_1.jsonl:1',
    '  step 2: kept, 2/4 passed, 40 tokens  run/rollout/rollout_2.jsonl:1',
    '  step 3: zero_std_0, 0/4 passed, 40 tokens  run/rollout/rollout_3.jsonl:1',
    '  step 4: zero_std_1, 4/4 passed, 40 tokens  run/rollout/rollout_4.jsonl:1',
    '  regression: solved at step 2, unsolved at step 3  run/rollout/rollout_3.jsonl:1',
  ]);
});

test('prompts: bad usage and unreadable input exit 2', (t) => {
  const dir = tempDir(t);
  writeHistoryRun(join(dir, 'run'));
  writeFileSync(join(dir, 'bad.json'), '{"version": 3, "steps": 3}');
  for (const [args, reason] of [
    [['prompts'], /no <path> given/],
    [['prompts', 'run', 'run'], /prompts: give one <run> or summary \(got 2 paths\)/],
    [['prompts', '--prompt', '', 'run'], /--prompt: must not be empty/],
    [['prompts', '--format', 'yaml', 'run'], /--format/],
    [['prompts', 'missing.json'], /prompts: cannot read missing\.json: ENOENT/],
    [['prompts', 'bad.json'], /prompts: bad\.json: not a run summary/],
    [['prompts', '--prompt', 'no-such-prompt', 'run'], /prompts: no rollout prompt "no-such-prompt" in run/],
  ] as [string[], RegExp][]) {
    const r = runCli(args, dir);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, reason);
  }
  assert.match(runCli(['prompts', '--help'], dir).stdout, /\n {2}--prompt <id> /);
});

test('prompts: the report’s run view shows the same prompts never learned, solved and still sampled, and waste', (t) => {
  const dir = tempDir(t);
  const run = writeHistoryRun(join(dir, 'run'));
  const r = runCli(['report', '--out', 'r.html', 'run'], dir);
  assert.equal(r.status, 0, r.stderr);
  const html = readFileSync(join(dir, 'r.html'), 'utf8');
  const model = JSON.parse(/<script type="application\/json" id="run-view-model">([^<]*)<\/script>/.exec(html)![1]) as RunView;
  assert.equal(model.runs.length, 1);
  const shown = PROMPT_LEARNING_CONTRACT.parse(model.runs[0].prompts);
  // The report shows paths relative to the folder given; `prompts .` from inside it names them `./…`.
  const fromCli = jsonPrompts(['.'], run).learning;
  assert.deepEqual(shown, JSON.parse(JSON.stringify(fromCli).replaceAll('"./rollout/', '"rollout/')));
  assert.deepEqual([shown.neverLearned.count, shown.solvedStillSampled.count, shown.waste.tokens], [1, 2, 240]);
});

test('prompt history: a prompt twice in a step is solved there when either group is; unnumbered files come last', () => {
  const rows = (...r: [string, number, number, number][]) =>
    r.map(([id, state, passes, tokens], i) => [id, state, 4, passes, passes, i + 1, tokens] as [string, number, number, number, number, number, number]);
  const states = ['kept', 'zero_std_0'];
  const histories = promptHistories([
    { step: null, path: 'x.jsonl', states, prompts: rows(['p', 1, 0, 7]) },
    { step: 2, path: 'b.jsonl', states, prompts: rows(['p', 0, 1, 5]) },
    { step: 1, path: 'a.jsonl', states, prompts: rows(['p', 1, 0, 3], ['p', 0, 2, 4]) },
  ]);
  assert.equal(histories.length, 1);
  const [p] = histories;
  assert.deepEqual(
    p.groups.map((g) => [g.step, g.file, g.state]),
    [
      [1, 'a.jsonl', 'zero_std_0'],
      [1, 'a.jsonl', 'kept'],
      [2, 'b.jsonl', 'kept'],
      [null, 'x.jsonl', 'zero_std_0'],
    ],
  );
  assert.deepEqual(p.firstSolved, { step: 1, file: 'a.jsonl', line: 2 });
  assert.deepEqual(p.regressions, [{ solvedStep: 2, unsolved: { step: null, file: 'x.jsonl', line: 1 } }]);
  assert.deepEqual([p.stepsDropped, p.wastedTokens, p.tokens], [2, 10, 19]);
  const l = promptLearning(histories);
  assert.deepEqual([l.neverLearned.count, l.solvedStillSampled.count, l.solvedStillSampled.groups, l.solvedStillSampled.tokens], [0, 1, 2, 12]);
});

test('summary: at most 64 bytes per prompt-step on average (6 steps × 128 prompts × 8 samples)', (t) => {
  const dir = tempDir(t);
  writeLargeRun(join(dir, 'run'), 6, 128);
  const r = runCli(['summarize', 'run', '--out', 's.json'], dir);
  assert.equal(r.status, 0, r.stderr);
  const text = readFileSync(join(dir, 's.json'), 'utf8');
  const summary = SUMMARY_CONTRACT.parse(JSON.parse(text));
  let promptSteps = 0;
  for (const s of summary.steps) for (const f of s.files) promptSteps += f.prompts.length;
  assert.equal(promptSteps, 6 * 128);
  const perPromptStep = Buffer.byteLength(text) / promptSteps;
  assert.ok(perPromptStep <= 64, `${perPromptStep} bytes per prompt-step`);
  t.diagnostic(`${perPromptStep.toFixed(1)} bytes per prompt-step`);
});
