// The rollout analysis over the columnar store equals it over records, with and without finding limits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SampleStore } from '../../../server/src/core/store/sampleStore';
import { analyzeRollout } from '../../../server/src/core/rollout/analyze';
import { MAX_RELATED_LINES } from '../../../server/src/core/rollout/related';
import { groupSamples } from '../../../server/src/core/rollout/groups';
import { incompleteGroups, misgrouped } from '../../../server/src/core/rollout/shape';
import type { Finding, SampleRecord, Severity } from '../../../server/src/core/vocabulary/types';
import { DEFAULT_SETTINGS } from '../../../shared/protocol';

/**
 * What a finding limit keeps of findings in line order: the first `limit` of each severity (so the
 * engine's cap, core/findingCap.ts, which keeps the most severe, finds among them all it keeps).
 */
function firstOfEachSeverity(findings: readonly Finding[], limit: number): Finding[] {
  const seen = new Map<Severity, number>();
  return findings.filter((f) => {
    const n = (seen.get(f.severity) ?? 0) + 1;
    seen.set(f.severity, n);
    return n <= limit;
  });
}

test('analyzeRollout over a store equals it over the same records as an array', () => {
  const records: SampleRecord[] = [];
  let line = 1;
  for (let g = 0; g < 200; g++) {
    for (let i = 0; i < 4; i++) {
      records.push({
        line: line++,
        offset: 0,
        byteLength: 1,
        groupKey: String(g % 170),
        index: (g * 4 + 3 - i) % 7,
        dataset: null,
        promptKey: `p${g % 11}`,
        status: i === g % 5 ? 'aborted' : 'completed',
        aborted: i === g % 5,
        reward: (g + i) % 3 === 0 ? 1 : 0,
        rewardIsInt: false,
        cause: i === g % 5 ? ['SandboxUnavailable', 'Submitted', null][g % 3] : 'Submitted',
        responseLength: 3,
        step: null,
      });
    }
  }
  const settings = { ...DEFAULT_SETTINGS, nSamplesPerPrompt: 4, dynamicFilter: 'check_reward_nonzero_std' as const };
  const fromArray = analyzeRollout('f.jsonl', 'miles-sample', records, settings);
  const fromStore = analyzeRollout('f.jsonl', 'miles-sample', SampleStore.of(records), settings);
  assert.deepEqual(fromStore, fromArray);
  // The shape findings, group by group from the store, equal the whole-file checks over groupSamples.
  const { groups } = groupSamples(records);
  const want = [...incompleteGroups(groups, 4), ...misgrouped(groups)]
    .sort((a, b) => a.at.line - b.at.line)
    .map((p) => [p.code, p.at.line, p.group, p.message, p.related.map((r) => r.line)]);
  const got = fromStore.findings
    .filter((f) => f.code === 'misgrouped' || f.code === 'incomplete-group')
    .map((f) => [f.code, f.line, f.group, f.message, (f.related ?? []).map((r) => r.line)]);
  assert.deepEqual(got, want);
  assert.ok(want.some((w) => w[0] === 'misgrouped') && want.some((w) => w[0] === 'incomplete-group'));
  // A finding limit keeps the first findings of each severity by line (ties in the order found) and counts the rest.
  for (const limit of [0, 1, 3, 7, fromArray.findings.length, fromArray.findings.length + 5]) {
    const capped = analyzeRollout('f.jsonl', 'miles-sample', SampleStore.of(records), settings, true, limit);
    const kept = firstOfEachSeverity(fromArray.findings, limit);
    assert.deepEqual(capped.findings, kept);
    assert.equal(capped.leftOut, fromArray.findings.length - kept.length);
  }
  assert.equal(fromArray.leftOut, 0);
  const noGroups = analyzeRollout('f.jsonl', 'miles-sample', SampleStore.of(records), settings, false);
  assert.deepEqual(noGroups.groups, []);
  assert.deepEqual({ ...noGroups, groups: fromArray.groups }, fromArray);
});

test('analyzeRollout: a finding limit keeps the first findings of each severity and counts the rest, on random files', () => {
  const CAUSES = ['Submitted', 'SandboxUnavailable', 'TimeLimitExceeded', null, ''];
  const row = fc.record({
    group: fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7'),
    index: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 9 })),
    prompt: fc.constantFrom('p0', 'p1', 'p2', null),
    aborted: fc.boolean(),
    reward: fc.constantFrom(0, 1, 1, null),
    cause: fc.constantFrom(...CAUSES),
  });
  const settingsOf = fc.record({
    nSamplesPerPrompt: fc.constantFrom(null, 2, 4),
    dynamicFilter: fc.constantFrom('none' as const, 'check_reward_nonzero_std' as const),
    infraCauses: fc.constantFrom([] as string[], ['SandboxUnavailable']),
    policyCauses: fc.constantFrom([] as string[], ['TimeLimitExceeded']),
  });
  fc.assert(
    fc.property(fc.array(row, { maxLength: 120 }), settingsOf, fc.integer({ min: 1, max: 12 }), (rows, s, limit) => {
      const records: SampleRecord[] = rows.map((r, k) => ({
        line: k + 1,
        offset: 0,
        byteLength: 1,
        groupKey: r.group,
        index: r.index,
        dataset: null,
        promptKey: r.prompt,
        status: r.aborted ? 'aborted' : 'completed',
        aborted: r.aborted,
        reward: r.reward,
        rewardIsInt: false,
        cause: r.cause,
        responseLength: 3,
        step: null,
      }));
      const settings = { ...DEFAULT_SETTINGS, ...s };
      const all = analyzeRollout('f.jsonl', 'miles-sample', records, settings);
      const capped = analyzeRollout('f.jsonl', 'miles-sample', records, settings, true, limit);
      const kept = firstOfEachSeverity(all.findings, limit);
      assert.deepEqual(capped.findings, kept);
      assert.equal(capped.leftOut, all.findings.length - kept.length);
      assert.deepEqual({ ...capped, findings: all.findings, leftOut: 0 }, all);
    }),
    { numRuns: 400 },
  );
});

/** A completed sample on `line` of group `groupKey`: `fields` over defaults that raise no finding. */
function sample(line: number, groupKey: string, fields: Partial<SampleRecord> = {}): SampleRecord {
  return {
    line,
    offset: 0,
    byteLength: 1,
    groupKey,
    index: null,
    dataset: null,
    promptKey: null,
    status: 'completed',
    aborted: false,
    reward: 1,
    rewardIsInt: false,
    cause: 'Submitted',
    responseLength: 3,
    step: null,
    ...fields,
  };
}

/** `groups` groups of `size` samples, lines counted from 1; `fields(g, i, line)` sets each one's own. */
function samples(groups: number, size: number, fields: (g: number, i: number, line: number) => Partial<SampleRecord>): SampleRecord[] {
  const out: SampleRecord[] = [];
  for (let g = 0; g < groups; g++) for (let i = 0; i < size; i++) out.push(sample(out.length + 1, String(g), { index: i, ...fields(g, i, out.length + 1) }));
  return out;
}

/** With every finding limit in `limits`, the findings kept are the first ones and the rest are counted. */
function assertLimits(records: SampleRecord[], settings: typeof DEFAULT_SETTINGS, all: ReturnType<typeof analyzeRollout>, limits: number[]): void {
  for (const limit of limits) {
    const capped = analyzeRollout('f.jsonl', 'miles-sample', SampleStore.of(records), settings, true, limit);
    const kept = firstOfEachSeverity(all.findings, limit);
    assert.deepEqual(capped.findings, kept);
    assert.equal(capped.leftOut, all.findings.length - kept.length);
  }
}

test('analyzeRollout: prompts spread past the finding limit are counted without building their records', () => {
  // 2000 plain groups of 4; group g and group g + 1000 share a prompt, so 1000 prompts are spread.
  const records = samples(2000, 4, (g, i) => ({ promptKey: `p${g % 1000}`, reward: i % 2 }));
  const settings = { ...DEFAULT_SETTINGS, nSamplesPerPrompt: 4 };
  const all = analyzeRollout('f.jsonl', 'miles-sample', SampleStore.of(records), settings);
  assert.equal(all.findings.filter((f) => f.code === 'misgrouped').length, 1000);
  // Each group key read (the store hands the checks row views, which read fields in place) is
  // counted: a spread prompt's message reads the key of every group it is in, its finding one more.
  const keyReads = (limit: number) => {
    const store = SampleStore.of(records);
    const value = store.groupKeys.value.bind(store.groupKeys);
    let reads = 0;
    store.groupKeys.value = (id: number) => {
      reads++;
      return value(id);
    };
    const capped = analyzeRollout('f.jsonl', 'miles-sample', store, settings, false, limit);
    assert.deepEqual(capped.findings, all.findings.slice(0, limit));
    assert.equal(capped.leftOut, 1000 - limit);
    return reads;
  };
  // Per finding kept: its two groups' keys in the message, the problem's and the finding's group;
  // none for the prompts past the limit.
  assert.equal(keyReads(5), 4 * 5);
  assert.equal(keyReads(50), 4 * 50);
});

test('analyzeRollout: a group written out of index order keeps its findings before the limit', () => {
  // Group b's two infrastructure failures scored fill a limit of 2 (lines 1 and 6); group a starts on
  // line 2 with its aborted member, whose index puts it second: its group-dropped finding (line 2)
  // is among the first two, though the member that comes first in group order is on line 7.
  const infra = { cause: 'SandboxUnavailable' };
  const records = [
    sample(1, 'b', { index: 0, promptKey: 'pb', ...infra }),
    sample(2, 'a', { index: 1, promptKey: 'pa', status: 'aborted', aborted: true, reward: null, ...infra }),
    sample(6, 'b', { index: 1, promptKey: 'pb', ...infra }),
    sample(7, 'a', { index: 0, promptKey: 'pa' }),
  ];
  const settings = { ...DEFAULT_SETTINGS, nSamplesPerPrompt: 2 };
  const all = analyzeRollout('f.jsonl', 'miles-sample', SampleStore.of(records), settings);
  assert.deepEqual(
    all.findings.map((f) => [f.code, f.line]),
    [
      ['infra-failure-scored', 1],
      ['group-dropped', 2],
      ['infra-failure-scored', 6],
    ],
  );
  assertLimits(records, settings, all, [2]);
});

test("analyzeRollout: a finding on the line where a later check's list is full still comes first", () => {
  // Limit 1. Group a (lines 1-2) is short of 3 samples: the group-size list is full at line 1.
  // Its rewards are all null and nothing aborted, so the per-sample metrics crash; that finding,
  // also on line 1, is reported after the groups, in the list merged first: it is the one kept.
  const miles = { effectiveLength: 3, weightVersions: null, cachedTokens: 0, totalPromptTokens: 0, repetition: false };
  const records = [sample(1, 'a', { index: 0, reward: null, miles }), sample(2, 'a', { index: 1, reward: null, miles }), ...samples(3, 3, () => ({ miles }))];
  for (const r of records.slice(2)) r.line += 2;
  const settings = { ...DEFAULT_SETTINGS, nSamplesPerPrompt: 3 };
  const all = analyzeRollout('f.jsonl', 'miles-sample', SampleStore.of(records), settings);
  assert.deepEqual(
    all.findings.map((f) => [f.code, f.line]),
    [
      ['metrics-crash', 1],
      ['incomplete-group', 1],
    ],
  );
  assertLimits(records, settings, all, [0, 1, 2]);
});

test('analyzeRollout: members handed over out of line order are put in group order as inGroupOrder puts them', () => {
  // Records need not come in line order: a group without indexes is ordered by line, one whose
  // members share an index by line within it, one with indexes by index; groups by their first line.
  const records = [
    sample(9, 'lines'),
    sample(8, 'ties', { index: 0 }),
    sample(3, 'lines'),
    sample(2, 'ties', { index: 0 }),
    sample(7, 'lines'),
    sample(6, 'indexed', { index: 1 }),
    sample(5, 'indexed', { index: 0 }),
    sample(10, 'indexed', { index: 2 }),
  ];
  const settings = { ...DEFAULT_SETTINGS, nSamplesPerPrompt: 3 };
  const got = analyzeRollout('f.jsonl', 'miles-sample', SampleStore.of(records), settings).groups.map((g) => [g.key, g.lines]);
  assert.deepEqual(got, [
    ['ties', [2, 8]],
    ['lines', [3, 7, 9]],
    ['indexed', [5, 6, 10]],
  ]);
  const { groups } = groupSamples(records);
  const reference = groups.map((g) => Array.from({ length: g.members.length }, (_, k) => g.members.line(k)));
  assert.deepEqual(
    got.map(([, lines]) => lines),
    reference.sort((a, b) => a[0] - b[0]),
  );
});

test('analyzeRollout: a misgrouped file (every group mixes prompts) keeps the first findings and counts the rest', () => {
  const records = samples(50, 2, (_, i, line) => ({ promptKey: `p${line}`, reward: i }));
  const settings = { ...DEFAULT_SETTINGS, nSamplesPerPrompt: 2 };
  const all = analyzeRollout('f.jsonl', 'miles-sample', SampleStore.of(records), settings);
  assert.equal(all.findings.length, 50);
  assert.ok(all.findings.every((f) => f.code === 'misgrouped'));
  assertLimits(records, settings, all, [1, 3, 49]);
});

test('analyzeRollout: a run whose every sample was scored despite an infrastructure failure keeps the first findings and counts the rest', () => {
  // Indexes count down, so each group's rows are put in group order first.
  const records = samples(40, 2, (g, i) => ({
    index: 1 - i,
    promptKey: `p${g}`,
    reward: i,
    cause: i === 1 && g % 3 === 0 ? 'Submitted' : 'SandboxUnavailable',
  }));
  const settings = { ...DEFAULT_SETTINGS, nSamplesPerPrompt: 2 };
  const all = analyzeRollout('f.jsonl', 'miles-sample', SampleStore.of(records), settings);
  assert.equal(all.findings.length, 80 - 14);
  assert.ok(all.findings.every((f) => f.code === 'infra-failure-scored'));
  assertLimits(records, settings, all, [1, 2, 3, 30, 65]);
});

test('analyzeRollout: big groups (rows found through a map) report prompts spread across them as the record checks do', () => {
  // Group 0: 20 members, the first 10 with prompt x, the rest with prompt s; group 1: 20 with prompt s.
  const records = samples(2, 20, (g, i) => ({ promptKey: g === 0 && i < 10 ? 'x' : 's', reward: i % 2 }));
  const got = analyzeRollout('f.jsonl', 'miles-sample', SampleStore.of(records), { ...DEFAULT_SETTINGS, nSamplesPerPrompt: 20 })
    .findings.filter((f) => f.code === 'misgrouped' && f.message.includes('spread'))
    .map((f) => [f.line, (f.related ?? []).map((r) => r.line)]);
  const want = misgrouped(groupSamples(records).groups)
    .filter((p) => p.message.includes('spread'))
    .map((p) => [p.at.line, p.related.map((r) => r.line)]);
  assert.deepEqual(got, want);
  assert.deepEqual(got, [[21, [11]]]);
});

test('analyzeRollout: a finding lists at most MAX_RELATED_LINES related lines, the first in group order', () => {
  // One group of 600 written in reverse index order; its aborted member (index 0) names the drop.
  const records = samples(1, 600, (_, i) => ({
    index: 599 - i,
    promptKey: 'p',
    ...(i === 599 ? { status: 'aborted', aborted: true, reward: null, cause: 'SandboxUnavailable' } : {}),
  }));
  const [dropped] = analyzeRollout('f.jsonl', 'miles-sample', SampleStore.of(records), DEFAULT_SETTINGS).findings;
  assert.equal(dropped.code, 'group-dropped');
  assert.equal(dropped.line, 600);
  // The others in group order (index 1, 2, …: lines 599, 598, …), the first MAX_RELATED_LINES of them.
  assert.deepEqual(
    (dropped.related ?? []).map((r) => r.line),
    Array.from({ length: MAX_RELATED_LINES }, (_, k) => 599 - k),
  );
  assert.match(dropped.message, /1 of 600 samples/);
});
