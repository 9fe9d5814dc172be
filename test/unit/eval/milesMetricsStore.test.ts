// milesSampleMetrics reads the store's columns; here it is checked against a plain reading of the
// records (one pass over SampleRecord.miles, groups in a Map), on random files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { milesSampleMetrics } from '../../../server/src/core/eval/milesMetrics';
import { npMean } from '../../../server/src/core/eval/numeric';
import { pyRoundRepr } from '../../../server/src/core/vocabulary/python';
import { SampleStore } from '../../../server/src/core/store/sampleStore';
import type { SampleRecord } from '../../../server/src/core/vocabulary/types';

function stats(values: number[], prefix: string, out: Record<string, number>): void {
  if (values.length === 0) return;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  out[`${prefix}mean`] = npMean(values);
  out[`${prefix}median`] = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  out[`${prefix}max`] = sorted[sorted.length - 1];
  out[`${prefix}min`] = sorted[0];
}

function reference(samples: SampleRecord[]): {
  metrics: Record<string, number>;
  crash: number[][];
  repetitionUnknown: boolean;
  repetitionCrash: { line: number; error: string; count: number } | null;
} {
  const out: Record<string, number> = {};
  const none = { crash: [], repetitionUnknown: false, repetitionCrash: null };
  if (samples.length === 0) return { metrics: out, ...none };
  if (samples.some((s) => s.miles === undefined)) return { metrics: {}, ...none };
  const m = samples.map((s) => s.miles!);
  if (m.every((x) => x.effectiveLength !== null))
    stats(
      m.map((x) => x.effectiveLength as number),
      'response_len/',
      out,
    );
  const groups = new Map<string | null, SampleRecord[]>();
  for (const s of samples) groups.set(s.groupKey, [...(groups.get(s.groupKey) ?? []), s]);
  const counts = new Map<string, number>();
  const crash: number[][] = [];
  for (const members of groups.values()) {
    const r = members[0].reward;
    if (r !== null && Number.isNaN(r)) continue;
    if (!members.every((s) => s.reward === r)) continue;
    if (r === null) crash.push(members.map((s) => s.line));
    else counts.set(pyRoundRepr(r, members[0].rewardIsInt, 1), (counts.get(pyRoundRepr(r, members[0].rewardIsInt, 1)) ?? 0) + 1);
  }
  for (const [r, c] of counts) out[`zero_std/count_${r}`] = c;
  out['zero_std/all_zero_percentage'] = (counts.get('0.0') ?? 0) / groups.size;
  out['zero_std/all_one_percentage'] = (counts.get('1.0') ?? 0) / groups.size;
  const cached = m.reduce((a, x) => a + x.cachedTokens, 0);
  const prompt = m.reduce((a, x) => a + x.totalPromptTokens, 0);
  out['prefix_cache_hit_rate'] = prompt > 0 ? cached / prompt : 0;
  out['avg_cached_tokens_per_sample'] = cached / samples.length;
  const repetitionUnknown = m.some((x) => x.repetition === null);
  const crashed = samples.filter((s) => typeof s.miles!.repetition === 'string');
  const repetitionCrash = crashed.length > 0 ? { line: crashed[0].line, error: crashed[0].miles!.repetition as string, count: crashed.length } : null;
  if (!repetitionUnknown && repetitionCrash === null) out['repetition_frac'] = m.filter((x) => x.repetition === true).length / samples.length;
  out['truncated_ratio'] = npMean(samples.map((s) => (s.status === 'truncated' ? 1 : 0)));
  if (m.every((x) => x.weightVersions !== null)) {
    const oldest: number[] = [];
    let mixed = 0;
    for (const x of m) {
      const digits = x.weightVersions!.filter((v) => (typeof v === 'number' ? Number.isInteger(v) && v >= 0 : /^[0-9]+$/.test(v))).map(Number);
      if (digits.length > 0) oldest.push(Math.min(...digits));
      if (new Set(x.weightVersions!.map((v) => typeof v + String(v))).size > 1) mixed++;
    }
    if (oldest.length > 0) {
      stats(oldest, 'weight_version/', out);
      out['weight_version/mixed_version_ratio'] = mixed / samples.length;
    }
  }
  return { metrics: out, crash, repetitionUnknown, repetitionCrash };
}

const sample = fc.record({
  group: fc.oneof(fc.constant(null), fc.constantFrom('0', '1', '2', '17', 'a', '00ff00ff00ff00ff')),
  reward: fc.oneof(fc.constant(null), fc.constantFrom(0, 1, 0.5, -0, NaN)),
  rewardIsInt: fc.boolean(),
  status: fc.constantFrom('completed' as const, 'truncated' as const, 'aborted' as const, null),
  responseLength: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 4000 }), fc.constant(2 ** 40)),
  lengthFromResponse: fc.boolean(),
  length: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 4000 }), fc.constant(2.5)),
  versions: fc.oneof(fc.constant(null), fc.constantFrom(['3'], [3], ['3', 3], ['x'], ['2', '10'], [] as string[])),
  cached: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 100 }), fc.constant(0.25)),
  prompt: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 300 }), fc.constant(2 ** 35)),
  repetition: fc.oneof(fc.boolean(), fc.boolean(), fc.constant(null), fc.constantFrom('E1', 'E2')),
  noMiles: fc.constantFrom(false, false, false, false, false, false, false, false, false, true),
});

// Every row with a length and a version list: the statistics over all rows, from counts while
// their sum is exact. 2**52 + 1 twice and more sum past 2**53 (numpy's pairwise order then decides
// the last bits), 3 000 000 widens the range past the counted one, -0 and 2.5 are no counts.
const measured = sample.chain((s) =>
  fc
    .record({
      length: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom(2.5, -0, 2 ** 52 + 1, 3_000_000)),
      versions: fc.constantFrom<(string | number)[]>(['3'], [3], ['3', 3], ['x'], ['2', '10'], ['4503599627370497'], ['9007199254740993', '7'], ['1', 'x']),
    })
    .map((m) => ({ ...s, ...m, lengthFromResponse: false, noMiles: false })),
);

for (const [name, rows] of [
  ['any rows', fc.array(sample, { maxLength: 30 })],
  ['rows that all have a length and a version list', fc.array(measured, { maxLength: 40 })],
] as const)
  test(`miles sample metrics from the store columns equal those read from the records: ${name}`, () => {
    checkAgainstReference(rows);
  });

test('a median of -0 lengths is -0, as numpy sorts them', () => {
  const row: Row = {
    group: '0',
    reward: 1,
    rewardIsInt: true,
    status: 'completed',
    responseLength: 3,
    lengthFromResponse: false,
    length: -0,
    versions: ['3'],
    cached: 0,
    prompt: 0,
    repetition: false,
    noMiles: false,
  };
  checkAgainstReference(fc.constant([row, row, { ...row, length: 5 }]));
  const got = milesSampleMetrics(SampleStore.of([row, row, { ...row, length: 5 }].map(recordOf)));
  assert.ok(Object.is(got.metrics['response_len/median'], -0));
});

type Row = typeof sample extends fc.Arbitrary<infer R> ? R : never;

function recordOf(r: Row, k: number): SampleRecord {
  const s: SampleRecord = {
    line: k + 1,
    offset: k * 10,
    byteLength: 9,
    groupKey: r.group,
    index: k,
    dataset: null,
    promptKey: null,
    status: r.status,
    aborted: r.status === 'aborted',
    reward: r.reward,
    rewardIsInt: r.rewardIsInt && r.reward !== null && Number.isInteger(r.reward),
    cause: null,
    responseLength: r.responseLength,
    step: null,
  };
  if (!r.noMiles)
    s.miles = {
      effectiveLength: r.lengthFromResponse ? r.responseLength : r.length,
      weightVersions: r.versions,
      cachedTokens: r.cached,
      totalPromptTokens: r.prompt,
      repetition: r.repetition,
    };
  return s;
}

function checkAgainstReference(arbitrary: fc.Arbitrary<Row[]>): void {
  fc.assert(
    fc.property(arbitrary, (rows) => {
      const records = rows.map(recordOf);
      const want = reference(records);
      for (const got of [milesSampleMetrics(records), milesSampleMetrics(SampleStore.of(records))]) {
        assert.deepEqual(got.metrics, want.metrics);
        assert.deepEqual(Object.keys(got.metrics), Object.keys(want.metrics), 'names in the same order');
        // Each crash group by its first sample's line, its key, and whether a member is aborted.
        assert.deepEqual(
          got.crashGroups.map((g) => ({ line: records[g.row].line, key: g.key, aborted: g.aborted })),
          want.crash.map((lines) => ({ line: lines[0], key: records[lines[0] - 1].groupKey, aborted: lines.some((l) => records[l - 1].aborted) })),
        );
        assert.equal(got.repetitionUnknown, want.repetitionUnknown);
        const rep = got.repetitionCrash;
        assert.deepEqual(rep && { line: rep.first.line, error: rep.error, count: rep.count }, want.repetitionCrash);
      }
    }),
    { numRuns: 300 },
  );
}
