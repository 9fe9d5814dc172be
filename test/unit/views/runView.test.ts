// The run view model against the example run and small hand-built runs: per-step drops
// by cause equal the drop metrics `check` reports, eval rows carry pass@k by the dataset's own n and
// the wrong global-n values, listed samples are capped, and the model stays small for long runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import type { FileReport, RunReport, SampleRecord } from '../../../server/src/core/vocabulary/types';
import { readSampleLine } from '../../../server/src/core/scan/sampleLine';
import { buildRunView } from '../../../server/src/core/views/runView';
import { attachExcerpts, excerptsOf, EXCERPT_CHARS, EXCERPT_MAX_LINE_BYTES } from '../../../server/src/core/views/runViewExcerpts';
import { walkPaths } from '../../../server/src/core/locate/walk';
import { planRun, type RunPlan } from '../../../server/src/core/run/plan';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { aborted, group, rolloutFileReport, sample } from '../rollout/helpers';
import { dropMetrics } from '../../shared/dropMetrics';
import { repoRoot } from '../../shared/repoRoot';

const RUN = join(repoRoot(), 'examples/run');

async function exampleReport(keepDetail: true | 'store' = true): Promise<{ report: RunReport; settings: RolloutLensSettings; plan: RunPlan }> {
  const yaml = parse(readFileSync(join(RUN, 'rollout-lens.yaml'), 'utf8')) as Partial<RolloutLensSettings>;
  const settings: RolloutLensSettings = { ...DEFAULT_SETTINGS, ...yaml, evalConfig: join(RUN, yaml.evalConfig ?? 'eval_config.yaml') };
  const walk = await walkPaths([RUN], nodeFileAccess);
  const report = await analyzeFiles(walk.targets, { access: nodeFileAccess, settings, keepDetail });
  return { report, settings, plan: planRun(walk.targets, [RUN]) };
}

test('example run: the run view from the files’ stores (no records) equals the one from their records', async () => {
  const records = await exampleReport(true);
  const stores = await exampleReport('store');
  for (const kind of ['rollout', 'eval'] as const) {
    const files = stores.report.files.filter((f) => f.kind === kind);
    assert.ok(files.length > 0, kind);
    for (const f of files) assert.deepEqual([f.path, f.detail?.samples.length, f.detail?.store?.length], [f.path, 0, f.records], 'a store, no records');
  }
  assert.deepEqual(buildRunView(stores.report, { causes: stores.settings }), buildRunView(records.report, { causes: records.settings }));
  assert.deepEqual(
    stores.report.files.map((f) => [f.path, f.metrics, f.detail?.datasets]),
    records.report.files.map((f) => [f.path, f.metrics, f.detail?.datasets]),
  );
});

test('example run: drops per step by reason equal the drop metrics of each rollout file', async () => {
  const { report, settings, plan } = await exampleReport();
  const view = buildRunView(report, { causes: settings, plan });
  const miles = view.steps.filter((s) => s.files.some((f) => f.includes('rollout_')));
  assert.deepEqual(
    miles.map((s) => s.step),
    [1, 2, 3],
  );
  for (const row of miles) {
    const file = report.files.find((f) => f.path === row.files[0])!;
    const fromMetrics = Object.fromEntries(Object.entries(dropMetrics(file.metrics)).map(([k, v]) => [k.replace('rollout/dynamic_filter/drop_', ''), v]));
    assert.deepEqual(row.drops, fromMetrics, row.files[0]);
    assert.equal(row.kept + row.dropped, row.groups);
  }
  assert.deepEqual(miles[0].drops, {
    group_has_aborted_ServerUnreachable: 1,
    'zero_std_1.0': 1,
    group_has_aborted_SandboxUnavailable: 1,
    group_has_aborted_unknown: 1,
    group_has_aborted_TimeLimitExceeded: 1,
    'zero_std_0.0': 1,
  });
  assert.deepEqual([miles[0].kept, miles[0].dropped], [2, 6]);
  assert.deepEqual(miles[0].zeroStdByReward, { '1.0': 1, '0.0': 1 });
  assert.deepEqual(miles[1].zeroStdByReward, { '0.2': 1, '1': 1 });
});

test('example run: reasons carry cause and class, infrastructure before policy', async () => {
  const { report, settings, plan } = await exampleReport();
  const view = buildRunView(report, { causes: settings, plan });
  const byReason = new Map(view.reasons.map((r) => [r.reason, r]));
  assert.deepEqual(byReason.get('group_has_aborted_ServerUnreachable'), {
    reason: 'group_has_aborted_ServerUnreachable',
    metric: 'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable',
    kind: 'aborted',
    cause: 'ServerUnreachable',
    causeClass: 'infrastructure',
    reward: null,
    family: 'infrastructure',
    groups: 2,
  });
  assert.equal(byReason.get('group_has_aborted_TimeLimitExceeded')?.causeClass, 'policy');
  assert.equal(byReason.get('group_has_aborted_unknown')?.causeClass, 'unclassified');
  assert.deepEqual(byReason.get('zero_std_0.0')?.reward, '0.0');
  const kinds = view.reasons.map((r) => r.kind);
  assert.deepEqual(
    kinds,
    [...kinds].sort((a, b) => (a === 'aborted' ? 0 : 1) - (b === 'aborted' ? 0 : 1)),
  );
  const classes = view.reasons.filter((r) => r.kind === 'aborted').map((r) => r.causeClass);
  assert.ok(classes.indexOf('policy') > classes.lastIndexOf('infrastructure'));
  // Every listed sample sits in its file at the line the engine found.
  const sandbox = view.samples['group_has_aborted_SandboxUnavailable'];
  assert.deepEqual(
    sandbox.map((s) => [s.file.endsWith('rollout/rollout_1.jsonl'), s.line, s.cause, s.status]),
    [[true, 13, 'SandboxUnavailable', 'aborted']],
  );
  assert.equal(view.findings['group-dropped'], report.findings.filter((f) => f.code === 'group-dropped').length);
  assert.equal(view.findings['group-dropped'], 9);
});

test('example run: eval rows give pass@k by the own n and the wrong global-n values', async () => {
  const { report, settings, plan } = await exampleReport();
  const view = buildRunView(report, { causes: settings, plan });
  const aime = view.eval.find((e) => e.dataset === 'aime')!;
  assert.deepEqual([aime.step, aime.n, aime.nSource, aime.score], [100, 4, 'dataset', 0.3333333333333333]);
  assert.deepEqual(aime.passAtK, { 'pass@1': 0.3333333333333333, 'pass@2': 0.611111111111111, 'pass@4': 1.0 });
  assert.deepEqual(aime.wrong, { groupSize: 2, passAtK: { 'pass@2': 0.5 } }); // only the wrong values: never pass@1
  const gpqa = view.eval.find((e) => e.dataset === 'gpqa')!;
  assert.equal(gpqa.wrong, null);
  // Eval rows by run (miles, then verl: one root, ordered by framework), then by step in file order.
  assert.deepEqual(
    view.eval.map((e) => [view.runs[e.run].framework, e.step, e.dataset]),
    [
      ['miles', 100, 'aime'],
      ['miles', 100, 'gpqa'],
      ['miles', 100, 'swe_verified'],
      ['verl', 12, 'gsm8k'],
    ],
  );
});

const zeroStd: RolloutLensSettings = { ...DEFAULT_SETTINGS, dynamicFilter: 'check_reward_nonzero_std' };

test('per step: reward mean, response length, truncated ratio and tokens of dropped groups', () => {
  const samples = [
    ...group('a', [1, 0], 0).map((s, i) => ({ ...s, responseLength: 100 + i, step: 7 })),
    aborted('b', 0, 'SandboxUnavailable', { step: 7, responseLength: 5 }),
    sample('b', 1, { step: 7, reward: 0.5, responseLength: 30, status: 'truncated' }),
    ...group('c', [1, 1], 0).map((s) => ({ ...s, responseLength: 40, step: 7 })),
  ];
  const view = buildRunView({ version: 1, files: [rolloutFileReport('r7.jsonl', samples, zeroStd)], findings: [] }, { causes: DEFAULT_SETTINGS });
  const [row] = view.steps;
  assert.equal(row.step, 7);
  assert.deepEqual(row.drops, { group_has_aborted_SandboxUnavailable: 1, 'zero_std_1.0': 1 });
  assert.equal(row.droppedTokens, 5 + 30 + 40 + 40);
  assert.equal(row.totalTokens, 100 + 101 + 5 + 30 + 80);
  assert.equal(row.rewardMean, (1 + 0 + 0.5 + 1 + 1) / 5);
  assert.equal(row.responseLengthMean, (100 + 101 + 5 + 30 + 80) / 6);
  assert.equal(row.truncatedRatio, 1 / 6);
  assert.deepEqual(view.totals, { files: 1, samples: 6, groups: 3, kept: 1, dropped: 2, droppedTokens: 115, totalTokens: 316 });
  // The aborted member names the reason, so it is the one listed.
  assert.equal(view.samples['group_has_aborted_SandboxUnavailable'][0].line, samples[2].line);
});

test('two files of one step merge; files without a step follow the numbered steps', () => {
  const a = rolloutFileReport(
    'x/a.jsonl',
    group('a', [1, 0]).map((s) => ({ ...s, step: 2 })),
    zeroStd,
  );
  const b = rolloutFileReport(
    'x/b.jsonl',
    group('b', [1, 1]).map((s) => ({ ...s, step: 2 })),
    zeroStd,
  );
  const c = rolloutFileReport(
    'x/c.jsonl',
    group('c', [1, 0]).map((s) => ({ ...s, step: 1 })),
    zeroStd,
  );
  const d = rolloutFileReport(
    'x/last.jsonl',
    group('d', [1, 0]).map((s) => ({ ...s, step: null })),
    zeroStd,
  );
  const view = buildRunView({ version: 1, files: [d, a, b, c], findings: [] }, { causes: DEFAULT_SETTINGS });
  assert.deepEqual(
    view.steps.map((s) => [s.step, s.files, s.groups, s.dropped]),
    [
      [1, ['x/c.jsonl'], 1, 0],
      [2, ['x/a.jsonl', 'x/b.jsonl'], 2, 1],
      [null, ['x/last.jsonl'], 1, 0],
    ],
  );
});

test('at most N samples per reason are listed; the rest are counted', () => {
  const samples: SampleRecord[] = [];
  for (let g = 0; g < 30; g++) samples.push(...group(`g${g}`, [0, 0]));
  const view = buildRunView(
    { version: 1, files: [rolloutFileReport('r.jsonl', samples, zeroStd)], findings: [] },
    { causes: DEFAULT_SETTINGS, samplesPerReason: 4 },
  );
  assert.equal(view.samples['zero_std_0.0'].length, 4);
  assert.equal(view.samplesOmitted['zero_std_0.0'], 26);
});

test("listed samples: a finished attempt's exit status (Submitted) is no cause; an aborted one's is", () => {
  const samples = [
    ...group('z', [1, 1]).map((s) => ({ ...s, cause: 'Submitted' })),
    aborted('a', 0, 'SandboxUnavailable'),
    sample('a', 1, { reward: 1, cause: 'Submitted' }),
  ];
  const view = buildRunView({ version: 1, files: [rolloutFileReport('r.jsonl', samples, zeroStd)], findings: [] }, { causes: DEFAULT_SETTINGS });
  assert.deepEqual(
    view.samples['zero_std_1.0'].map((r) => [r.status, r.cause]),
    [['completed', null]],
  );
  assert.deepEqual(
    view.samples['group_has_aborted_SandboxUnavailable'].map((r) => [r.status, r.cause]),
    [['aborted', 'SandboxUnavailable']],
  );
});

test('1 000 steps of 64 groups with many causes: the model stays under a few MB', () => {
  const files: FileReport[] = [];
  const causes = ['SandboxUnavailable', 'ServerUnreachable', 'TimeLimitExceeded', 'AgentError', 'NoModelCalls', 'Weird<b>Cause'];
  for (let step = 1; step <= 1000; step++) {
    const samples: SampleRecord[] = [];
    for (let g = 0; g < 64; g++) {
      const key = `${step}-${g}`;
      if (g % 3 === 0) samples.push(aborted(key, 0, causes[(g + step) % causes.length], { step }), ...group(key, [1, 0, 1], 1).map((s) => ({ ...s, step })));
      else samples.push(...group(key, g % 3 === 1 ? [1, 1, 1, 1] : [1, 0, 1, 0]).map((s) => ({ ...s, step })));
    }
    files.push(rolloutFileReport(`rollout/rollout_${step}.jsonl`, samples, zeroStd));
  }
  const view = buildRunView({ version: 1, files, findings: [] }, { causes: DEFAULT_SETTINGS });
  assert.equal(view.steps.length, 1000);
  assert.equal(view.totals.groups, 64_000);
  const bytes = Buffer.byteLength(JSON.stringify(view));
  assert.ok(bytes < 3 * 1024 * 1024, `${bytes} bytes`);
});

test('excerpts: prompt (last user message) and response from the line on disk, clipped, text kept as is', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-runview-'));
  try {
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)> [x](command:rolloutLens.inspect) \u202Egnp.exe';
    const lines = [
      {
        group_index: 0,
        index: 0,
        rollout_id: 1,
        prompt: [
          { role: 'system', content: 'sys' },
          { role: 'user', content: hostile },
        ],
        response: 'r'.repeat(1000),
        reward: null,
        status: 'aborted',
        metadata: { exit_status: hostile },
      },
      { group_index: 0, index: 1, rollout_id: 1, prompt: 'p', response: hostile, reward: 1.0, status: 'completed' },
    ];
    const path = join(dir, 'rollout_1.jsonl');
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const report = await analyzeFiles([{ path, displayPath: 'rollout_1.jsonl' }], { access: nodeFileAccess, settings: DEFAULT_SETTINGS, keepDetail: true });
    const view = buildRunView(report, { causes: DEFAULT_SETTINGS });
    const reason = `group_has_aborted_${hostile}`;
    assert.deepEqual(Object.keys(view.samples), [reason]);
    await attachExcerpts(view, nodeFileAccess);
    const [ref] = view.samples[reason];
    assert.equal(ref.prompt, hostile);
    assert.equal(ref.response, `${'r'.repeat(EXCERPT_CHARS)}…`);
    assert.equal(ref.cause, hostile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('excerptsOf: verl rows and content parts', () => {
  assert.deepEqual(excerptsOf({ input: 'q', output: 'a' }), { prompt: 'q', response: 'a' });
  assert.deepEqual(excerptsOf({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image' }] }] }), { prompt: 'hi', response: null });
  assert.deepEqual(excerptsOf([1, 2]), { prompt: null, response: null });
});

test("attachExcerpts reads each .pt dump's listed samples in two passes over it, as each sample's own line gives them", async () => {
  const folder = join(repoRoot(), 'test/fixtures/pt/run');
  const { targets } = await walkPaths([folder], nodeFileAccess);
  const report = await analyzeFiles(targets, { access: nodeFileAccess, settings: DEFAULT_SETTINGS, keepDetail: 'store' });
  const view = buildRunView(report, { causes: DEFAULT_SETTINGS, samplesPerReason: 200 });
  const refs = Object.values(view.samples).flat();
  const dumps = new Set(refs.map((r) => r.source).filter((source) => source.endsWith('.pt')));
  const fromDumps = refs.filter((r) => dumps.has(r.source)).length;
  assert.ok(dumps.size >= 2 && fromDumps > 2 * dumps.size, `${fromDumps} samples from ${[...dumps].join(', ')}`);
  let opens = 0;
  await attachExcerpts(view, {
    ...nodeFileAccess,
    open: (path) => {
      if (path.endsWith('.pt')) opens++;
      return nodeFileAccess.open(path);
    },
  });
  assert.ok(opens <= 2 * dumps.size, `${opens} opens of ${dumps.size} dumps`);
  // Each excerpt is the one of the sample's own line, read alone.
  const detail = new Map(report.files.map((f) => [f.path, f.detail!.store!]));
  let shown = 0;
  for (const ref of refs) {
    const store = detail.get(ref.source)!;
    const record = Array.from({ length: store.length }, (_, k) => store.at(k)).find((s) => s.line === ref.line)!;
    const line = await readSampleLine(nodeFileAccess, ref.source, record, EXCERPT_MAX_LINE_BYTES);
    const want = excerptsOf(JSON.parse(new TextDecoder().decode(line.bytes!)));
    assert.equal(ref.prompt, want.prompt ?? undefined, `${ref.source}:${ref.line}`);
    assert.equal(ref.response, want.response ?? undefined, `${ref.source}:${ref.line}`);
    if (ref.prompt !== undefined) shown++;
  }
  assert.equal(shown, refs.length);
});
