// Random run summaries for the compare tests' properties: the fast reader and the diff's compact
// paths must agree with the plain ones on any summary, not only on the example run's.
import fc from 'fast-check';

import type { DatasetFile, FileSummary, PromptRow, RunSummary, StepSummary } from '../../server/src/core/compare/summary';
import { SUMMARY_VERSION } from '../../server/src/core/compare/summaryFormat';

const reasons = ['group_has_aborted_SandboxUnavailable', 'zero_std_0.0', 'zero_std_1.0', 'group_has_aborted_unknown'];

/** Prompt ids: hashes, ids with escapes and non-ASCII text, ids shared between the two sides. */
const id = fc.oneof(
  fc.constantFrom('56d24062d6cc7a68', 'cbb71ad1d12c501e', '0738826b605af72c', 'ab72fb911a3e6170', 'b24e4370ddfe95b1'),
  fc.constantFrom('a"b', 'tab\there', 'π≈3.14', 'back\\slash', 'line\nbreak', '\u0001', 'emoji 😀'),
  fc.string({ maxLength: 6 }),
);

const count = fc.nat({ max: 1000 });
const reward = fc.oneof(fc.nat({ max: 8 }), fc.double({ min: -5, max: 5, noNaN: true }), fc.constantFrom(0.1 + 0.2, 1e-300, -0));

/** Response tokens: whole, fractional (a mean logged per sample), -0 and large. */
const tokens = fc.oneof(fc.nat({ max: 65_536 }), fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(-0, 2 ** 40 + 0.5));

const row: fc.Arbitrary<PromptRow> = fc.tuple(id, fc.nat({ max: 6 }), count, fc.nat({ max: 8 }), reward, fc.integer({ min: 1, max: 1_000_000 }), tokens);

function figures() {
  return {
    samples: 8,
    groups: { total: 2, kept: 1, dropped: 1 },
    droppedByCause: { [reasons[0]]: 1 },
    responseTokens: 10,
    droppedTokens: 4,
    reward: { count: 7, sum: 3.5, sumSq: 2.25, none: 1 },
    truncated: 0,
    withStatus: 8,
  };
}

const dataset: fc.Arbitrary<DatasetFile> = fc.record({
  name: fc.constantFrom('aime', 'gpqa'),
  n: fc.integer({ min: 1, max: 8 }),
  samples: count,
  noneReward: count,
  truncated: count,
  line: fc.integer({ min: 1, max: 100 }),
  metrics: fc.constant({ 'eval/aime': 0.5 }),
  prompts: fc.array(fc.tuple(id, fc.integer({ min: 1, max: 8 }), fc.nat({ max: 8 }), reward, fc.integer({ min: 1, max: 100 })), { maxLength: 6 }),
});

function file(path: string, rows: PromptRow[], datasets: DatasetFile[]): FileSummary {
  return {
    path,
    format: 'miles-sample',
    ...figures(),
    metrics: { 'rollout/truncated_ratio': 0, 'rollout/zero_std/count_0.0': null },
    examples: { [reasons[0]]: 3 },
    findings: { 'group-dropped': { count: 1, file: path, line: 3 } },
    states: ['kept', ...reasons],
    prompts: rows,
    datasets,
  };
}

/** A step of one or two files (rollout: prompt rows; eval: datasets). */
const step: fc.Arbitrary<StepSummary> = fc
  .record({
    kind: fc.constantFrom('rollout' as const, 'eval' as const),
    step: fc.integer({ min: 1, max: 4 }),
    rows: fc.array(fc.array(row, { maxLength: 12 }), { minLength: 1, maxLength: 2 }),
    datasets: fc.array(dataset, { maxLength: 2 }),
  })
  .map(({ kind, step, rows, datasets }) => ({
    kind,
    step,
    partial: false,
    ...figures(),
    datasets: [],
    files: rows.map((r, i) => file(`run/${kind}_${step}_${i}.jsonl`, kind === 'rollout' ? r : [], kind === 'eval' ? datasets : [])),
  }));

/** A summary of up to 8 steps (numbers may repeat: the diff pairs the first of each). */
export const randomSummary: fc.Arbitrary<RunSummary> = fc
  .array(step, { maxLength: 8 })
  .map((steps) => ({ version: SUMMARY_VERSION, framework: 'miles', steps }));
