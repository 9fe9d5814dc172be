// The run view's comparison model (shared/compareView.ts) from a real diff (the built CLI's
// `diff --format json` of the example run and a copy with one injected abort): the flipped
// prompt's row links both samples by numbered places the host holds, labelled relative to their
// runs; every place is listed once; and in the page a comparison full of markup stays inside the
// model's JSON element, whose text parses back unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { comparisonOf } from '../../../shared/compareView';
import type { RunDiff } from '../../../shared/protocol';
import type { RunView } from '../../../shared/runViewModel';
import { runViewHtml } from '../../../shared/runViewPage';
import { copyMilesRun, INJECTED, injectSandboxAbort } from '../../shared/compareRun';
import { runCli, tempDir } from '../cli/run';

function injectedDiff(t: Parameters<typeof tempDir>[0]): { base: string; cand: string; diff: RunDiff } {
  const dir = tempDir(t);
  const base = copyMilesRun(join(dir, 'base'));
  const cand = copyMilesRun(join(dir, 'cand'));
  injectSandboxAbort(cand);
  const r = runCli(['diff', '--format', 'json', base, cand]);
  assert.equal(r.status, 0, r.stderr);
  return { base, cand, diff: JSON.parse(r.stdout) as RunDiff };
}

const NAMES = { baseline: 'runs/base', candidate: 'runs/cand' };

test('comparison: the flipped prompt links both samples by numbered places, labelled relative to their runs', (t) => {
  const { base, cand, diff } = injectedDiff(t);
  const c = comparisonOf(diff, NAMES);
  assert.deepEqual([c.baseline.name, c.candidate.name], ['runs/base', 'runs/cand']);
  assert.equal(c.prompts.listed.length, 1);
  const [flip] = c.prompts.listed;
  assert.deepEqual([flip.kind, flip.from, flip.to], ['rollout', 'kept', 'group_has_aborted_SandboxUnavailable']);
  assert.deepEqual(flip.candidate, { place: flip.candidate.place, label: `${INJECTED.file}:${INJECTED.line}`, side: 'candidate' });
  assert.equal(flip.baseline.side, 'baseline');
  assert.equal(flip.baseline.label, `${INJECTED.file}:${diff.prompts.listed[0].baseline.line}`);
  // The host opens these: the diff's own paths and lines, under the numbers the links carry.
  assert.deepEqual(c.places[flip.candidate.place], { file: join(cand, INJECTED.file), line: INJECTED.line });
  assert.deepEqual(c.places[flip.baseline.place], { file: join(base, INJECTED.file), line: diff.prompts.listed[0].baseline.line });
  // The gate's evidence is the same sample: the same place, listed once.
  assert.equal(c.gate.passed, false);
  assert.deepEqual(
    c.gate.failures.map((f) => [f.rule, f.evidence.map((e) => e.place)]),
    [['drop-rate-increase', [flip.candidate.place]]],
  );
  const keys = c.places.map((p) => `${p.file}:${p.line}`);
  assert.equal(new Set(keys).size, keys.length);
  // Every link names a place that exists.
  const links = [
    ...c.gate.failures.flatMap((f) => f.evidence),
    ...c.causes.flatMap((x) => [...x.evidence.baseline, ...x.evidence.candidate]),
    ...c.datasets.flatMap((d) => [d.evidence.baseline, d.evidence.candidate]).filter((l) => l !== null),
    ...c.prompts.listed.flatMap((f) => [f.baseline, f.candidate]),
  ];
  for (const l of links) assert.ok(c.places[l.place], `place ${l.place}`);
  // The figures are the diff's.
  const cause = c.causes.find((x) => x.reason === 'group_has_aborted_SandboxUnavailable')!;
  assert.deepEqual(cause.ratePoints, diff.causes.find((x) => x.reason === cause.reason)!.ratePoints);
  assert.deepEqual(
    c.steps,
    diff.steps.map(({ samples: _s, noneRewardRatio: _n, ...rest }) => rest),
  );
  assert.deepEqual(c.prompts.flips, { 'kept → group_has_aborted_SandboxUnavailable': 1 });
});

test('comparison: a place under neither run keeps its path; a run compared with itself labels each side as its own', () => {
  const place = (file: string, line: number) => ({ file, line });
  const diff: RunDiff = {
    version: 1,
    baseline: { source: '/r/a', framework: 'miles', steps: 1, samples: 4 },
    candidate: { source: '/r/a', framework: 'miles', steps: 1, samples: 4 },
    unpaired: { baseline: 0, candidate: 0 },
    steps: [],
    causes: [],
    datasets: [],
    prompts: {
      paired: 1,
      flips: { 'solved → unsolved': 1 },
      listed: [
        {
          kind: 'eval',
          dataset: 'aime',
          id: 'p',
          baselineStep: 1,
          candidateStep: 1,
          from: 'solved',
          to: 'unsolved',
          baseline: place('/r/a/e.jsonl', 2),
          candidate: place('/r/a/e.jsonl', 2),
        },
      ],
      omitted: 0,
    },
    gate: { passed: false, failures: [{ rule: 'score-regression', message: 'm', evidence: [place('/elsewhere/m.jsonl', 1), place('C:\\r\\a\\x.jsonl', 3)] }] },
  };
  const c = comparisonOf(diff, NAMES);
  const [flip] = c.prompts.listed;
  assert.deepEqual([flip.baseline.side, flip.candidate.side, flip.baseline.place === flip.candidate.place], ['baseline', 'candidate', true]);
  assert.equal(flip.baseline.label, 'e.jsonl:2');
  assert.deepEqual(
    c.gate.failures[0].evidence.map((e) => [e.label, e.side]),
    [
      ['/elsewhere/m.jsonl:1', null],
      ['C:\\r\\a\\x.jsonl:3', null],
    ],
  );
  const windows = comparisonOf({ ...diff, candidate: { ...diff.candidate, source: 'C:\\r\\a' } }, NAMES);
  assert.deepEqual(
    windows.gate.failures[0].evidence.map((e) => [e.label, e.side]),
    [
      ['/elsewhere/m.jsonl:1', null],
      ['x.jsonl:3', 'candidate'],
    ],
  );
});

test('comparison in the page: reasons, prompt ids, dataset names, paths and messages holding markup stay in the JSON element', (t) => {
  const hostile = '</script><script>alert(1)</script><!-- <img src=x onerror=alert(2)> \u2028 & "q"';
  const { diff } = injectedDiff(t);
  diff.prompts.listed[0].id = hostile;
  diff.prompts.listed[0].to = hostile;
  diff.prompts.listed[0].candidate.file = `${diff.candidate.source}/${hostile}.jsonl`;
  diff.causes[0].reason = hostile;
  diff.gate.failures[0].message = hostile;
  if (diff.datasets[0]) diff.datasets[0].name = hostile;
  const comparison = comparisonOf(diff, { baseline: hostile, candidate: 'cand' });
  const model: RunView = {
    version: 3,
    reasons: [],
    steps: [],
    eval: [],
    samples: {},
    samplesOmitted: {},
    findings: {},
    findingRows: [],
    findingRowsOmitted: 0,
    runs: [],
    headline: null,
    logged: [],
    totals: { files: 0, samples: 0, groups: 0, kept: 0, dropped: 0, droppedTokens: 0, totalTokens: 0 },
    comparison,
  };
  const html = runViewHtml({ model, title: 'Run view', nonce: 'abcdefghijklmnopqrstuvwx', script: { src: 'vscode-resource://x/runView.js' }, styles: '' });
  assert.equal(html.match(/<script/g)?.length, 2, 'the JSON element and the page script only');
  assert.doesNotMatch(html, /<img|alert\(1\)<\/script>|<!--/);
  const data = /<script type="application\/json" id="run-view-model">([^<]*)<\/script>/.exec(html)![1];
  const back = (JSON.parse(data) as RunView).comparison!;
  assert.deepEqual(back, comparison);
  assert.equal(back.prompts.listed[0].id, hostile);
  assert.equal(back.prompts.listed[0].candidate.label, `${hostile}.jsonl:${INJECTED.line}`);
  assert.equal(back.baseline.name, hostile);
});
