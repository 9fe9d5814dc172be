// verl files written by verl's own writer code (scripts/gen-real-fixtures.py) and the metrics verl's
// own functions computed on the same data (the *.expected.json beside each file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import type { RunReport } from '../../../server/src/core/vocabulary/types';

const REAL = join(__dirname, '../../../../test/fixtures/real/verl');

interface Expected {
  metrics?: Record<string, number>;
  padding_keys?: string[];
  compute_data_metrics_not_recomputable?: string[];
  combined_metrics?: Record<string, number>;
  run_time_metrics_per_data_source?: Record<string, number>;
  run_time_metrics?: Record<string, number>;
  row_uids_in_file_order?: string[];
}

function expected(rel: string): Expected {
  return JSON.parse(readFileSync(join(REAL, rel), 'utf8')) as Expected;
}

async function run(rel: string, over: Partial<RolloutLensSettings> = {}): Promise<RunReport> {
  return analyzeFiles([{ path: join(REAL, rel), displayPath: rel }], {
    access: nodeFileAccess,
    settings: { ...DEFAULT_SETTINGS, ...over },
    evalConfig: null,
    keepDetail: true,
  });
}

function close(actual: number | undefined, want: number, tol: number, name: string): void {
  assert.ok(actual !== undefined, `${name} not recomputed`);
  assert.ok(Math.abs(actual - want) <= tol * Math.max(1, Math.abs(want)), `${name}: ${actual} vs verl ${want}`);
}

test('verl legacy rollout after _balance_batch: scattered rows group by input, no false misgrouped', async () => {
  const uids = expected('rollout/12.expected.json').row_uids_in_file_order!;
  // The writer really scattered them: some prompt's rows are not adjacent.
  assert.ok(uids.some((u, i) => uids.indexOf(u) < i - 1 && uids[i - 1] !== u));
  const r = await run('rollout/12.jsonl', { nSamplesPerPrompt: 4 });
  const groups = r.files[0].detail!.groups;
  assert.equal(groups.length, 4);
  // Every group holds exactly the rows of one uid, wherever they are.
  for (const g of groups) assert.equal(new Set(g.lines.map((l) => uids[l - 1])).size, 1, g.key);
  assert.deepEqual(
    groups.map((g) => g.lines.length),
    [4, 4, 4, 4],
  );
  assert.deepEqual(
    r.findings.filter((f) => f.code === 'misgrouped' || f.code === 'incomplete-group'),
    [],
  );
});

test('verl DAPO rollout: critic/score/* from score + overlong_reward, said in a finding; matches verl once the end-token row is counted', async () => {
  const want = expected('rollout/12.expected.json').metrics!;
  const r = await run('rollout/12.jsonl');
  const m = r.files[0].metrics;
  const rows = readFileSync(join(REAL, 'rollout/12.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { output: string; score: number; overlong_reward: number });
  const empty = rows.filter((x) => x.output === '');
  assert.equal(empty.length, 3, 'two aborted rows and one end-token-only row dump as ""');
  // verl masked two rows (response_length 0); the dump shows three empty outputs.
  assert.equal(want['response/aborted_ratio'], 2 / 16);
  assert.equal(m['response/aborted_ratio'], 3 / 16);
  // The engine averages 13 rows; verl averaged those plus the end-token-only row (score -1.0,
  // overlong 0): the sums agree, so the column used is verl's score + overlong_reward.
  close(m['critic/score/mean'] * 13 + -1, want['critic/score/mean'] * 14, 1e-6, 'critic/score/mean');
  close(m['critic/score/min'], want['critic/score/min'], 1e-6, 'critic/score/min');
  close(m['critic/score/max'], want['critic/score/max'], 1e-6, 'critic/score/max');
  // From the raw score column alone the mean would differ: the source matters.
  const raw = rows.filter((x) => x.output !== '').reduce((a, x) => a + x.score, 0) / 13;
  assert.notEqual(raw, m['critic/score/mean']);
  const src = r.findings.filter((f) => f.code === 'verl-score-source');
  assert.equal(src.length, 1);
  assert.match(src[0].message, /^critic\/score\/\* recomputed from score \+ overlong_reward/);
  const den = r.findings.find((f) => f.code === 'denominator-inflation')!;
  assertLoggedInRanges(den.message, want);
});

test('verl legacy validation without data_source: combined figure under (all data sources) equals verl over all prompts; finding says why', async () => {
  const want = expected('validation/20.expected.json');
  const r = await run('validation/20.jsonl');
  const m = r.files[0].metrics;
  for (const [name, v] of Object.entries(want.combined_metrics!)) {
    if (name.includes('/score/')) continue; // DAPO's score column is not a validation variable here (docs/framework-files.md)
    close(m[name], v, 1e-12, name);
  }
  // Per-source run-time figures are not invented.
  for (const name of Object.keys(want.run_time_metrics_per_data_source!)) assert.equal(m[name], undefined, name);
  const f = r.findings.filter((x) => x.code === 'verl-no-data-source');
  assert.equal(f.length, 1);
  assert.equal(f[0].line, 1);
  assert.match(f[0].message, /per-source figures cannot be recomputed/);
  assert.match(f[0].message, /return data_source in the reward function's extra info/);
  assert.deepEqual(
    r.findings.filter((x) => x.code === 'misgrouped'),
    [],
  );
});

test('verl v1 sessions (dumped by verl 1dda039 v1 _validate): a session with several outputs counts once (its last); only the prompt that lost a session is incomplete', async () => {
  const exp = expected('validation-v1/30.expected.json');
  const want = exp.combined_metrics!;
  const rows = readFileSync(join(REAL, 'validation-v1/30.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { uid: string; output: string; score: number });
  // What verl's writer really wrote: uid = <uuid4>_<session>_<output>, sorted by prompt, session,
  // output; every output row carries its session's final score (pa session 1: "q" then "x").
  assert.ok(rows.every((x) => /^[0-9a-f-]{36}_\d+_\d+$/.test(x.uid)));
  assert.deepEqual(
    rows.slice(1, 3).map((x) => [x.uid.slice(37), x.output, x.score]),
    [
      ['1_0', 'q', 1],
      ['1_1', 'x', 1],
    ],
  );
  const r = await run('validation-v1/30.jsonl');
  const m = r.files[0].metrics;
  for (const [name, v] of Object.entries(want)) close(m[name], v, 1e-12, name);
  // verl's run-time mean@/std@ (one data source, gsm8k) are the same figures under the combined name.
  for (const [name, v] of Object.entries(exp.run_time_metrics!)) {
    if (!/\/(mean|std)@\d+$/.test(name)) continue;
    close(m[name.replace('/gsm8k/', '/(all data sources)/')], v, 1e-12, name);
    assert.equal(m[name], undefined, name);
  }
  // val-core over the complete prompts only; the one that lost a session is under mean@3.
  assert.equal(m['val-core/(all data sources)/acc/mean@4'], want['val-core/(all data sources)/acc/mean@4']);
  assert.equal(m['val-aux/(all data sources)/acc/mean@3'], want['val-aux/(all data sources)/acc/mean@3']);
  const den = r.findings.filter((f) => f.code === 'denominator-inflation');
  assert.equal(den.length, 1);
  // At pc's first row (line 12), the one prompt with 3 sessions; pa and pb wrote 5 and 6 rows, pd
  // kept its 4 sessions though one output is empty.
  assert.equal(den[0].line, 12);
  assert.match(den[0].message, /averages only the 3 of 4 prompts that kept all 4 samples; 1 prompt that lost samples goes to val-aux \(mean@3\)/);
});

test('verl v1 rollout (dumped by verl 1dda039 _log_rollout_data): rows sorted by uid, own scores; groups count sessions', async () => {
  const r = await run('rollout-v1/40.jsonl', { nSamplesPerPrompt: 4 });
  const groups = r.files[0].detail!.groups;
  // Two prompts, each with 4 sessions over 5 rows (one session wrote two outputs): complete groups.
  assert.deepEqual(
    groups.map((g) => g.lines.length),
    [5, 5],
  );
  assert.deepEqual(
    r.findings.filter((f) => f.code === 'misgrouped' || f.code === 'incomplete-group'),
    [],
  );
  // Unlike the validation dump, a rollout row carries its own output's score: pa session 1 wrote
  // "q" (-1) then "x" (1).
  const rows = readFileSync(join(REAL, 'rollout-v1/40.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { output: string; score: number });
  assert.deepEqual(
    rows.slice(1, 3).map((x) => [x.output, x.score]),
    [
      ['q', -1],
      ['x', 1],
    ],
  );
});

test('verl v1 rollout: verl pads the batch (uid pad<hex>_<i>_0); the padding rows are dumped but are not samples', async () => {
  const exp = expected('rollout-v1/40.expected.json');
  assert.equal(exp.padding_keys!.length, 2);
  const rows = readFileSync(join(REAL, 'rollout-v1/40.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { uid: string; input: string; output: string });
  assert.deepEqual(
    rows.filter((x) => x.uid.startsWith('pad')).map((x) => [x.uid, x.input, x.output]),
    exp.padding_keys!.map((k) => [k, '', '']),
  );
  const r = await run('rollout-v1/40.jsonl', { nSamplesPerPrompt: 4 });
  assert.deepEqual(
    r.files[0].detail!.groups.map((g) => g.lines.length),
    [5, 5],
  );
  assert.deepEqual(
    r.findings.filter((f) => f.code === 'verl-padding-rows').map((f) => f.line),
    [11],
  );
  assert.deepEqual(
    r.findings.filter((f) => f.code === 'misgrouped' || f.code === 'incomplete-group'),
    [],
  );
});

test('verl v1 rollout: critic/score/* and response/aborted_ratio as the v1 _compute_metrics logged them (every output row, no padding)', async () => {
  const exp = expected('rollout-v1/41.expected.json');
  const r = await run('rollout-v1/41.jsonl', { nSamplesPerPrompt: 4 });
  const m = r.files[0].metrics;
  assert.deepEqual(Object.keys(exp.metrics!).sort(), ['critic/score/max', 'critic/score/mean', 'critic/score/min', 'response/aborted_ratio']);
  // verl averages in float32 (docs/semantics.md#logged-vs-recomputed); the engine's exact figures: 4/14 and 1/15.
  for (const [name, v] of Object.entries(exp.metrics!)) close(m[name], v, 1e-6, name);
  assert.equal(m['critic/score/mean'], 4 / 14);
  assert.equal(m['response/aborted_ratio'], 1 / 15);
});

test("verl v1 rollout with an end-token-only output: the dump shows it as empty; the finding's ranges hold what verl logged", async () => {
  const exp = expected('rollout-v1/40.expected.json');
  const r = await run('rollout-v1/40.jsonl', { nSamplesPerPrompt: 4 });
  const m = r.files[0].metrics;
  // verl: 1 of 10 rows aborted (the end-token-only one has length 1); the dump shows 2 empty outputs.
  close(exp.metrics!['response/aborted_ratio'], 0.1, 1e-6, 'verl');
  assert.equal(m['response/aborted_ratio'], 0.2);
  assert.ok(m['response/aborted_ratio'] >= exp.metrics!['response/aborted_ratio']);
  for (const name of ['critic/score/max', 'critic/score/min']) close(m[name], exp.metrics![name], 1e-6, name);
  const den = r.findings.find((f) => f.code === 'denominator-inflation')!;
  assertLoggedInRanges(den.message, exp.metrics!);
});

/**
 * The ranges the denominator finding states (`<name> between <least> and <most>`) hold each figure
 * verl logged (float32: within 1e-6 of an end), and name all four it recomputes.
 */
function assertLoggedInRanges(message: string, logged: Record<string, number>): void {
  const ranges = new Map([...message.matchAll(/(\S+) between (\S+) and ([^,\s]+)/g)].map((m) => [m[1], [Number(m[2]), Number(m[3])]]));
  assert.deepEqual([...ranges.keys()], ['critic/score/mean', 'critic/score/max', 'critic/score/min', 'response/aborted_ratio'], message);
  for (const [name, [least, most]] of ranges) {
    const v = logged[name];
    assert.ok(
      v >= least - 1e-6 * Math.max(1, Math.abs(least)) && v <= most + 1e-6 * Math.max(1, Math.abs(most)),
      `${name}: verl ${v}, stated ${least} to ${most}`,
    );
  }
}

test('verl rollout dumps: the compute_data_metrics names the dump cannot give are named in verl-not-recomputed', async () => {
  const names = expected('rollout-v1/41.expected.json').compute_data_metrics_not_recomputable!;
  assert.ok(names.length >= 20);
  for (const rel of ['rollout-v1/41.jsonl', 'rollout/12.jsonl']) {
    const f = (await run(rel)).findings.filter((x) => x.code === 'verl-not-recomputed');
    assert.equal(f.length, 1, rel);
    assert.equal(f[0].line, 1);
    // Each name's family, as the message lists it (critic/rewards/*, response_length/*, ...).
    for (const name of names) assert.ok(f[0].message.includes(`${name.slice(0, name.lastIndexOf('/'))}/*`), `${rel}: ${name}`);
  }
});
