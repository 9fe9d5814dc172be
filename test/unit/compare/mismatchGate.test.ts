// The `mismatch-increase` gate rule (docs/compare.md#gate) on two runs written by miles' own dump
// functions (scripts/mismatch_fixtures.py gate_pair): the candidate's samples with mixed weight
// versions drift from step 2 on. Summaries carry each step's mismatch, so the gate works on them
// as on the folders, and merging shards' summaries stays exact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

import { parseCompareCommand } from '../../../server/src/cli/compareArgs';
import { summarizeRun } from '../../../server/src/cli/summarize';
import type { RunSummary } from '../../../server/src/core/compare/summary';
import { parseSummary, renderSummary } from '../../../server/src/core/compare/summaryJson';
import { MergeError, mergeSummaries } from '../../../server/src/core/compare/summarySteps';
import { DIFF_CONTRACT, SUMMARY_CONTRACT } from '../../shared/compareContract';
import { runCli, tempDir } from '../cli/run';

const FIXTURES = join(__dirname, '../../../../test/fixtures/real/miles');
const PAIR = join(FIXTURES, 'mismatch-gate');

interface Figures {
  mean: number;
  p99: number;
  tokens: number;
  worstSample: number;
}
const EXPECTED = JSON.parse(readFileSync(join(PAIR, 'expected.json'), 'utf8')) as {
  drift_from: number;
  mismatch: Record<'baseline' | 'candidate', Record<string, Figures>>;
};

function relative(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
}

async function summarize(paths: string[]): Promise<RunSummary> {
  const parsed = parseCompareCommand(['summarize', '--jobs', '1', ...paths]);
  assert.ok(parsed?.kind === 'summarize');
  const errors: string[] = [];
  const made = await summarizeRun(parsed.args.check, { stdout: () => {}, stderr: (t) => void errors.push(t) });
  assert.ok(made !== null && !made.unreadable, errors.join(''));
  return made.summary;
}

function copyPair(t: Parameters<typeof tempDir>[0]): string {
  const dir = tempDir(t);
  cpSync(join(PAIR, 'baseline'), join(dir, 'base'), { recursive: true });
  cpSync(join(PAIR, 'candidate'), join(dir, 'cand'), { recursive: true });
  return dir;
}

function filesOf(run: string): string[] {
  return ['rollout_data', 'train_data'].flatMap((d) => readdirSync(join(run, d)).map((f) => join(run, d, f))).sort();
}

test("summary: each step's mismatch (mean, p99 over the loss mask) is numpy's from torch.load of its train_data", async () => {
  for (const side of ['baseline', 'candidate'] as const) {
    const summary = await summarize([join(PAIR, side)]);
    SUMMARY_CONTRACT.parse(JSON.parse(renderSummary(summary)));
    const want = EXPECTED.mismatch[side];
    assert.deepEqual(
      summary.steps.map((s) => s.step),
      Object.keys(want).map(Number),
    );
    for (const s of summary.steps) {
      const e = want[String(s.step)];
      const m = s.mismatch!;
      assert.deepEqual([m.tokens, m.p99, m.ranks, m.worstSample], [e.tokens, e.p99, 1, e.worstSample], `${side} step ${s.step}`);
      assert.ok(relative(m.mean, e.mean) <= 1e-12, `${side} step ${s.step}: ${m.mean} vs ${e.mean}`);
      assert.equal(m.file, join(PAIR, side, 'train_data', `${s.step}_0.pt`));
    }
  }
});

test('diff --gate: the candidate whose mismatch rose at step 2 fails, naming the rule, the step and its train_data; from summaries too', (t) => {
  const dir = copyPair(t);
  const step = EXPECTED.drift_from;
  const b = EXPECTED.mismatch.baseline[String(step)];
  const c = EXPECTED.mismatch.candidate[String(step)];
  const failures = (args: string[]) => {
    const r = runCli(['diff', '--format', 'json', '--gate', ...args], dir);
    assert.equal(r.stderr, '');
    return { status: r.status, gate: DIFF_CONTRACT.parse(JSON.parse(r.stdout)).gate };
  };
  const folders = failures(['base', 'cand']);
  assert.equal(folders.status, 1);
  assert.equal(folders.gate.failures.length, 1, JSON.stringify(folders.gate));
  const [f] = folders.gate.failures;
  assert.equal(f.rule, 'mismatch-increase');
  assert.deepEqual(f.evidence, [{ file: `cand/train_data/${step}_0.pt`, line: 1 }]);
  const sig = (x: number) => String(Number(x.toPrecision(4)));
  assert.equal(
    f.message,
    `rollout step ${step} (baseline step ${step}): |Δ log-prob| mean ${sig(b.mean)} → ${sig(c.mean)} (×${sig(c.mean / b.mean)}), ` +
      `p99 ${sig(b.p99)} → ${sig(c.p99)} (×${sig(c.p99 / b.p99)}), up by more than 50%; worst sample ${c.worstSample}`,
  );

  // The same from summaries written by `summarize`.
  for (const side of ['base', 'cand']) assert.equal(runCli(['summarize', side, '--out', `${side}.json`], dir).status, 0);
  assert.deepEqual(failures(['base.json', 'cand.json']), folders);
  const text = runCli(['diff', '--gate', 'base.json', 'cand.json'], dir);
  assert.equal(text.status, 1);
  assert.ok(text.stdout.includes(`[mismatch-increase] rollout step ${step} `), text.stdout);
  assert.ok(text.stdout.includes(`\n    cand/train_data/${step}_0.pt:1\n`), text.stdout);

  // Identical runs pass, from folders and from summaries.
  assert.deepEqual(failures(['base', 'base']), { status: 0, gate: { passed: true, failures: [] } });
  assert.deepEqual(failures(['cand.json', 'cand']), { status: 0, gate: { passed: true, failures: [] } });
  // The rise runs the other way: no failure.
  assert.equal(failures(['cand', 'base']).status, 0);
});

test('diff --gate: mismatchIncrease from gate: is a fraction of the baseline per figure; false turns it off', (t) => {
  const dir = copyPair(t);
  const b = EXPECTED.mismatch.baseline[String(EXPECTED.drift_from)];
  const c = EXPECTED.mismatch.candidate[String(EXPECTED.drift_from)];
  const meanRise = c.mean / b.mean - 1;
  const p99Rise = c.p99 / b.p99 - 1;
  assert.ok(meanRise < p99Rise, 'the fixture raises the p99 more than the mean');
  const gate = (section: string) => {
    writeFileSync(join(dir, 'cand', 'rollout-lens.yaml'), `gate:\n${section}`);
    const r = runCli(['diff', '--format', 'json', '--gate', 'base', 'cand'], dir);
    assert.notEqual(r.status, 2, r.stderr);
    return DIFF_CONTRACT.parse(JSON.parse(r.stdout)).gate;
  };
  // Between the two rises: only the p99 fails.
  const between = gate(`  mismatchIncrease: ${(meanRise + p99Rise) / 2}\n`);
  assert.equal(between.failures.length, 1);
  assert.match(between.failures[0].message, /\|Δ log-prob\| p99 [^,]*, up by more than/);
  assert.doesNotMatch(between.failures[0].message, /mean/);
  assert.deepEqual(gate(`  mismatchIncrease: ${p99Rise * 1.01}\n`), { passed: true, failures: [] });
  assert.deepEqual(gate('  mismatchIncrease: false\n'), { passed: true, failures: [] });
  assert.equal(gate('  mismatchIncrease: 0\n').failures[0].rule, 'mismatch-increase');
  writeFileSync(join(dir, 'cand', 'rollout-lens.yaml'), 'gate:\n  mismatchIncrease: -1\n');
  const bad = runCli(['diff', '--gate', 'base', 'cand'], dir);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /mismatchIncrease/);
});

test("summary: merging any split of a train_data run's files equals the summary of the whole run", async (t) => {
  const dir = copyPair(t);
  const files = filesOf(join(dir, 'cand'));
  const whole = renderSummary(await summarize(files));
  assert.equal((whole.match(/"mismatch":/g) ?? []).length, 3);
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 2 }), { minLength: files.length, maxLength: files.length }), async (shardOf) => {
      const shards = [0, 1, 2].map((s) => files.filter((_, i) => shardOf[i] === s)).filter((s) => s.length > 0);
      const parts = await Promise.all(shards.map((s) => summarize(s)));
      const merged = mergeSummaries(parts.map((p) => parseSummary(renderSummary(p))).reverse());
      assert.equal(renderSummary(merged), whole);
    }),
    { numRuns: 8, seed: 47 },
  );
});

test("summary: a step's train_data ranks split across summaries are refused (a p99 of parts is not the whole's)", async () => {
  const run = join(FIXTURES, 'mismatch');
  const ranks = (n: number) => [join(run, 'train_data', `3_${n}.pt`)];
  const a = await summarize(ranks(0));
  const b = await summarize(ranks(1));
  assert.ok(a.steps[0].mismatch && b.steps[0].mismatch);
  assert.throws(
    () => mergeSummaries([a, b]),
    (err) => err instanceof MergeError && /step 3's train_data mismatch is in two of the summaries/.test(err.message),
  );
});

test('summary: version 2 is refused; a step without files needs its train_data mismatch', () => {
  assert.throws(() => parseSummary('{"version": 2, "steps": []}'), /summary version 2; this build reads version 3/);
  const step = {
    kind: 'rollout',
    step: 4,
    partial: false,
    samples: 0,
    groups: { total: 0, kept: 0, dropped: 0 },
    droppedByCause: {},
    responseTokens: 0,
    droppedTokens: 0,
    reward: { count: 0, sum: 0, sumSq: 0, none: 0 },
    truncated: 0,
    withStatus: 0,
    datasets: [],
    files: [],
  };
  const doc = (s: object) => JSON.stringify({ version: 3, framework: 'miles', steps: [s] });
  assert.throws(() => parseSummary(doc(step)), /not a run summary: steps\.0\.files: a step without files/);
  const mismatch = { tokens: 3, mean: 0.1, p99: 0.2, ranks: 1, file: 'train_data/4_0.pt', worstSample: 7 };
  assert.equal(parseSummary(doc({ ...step, mismatch })).steps[0].mismatch?.worstSample, 7);
  assert.throws(() => parseSummary(doc({ ...step, mismatch: { ...mismatch, mean: -1 } })), /steps\.0\.mismatch\.mean/);
});
