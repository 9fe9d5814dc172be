// Run summaries: their JSON contract, and that merging shards' summaries gives exactly the summary
// of the whole run (a property over random splits of a run's files).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

import { parseCompareCommand } from '../../../server/src/cli/compareArgs';
import { summarizeRun } from '../../../server/src/cli/summarize';
import { summarizeFile } from '../../../server/src/core/compare/summarizeFile';
import type { RunSummary } from '../../../server/src/core/compare/summary';
import { RunAnalyzer, scanFile } from '../../../server/src/core/engine';
import { DEFAULT_SETTINGS } from '../../../server/src/core/vocabulary/settings';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { parseSummary, renderSummary } from '../../../server/src/core/compare/summaryJson';
import { MergeError, mergeSummaries } from '../../../server/src/core/compare/summarySteps';
import { passKValues, SAME_PASS_AT_K_TOLERANCE } from '../../../server/src/core/eval/passAtK';
import { SUMMARY_CONTRACT } from '../../shared/compareContract';
import { copyMilesRun } from '../../shared/compareRun';
import { EXAMPLE_ROLLOUT_SETTINGS } from '../../shared/exampleRun';
import { repoRoot } from '../../shared/repoRoot';
import { tempDir } from '../../shared/tempDir';

async function summarize(paths: string[], config: string): Promise<RunSummary> {
  const parsed = parseCompareCommand(['summarize', '--jobs', '1', '--config', config, ...paths]);
  assert.ok(parsed?.kind === 'summarize');
  const errors: string[] = [];
  const made = await summarizeRun(parsed.args.check, { stdout: () => {}, stderr: (t) => void errors.push(t) });
  assert.ok(made !== null && !made.unreadable, errors.join(''));
  return made.summary;
}

/**
 * The example run with more files in rollout step 2 and in eval step 100 (copies under other
 * names: their records name the same step), so steps of several files are split across shards.
 */
function runWithSharedSteps(dir: string): { files: string[]; config: string } {
  const run = copyMilesRun(join(dir, 'run'));
  mkdirSync(join(run, 'more'));
  // Rewards whose float sums depend on their order (0.1 + 0.7 + 0.3 ≠ 0.3 + 0.7 + 0.1).
  const rewards = readFileSync(join(run, 'rollout/rollout_2.jsonl'), 'utf8')
    .replaceAll('"reward": 0.25', '"reward": 0.1')
    .replaceAll('"reward": 1.0', '"reward": 0.7');
  writeFileSync(join(run, 'more/rollout_2.jsonl'), rewards.replaceAll('"reward": 0.0', '"reward": 0.3'));
  writeFileSync(join(run, 'more/rollout_2b.jsonl'), rewards.replaceAll('"reward": 0.0', '"reward": 0.55'));
  copyFileSync(join(run, 'eval/eval_100.jsonl'), join(run, 'more/eval_100.jsonl'));
  const files = ['rollout', 'eval', 'more'].flatMap((d) => readdirSync(join(run, d)).map((f) => join(run, d, f)));
  return { files: files.sort(), config: join(run, 'rollout-lens.yaml') };
}

test('summary: the example run, by the contract; steps, drops, eval datasets and prompts as the engine counts them', async (t) => {
  const dir = tempDir(t, 'rl-summary-');
  const run = copyMilesRun(join(dir, 'run'));
  const summary = await summarize([run], join(run, 'rollout-lens.yaml'));
  SUMMARY_CONTRACT.parse(JSON.parse(renderSummary(summary)));
  assert.equal(summary.framework, 'miles');
  assert.deepEqual(
    summary.steps.map((s) => `${s.kind} ${s.step}`),
    ['rollout 1', 'rollout 2', 'rollout 3', 'eval 100'],
  );
  const step1 = summary.steps[0];
  assert.deepEqual(step1.groups, { total: 8, kept: 2, dropped: 6 });
  assert.equal(step1.droppedByCause['group_has_aborted_SandboxUnavailable'], 1);
  // One prompt row per group; the kept ones are state 0, the rest name their drop reason.
  const file1 = step1.files[0];
  assert.equal(file1.prompts.length, 8);
  assert.equal(file1.prompts.filter((p) => p[1] === 0).length, 2);
  const reasons = file1.prompts.filter((p) => p[1] !== 0).map((p) => file1.states[p[1]]);
  assert.deepEqual(reasons.sort(), Object.keys(step1.droppedByCause).sort());
  // Eval: pass@k from the per-prompt counts is miles' own figure (the engine's recomputed metrics)
  // on this run, up to the order of a float sum (miles groups by position, the summary by prompt).
  const evalStep = summary.steps[3];
  const metrics = evalStep.files[0].metrics;
  for (const d of evalStep.datasets) {
    assert.deepEqual(
      Object.keys(d.passAtK),
      passKValues(d.n).map((k) => `pass@${k}`),
    );
    for (const [k, v] of Object.entries(d.passAtK)) {
      const logged = metrics[`eval/${d.name}-${k}`]!;
      assert.ok(v !== null && Math.abs(v - logged) <= SAME_PASS_AT_K_TOLERANCE * Math.max(1, Math.abs(logged)), `${d.name} ${k}: ${v} vs ${logged}`);
    }
  }
  assert.deepEqual(
    evalStep.datasets.map((d) => [d.name, d.n, d.samples, d.noneReward]),
    [
      ['aime', 4, 12, 0],
      ['gpqa', 2, 12, 1],
      ['swe_verified', 2, 4, 4],
    ],
  );
  // The written text reads back as the same summary.
  assert.deepEqual(parseSummary(renderSummary(summary)), summary);
});

test("summary: merging the summaries of any split of a run's files equals the summary of the whole run", async (t) => {
  const dir = tempDir(t, 'rl-summary-');
  const { files, config } = runWithSharedSteps(dir);
  const whole = renderSummary(await summarize(files, config));
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: files.length, maxLength: files.length }), async (shardOf) => {
      const shards = [0, 1, 2, 3].map((s) => files.filter((_, i) => shardOf[i] === s)).filter((s) => s.length > 0);
      const parts = await Promise.all(shards.map((s) => summarize(s, config)));
      // Through the written text, as `summarize --merge` reads them.
      const merged = mergeSummaries(parts.map((p) => parseSummary(renderSummary(p))).reverse());
      assert.equal(renderSummary(merged), whole);
    }),
    { numRuns: 12, seed: 46 },
  );
});

test('summary: a file in two summaries is refused (it would count twice)', async (t) => {
  const dir = tempDir(t, 'rl-summary-');
  const run = copyMilesRun(join(dir, 'run'));
  const s = await summarize([join(run, 'rollout/rollout_1.jsonl')], join(run, 'rollout-lens.yaml'));
  assert.throws(
    () => mergeSummaries([s, s]),
    (err) => err instanceof MergeError && /rollout_1\.jsonl is in two of the summaries/.test(err.message),
  );
  // Version 1 rows had no response tokens: read as it is, a history would count none.
  assert.throws(() => parseSummary('{"version": 1, "steps": []}'), /summary version 1; this build reads version 3/);
  assert.throws(() => parseSummary('{"version": 3, "framework": "miles", "steps": [{}]}'), /not a run summary: steps\.0\.kind/);
});

test('summary: a file held as records (an open document) gives the rows and figures of its store', async () => {
  const settings = { ...DEFAULT_SETTINGS, ...EXAMPLE_ROLLOUT_SETTINGS };
  const files = [...[1, 2, 3].map((n) => `examples/run/rollout/rollout_${n}.jsonl`), 'examples/run/verl/rollout/12.jsonl', 'examples/run/eval/eval_100.jsonl'];
  for (const rel of files) {
    const target = { path: join(repoRoot(), rel), displayPath: rel };
    const made = await Promise.all(
      (['store', true] as const).map(async (keepDetail) => {
        const options = { access: nodeFileAccess, settings, keepDetail };
        const scan = await scanFile(target, options);
        const report = await new RunAnalyzer(options).add(scan);
        assert.equal(report.detail?.store !== undefined, keepDetail === 'store');
        // Rows as arrays on both sides (the store's are held in a table).
        return JSON.parse(JSON.stringify(summarizeFile(report, null))) as unknown;
      }),
    );
    assert.deepEqual(made[1], made[0], rel);
    const rows = (made[0] as { file: { prompts: unknown[][] } }).file.prompts;
    if (!rel.includes('eval')) assert.ok(rows.length > 0 && rows.every((r) => r.length === 7 && typeof r[6] === 'number'), rel);
  }
});
