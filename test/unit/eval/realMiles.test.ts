// miles files written by miles' own writer code (scripts/gen-real-fixtures.py) and the metrics
// miles' own functions logged for the same samples (the *.expected.json beside each file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { exportPtLines } from '../../../server/src/core/reader/pt/exportLines';
import type { RunReport } from '../../../server/src/core/vocabulary/types';

const REAL = join(__dirname, '../../../../test/fixtures/real/miles');

function expected(rel: string): { metrics?: Record<string, number>; crash?: string | null } {
  return JSON.parse(readFileSync(join(REAL, rel), 'utf8')) as { metrics?: Record<string, number>; crash?: string | null };
}

async function run(paths: string[], root: string, over: Partial<RolloutLensSettings> = {}): Promise<RunReport> {
  return analyzeFiles(
    paths.map((p) => ({ path: join(root, p), displayPath: p })),
    { access: nodeFileAccess, settings: { ...DEFAULT_SETTINGS, ...over }, evalConfig: null, keepDetail: true },
  );
}

/** miles computes in float64 like the engine: the same double, or within one rounding of a mean. */
function same(actual: number | undefined, want: number, name: string): void {
  assert.ok(actual !== undefined, `${name} not recomputed`);
  assert.ok(actual === want || Math.abs(actual - want) <= 1e-15 * Math.abs(want), `${name}: engine ${actual}, miles ${want}`);
}

test('miles eval without a config: index restarts split the file into dataset 1 and dataset 2, each with its own inferred n', async () => {
  const r = await run(['eval/eval_100.jsonl'], REAL);
  const ds = r.files[0].detail!.datasets;
  assert.deepEqual(
    ds.map((d) => [d.name, d.samples, d.n, d.nSource]),
    [
      ['dataset 1', 6, 2, 'inferred'],
      ['dataset 2', 6, 3, 'inferred'],
    ],
  );
});

test('miles eval: every metric log_eval_rollout_data logged is recomputed under the same name and value', async () => {
  const want = expected('eval/eval_100.expected.json').metrics!;
  const r = await run(['eval/eval_100.jsonl'], REAL);
  const m = r.files[0].metrics;
  assert.ok(Object.keys(want).length >= 40);
  for (const [name, v] of Object.entries(want)) same(m[name], v, name);
});

test('miles eval where every attempt aborted: miles main raises the TypeError the finding names', async () => {
  const crash = expected('eval/eval_101.expected.json').crash!;
  assert.equal(crash, "TypeError: type NoneType doesn't define __round__ method");
  const r = await run(['eval/eval_101.jsonl'], REAL);
  const f = r.findings.filter((x) => x.code === 'eval-all-aborted');
  assert.equal(f.length, 1);
  assert.ok(f[0].message.includes(crash), f[0].message);
});

test('miles rollout: the sample metrics log_rollout_data logged, and the zero-std drops check_reward_nonzero_std made', async () => {
  const want = expected('rollout/rollout_1.expected.json').metrics!;
  const r = await run(['rollout/rollout_1.jsonl'], REAL, { dynamicFilter: 'check_reward_nonzero_std' });
  const m = r.files[0].metrics;
  for (const [name, v] of Object.entries(want)) {
    if (name === 'rollout/step') continue;
    // miles main names the aborted drop plainly; the engine names its cause (docs/semantics.md#aborted-group-filter).
    if (name === 'rollout/dynamic_filter/drop_group_has_aborted') {
      assert.equal(m['rollout/dynamic_filter/drop_group_has_aborted_unknown'], v);
      continue;
    }
    same(m[name], v, name);
  }
  // Python semantics the fixture pins: an int reward 1 counts under count_1, outside all_one_percentage.
  assert.equal(m['rollout/zero_std/count_1'], 1);
  assert.equal(m['rollout/zero_std/all_one_percentage'], 1 / 6);
});

test('miles logged values: each recomputed metric is compared; a differing one is a metric-mismatch', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-real-miles-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'eval'));
  mkdirSync(join(dir, 'rollout'));
  copyFileSync(join(REAL, 'eval/eval_100.jsonl'), join(dir, 'eval/eval_100.jsonl'));
  copyFileSync(join(REAL, 'rollout/rollout_1.jsonl'), join(dir, 'rollout/rollout_1.jsonl'));
  const evalLogged = { ...expected('eval/eval_100.expected.json').metrics!, 'eval/dataset 2/response_len/median': 4.0 };
  const rolloutLogged = { ...expected('rollout/rollout_1.expected.json').metrics!, 'rollout/zero_std/all_zero_percentage': 0.5 };
  writeFileSync(
    join(dir, 'metrics.jsonl'),
    [
      JSON.stringify({ ts: 1, step_key: 'eval/step', step: 100, metrics: evalLogged }),
      JSON.stringify({ ts: 2, step_key: 'rollout/step', step: 1, metrics: rolloutLogged }),
    ].join('\n') + '\n',
  );
  const r = await run(['eval/eval_100.jsonl', 'rollout/rollout_1.jsonl', 'metrics.jsonl'], dir, { dynamicFilter: 'check_reward_nonzero_std' });
  const mm = r.findings.filter((f) => f.code === 'metric-mismatch');
  assert.deepEqual(
    mm.map((f) => [f.line, f.dataset, f.message]),
    [
      [1, 'dataset 2', 'eval/dataset 2/response_len/median at step 100: logged 4.0, recomputed 3.5 from eval/eval_100.jsonl'],
      [2, null, 'rollout/zero_std/all_zero_percentage at step 1: logged 0.5, recomputed 0.3333333333333333 from rollout/rollout_1.jsonl'],
    ],
  );
});

test('miles rollout edge cases: NaN never zero-std, inf and int 1 keys, one-sample group, odd median, "3" vs 3 versions, None loss_mask', async () => {
  const want = expected('rollout/rollout_2.expected.json').metrics!;
  const r = await run(['rollout/rollout_2.jsonl'], REAL);
  const m = r.files[0].metrics;
  const mine = Object.fromEntries(Object.entries(m).filter(([k]) => !k.startsWith('rollout/dynamic_filter/')));
  // Exactly the names miles logged (no zero_std/count_nan: NaN == NaN is False in Python).
  assert.deepEqual(Object.keys(mine).sort(), Object.keys(want).sort());
  for (const [name, v] of Object.entries(want)) same(m[name], v, name);
});

test('miles rollout with a response over 10 000 characters: repetition_frac as miles computed it (zlib on the tail)', async () => {
  const want = expected('rollout/rollout_4.expected.json').metrics!;
  assert.ok(want['rollout/repetition_frac'] > 0, 'miles found the repetition');
  const r = await run(['rollout/rollout_4.jsonl'], REAL);
  const m = r.files[0].metrics;
  for (const [name, v] of Object.entries(want)) same(m[name], v, name);
});

test('miles repetition_frac over long responses: repetitive or not, CJK and emoji, at the length cut and 0.02 either side of the ratio 10 (JSONL and .pt)', async () => {
  const exp = JSON.parse(readFileSync(join(REAL, 'rollout/rollout_5.expected.json'), 'utf8')) as {
    metrics: Record<string, number>;
    responses_length_and_tail_ratio: Record<string, [number, number]>;
  };
  // What the fixture holds, as miles' compression_ratio measured it.
  const ratios = exp.responses_length_and_tail_ratio;
  assert.ok(ratios['just above 10'][1] > 10 && ratios['just above 10'][1] < 10.05);
  assert.ok(ratios['just below 10'][1] < 10 && ratios['just below 10'][1] > 9.95);
  assert.deepEqual(ratios['exactly 10 000 repetitive'][0], 10000);
  // 5 of 11: ascii, cjk and emoji repetitive, 10 001 characters, just above 10.
  assert.equal(exp.metrics['rollout/repetition_frac'], 5 / 11);
  const r = await run(['rollout/rollout_5.jsonl', 'rollout_data/5.pt'], REAL);
  assert.deepEqual(
    r.files.map((f) => f.format),
    ['miles-sample', 'miles-pt'],
  );
  for (const f of r.files) for (const [name, v] of Object.entries(exp.metrics)) same(f.metrics[name], v, `${f.path} ${name}`);
});

test('miles has_repetition on a lone surrogate in the tail: miles raises UnicodeEncodeError; metrics-crash says so', async () => {
  const crash = expected('rollout/rollout_6.expected.json').crash!;
  assert.ok(crash.startsWith('UnicodeEncodeError: '), crash);
  const r = await run(['rollout/rollout_6.jsonl'], REAL);
  const f = r.findings.filter((x) => x.code === 'metrics-crash');
  assert.equal(f.length, 1);
  assert.equal(f[0].line, 1);
  assert.ok(f[0].message.includes(crash), f[0].message);
  // Nothing is logged for the step: no repetition_frac to show.
  assert.equal(r.files[0].metrics['rollout/repetition_frac'], undefined);
});

test('miles .pt dump with lone surrogates in a long response: read back as torch.load gives them, so the same metrics-crash', async () => {
  // Pickle writes a str as UTF-8 with 'surrogatepass' (ED A0..BF xx for a lone surrogate).
  const crash = expected('rollout/rollout_6.expected.json').crash!;
  const r = await run(['rollout_data/6.pt', 'rollout/rollout_6.jsonl'], REAL);
  assert.deepEqual(
    r.files.map((f) => f.format),
    ['miles-pt', 'miles-sample'],
  );
  const f = r.findings.filter((x) => x.code === 'metrics-crash');
  assert.deepEqual(
    f.map((x) => [x.file, x.line]),
    [
      ['rollout_data/6.pt', 1],
      ['rollout/rollout_6.jsonl', 1],
    ],
  );
  for (const x of f) assert.ok(x.message.includes(crash), x.message);
  assert.equal(r.files[0].metrics['rollout/repetition_frac'], undefined);
  // The export (the editor's view) writes them as JSON escapes, as Python's json.dumps does.
  const lines: string[] = [];
  await exportPtLines(nodeFileAccess, join(REAL, 'rollout_data/6.pt'), (line) => lines.push(line));
  const jsonl = readFileSync(join(REAL, 'rollout/rollout_6.jsonl'), 'utf8').trimEnd().split('\n');
  assert.deepEqual(
    lines.map((l) => JSON.parse(l).response),
    jsonl.map((l) => JSON.parse(l).response),
  );
  assert.ok(lines[0].includes('\\udfff\\ud800'), 'escaped, not replaced');
});

test('miles eval dataset with a lone surrogate in a long response: metrics-crash names eval/<ds>/repetition_frac', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-real-miles-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(join(REAL, 'rollout/rollout_6.jsonl'), join(dir, 'eval_6.jsonl'));
  const crash = expected('rollout/rollout_6.expected.json').crash!;
  const r = await run(['eval_6.jsonl'], dir);
  assert.equal(r.files[0].kind, 'eval');
  const f = r.findings.filter((x) => x.code === 'metrics-crash');
  assert.equal(f.length, 1);
  assert.ok(f[0].message.includes(`eval/${f[0].dataset}/repetition_frac`), f[0].message);
  assert.ok(f[0].message.includes(crash), f[0].message);
});

test('miles rollout group whose rewards are all None (not aborted): miles main raises; metrics-crash says so', async () => {
  const crash = expected('rollout/rollout_3.expected.json').crash!;
  const r = await run(['rollout/rollout_3.jsonl'], REAL);
  const f = r.findings.filter((x) => x.code === 'metrics-crash');
  assert.equal(f.length, 1);
  assert.equal(f[0].line, 1);
  assert.ok(f[0].message.includes(crash), f[0].message);
  // The fixed behaviour: that group is not zero-std.
  assert.equal(r.files[0].metrics['rollout/zero_std/all_zero_percentage'], 0);
  assert.equal(
    Object.keys(r.files[0].metrics).some((k) => k.startsWith('rollout/zero_std/count_')),
    false,
  );
});

test('the .pt dumps save_debug_rollout_data wrote give the same metrics as miles logged', async () => {
  const evalWant = expected('eval/eval_100.expected.json').metrics!;
  const rolloutWant = expected('rollout/rollout_1.expected.json').metrics!;
  const r = await run(['rollout_data/eval_100.pt', 'rollout_data/1.pt'], REAL);
  assert.deepEqual(
    r.files.map((f) => [f.format, f.kind]),
    [
      ['miles-pt', 'eval'],
      ['miles-pt', 'rollout'],
    ],
  );
  for (const [name, v] of Object.entries(evalWant)) same(r.files[0].metrics[name], v, name);
  for (const [name, v] of Object.entries(rolloutWant)) if (!name.includes('dynamic_filter') && name !== 'rollout/step') same(r.files[1].metrics[name], v, name);
});
