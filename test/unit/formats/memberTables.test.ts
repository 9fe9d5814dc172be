// The member tables (server/src/core/formats/members/) are the one list of the members each path
// reads. Each path's member set is derived here from its behaviour and compared with the table, so
// a member added to one path but not the table, or to the table but not a path, fails:
// - the fast validation is generated from the tables (validation/fastChecks.ts): the file is what
//   they give now;
// - the reference (zod) and the fast validation: a wrong value in each member, and only there, is
//   refused by both; a wrong value in a member outside the table is not looked at;
// - the normalisers: the members their source reads (`o.<name>`, `r.<name>`, `meta?.<name>`);
// - the per-line path (milesSample/line.ts) and the `.pt` rows (scan/ptSampleRecord.ts): a line
//   (a pickled sample) holding each member reads to the reference's record, which differs from the
//   record without it wherever the member feeds a field; the store's row keeps that record.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';

import { ALL_TABLES } from '../../../server/src/core/formats/members/all';
import type { Member, MemberTable } from '../../../server/src/core/formats/members/checks';
import { MILES_METADATA, MILES_SAMPLE, MILES_TRAJECTORY, MILES_TRIALS } from '../../../server/src/core/formats/members/miles';
import { VERL } from '../../../server/src/core/formats/members/verl';
import { MilesLineReader } from '../../../server/src/core/formats/milesSample/line';
import { LINE_READERS, LineMembers, lineTails } from '../../../server/src/core/formats/milesSample/lineMembers';
import { normalizeRecord } from '../../../server/src/core/formats/normalize';
import { buildRule } from '../../../server/src/core/formats/rule';
import { fastCheck } from '../../../server/src/core/formats/validation/fast';
import { fastChecksSource } from '../../../server/src/core/formats/validation/fastSource';
import { referenceSchema } from '../../../server/src/core/formats/validation/reference';
import { parseLogLine } from '../../../server/src/core/reader/lineParse';
import { RuleParser } from '../../../server/src/core/reader/ruleParse';
import { sampleLine } from '../../../server/src/core/reader/pt/serialize';
import { PyDict, PyFloat, PyList } from '../../../server/src/core/reader/pt/values';
import { PT_READERS, PtMembers } from '../../../server/src/core/scan/ptMembers';
import { PtSampleReader } from '../../../server/src/core/scan/ptSampleRecord';
import { SampleStore } from '../../../server/src/core/store/sampleStore';
import type { SampleRecord } from '../../../server/src/core/vocabulary/types';
import { DEFAULT_SETTINGS } from '../../../shared/protocol';

const TABLES = ALL_TABLES;

/** A value each check accepts (a nested table: an empty object, all its members optional or given). */
function validValue(m: Member): unknown {
  const c = m.check;
  if (c === null) return undefined;
  if (typeof c === 'object') return validRecord(c);
  return { integer: 3, number: 1.5, text: 's', anyString: 's', id: 'x', status: 'completed', reward: 1, object: {}, present: 'p' }[c];
}

function validRecord(table: MemberTable): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const m of table.members) if (m.check !== null) o[m.name] = validValue(m);
  return o;
}

const zodPasses = (table: MemberTable, o: Record<string, unknown>) => referenceSchema(table).safeParse(o).success;

test("member tables: the zod schema checks exactly the table's checked members, in its order", () => {
  for (const table of TABLES) {
    const shape = (referenceSchema(table) as unknown as { shape: Record<string, unknown> }).shape;
    const checked = table.members.filter((m) => m.check !== null).map((m) => m.name);
    assert.deepEqual(Object.keys(shape), checked, table.name);
  }
});

test('member tables: validation/fastChecks.ts is what the tables give (else: node scripts/gen-fast-checks.mjs)', async () => {
  const path = join(__dirname, '../../../../server/src/core/formats/validation/fastChecks.ts');
  // Laid out by prettier, as the script writes it.
  const expected = await prettier.format(fastChecksSource(ALL_TABLES), { ...(await prettier.resolveConfig(path)), filepath: path });
  assert.equal(readFileSync(path, 'utf8'), expected);
});

test('member tables: the fast and the reference validation look at each checked member, and at no other', () => {
  for (const table of TABLES) {
    const fast = fastCheck(table);
    const base = validRecord(table);
    assert.ok(fast(base) && zodPasses(table, base), `${table.name}: a valid record passes both`);
    const outside = { ...base, not_a_member_of_the_table: [] };
    assert.ok(fast(outside) && zodPasses(table, outside), `${table.name}: a member outside the table is not checked`);
    for (const m of table.members) {
      const wrong = { ...base };
      if (m.check === 'present') delete wrong[m.name];
      else wrong[m.name] = [];
      if (m.check === null) {
        assert.ok(fast(wrong) && zodPasses(table, wrong), `${table.name}.${m.name} is not checked`);
        continue;
      }
      assert.equal(fast(wrong), false, `${table.name}.${m.name}: the fast check refuses a wrong value`);
      assert.equal(zodPasses(table, wrong), false, `${table.name}.${m.name}: zod refuses a wrong value`);
    }
  }
});

const SRC = join(__dirname, '../../../../server/src/core/formats');

/** The names `source` reads from the objects named `holders` (`o.x`, `r.x`, `meta?.x`, `o['x']`). */
function readsOf(source: string, holders: string[]): Set<string> {
  const names = new Set<string>();
  for (const h of holders) {
    for (const m of source.matchAll(new RegExp(`\\b${h}\\??\\.([a-z_][a-z_0-9]*)\\b`, 'g'))) names.add(m[1]);
    for (const m of source.matchAll(new RegExp(`\\b${h}\\[['"]([a-z_0-9]+)['"]\\]`, 'g'))) names.add(m[1]);
  }
  return names;
}

/** The body of function `name` in `source`. */
function functionBody(source: string, name: string): string {
  const start = source.indexOf(`export function ${name}(`);
  assert.ok(start >= 0, name);
  const next = source.indexOf('\nexport function ', start + 1);
  return source.slice(start, next < 0 ? undefined : next);
}

test('member tables: every member a normaliser reads from its record is in its table', () => {
  const names = (t: MemberTable) => new Set(t.members.map((m) => m.name));
  const miles = readFileSync(join(SRC, 'miles.ts'), 'utf8');
  const cases: [string, MemberTable, string[]][] = [
    [readFileSync(join(SRC, 'milesSample/reference.ts'), 'utf8'), MILES_SAMPLE, ['o', 'r']],
    [readFileSync(join(SRC, 'milesSample/reference.ts'), 'utf8'), MILES_METADATA, ['meta']],
    [functionBody(miles, 'normalizeMilesTrajectory'), MILES_TRAJECTORY, ['o', 'r']],
    [functionBody(miles, 'normalizeMilesTrials'), MILES_TRIALS, ['o', 'r']],
    [functionBody(readFileSync(join(SRC, 'verl.ts'), 'utf8'), 'normalizeVerl'), VERL, ['o', 'r']],
  ];
  for (const [source, table, holders] of cases) {
    const read = readsOf(source, holders);
    const known = names(table);
    const missing = [...read].filter((n) => !known.has(n));
    assert.deepEqual(missing, [], `${table.name}: read by the normaliser but not in the table`);
    assert.ok(read.size >= 2, `${table.name}: the pattern finds the reads (${[...read].join(', ')})`);
  }
});

/**
 * A JSON value of each MILES_SAMPLE member that feeds a field: a member added to the table needs
 * one here (the test says so), and then the per-line and `.pt` readers must read it.
 */
const PROBES: Record<string, unknown> = {
  group_index: 3,
  index: 2,
  rollout_id: 5,
  status: 'aborted',
  reward: 0.5,
  response_length: 7,
  dataset: 'd',
  data_source: 'src',
  metadata: { exit_status: 'TimeLimitExceeded', dataset: 'md', dataset_name: 'mn', instance_id: 'inst-1' },
  prompt: 'Solve 1 + 1',
  label: '2',
  loss_mask: [1, 1, 0],
  weight_versions: ['w7'],
  prefix_cache_info: { cached_tokens: 3, total_prompt_tokens: 9 },
  response: 'r',
};

const SETTINGS = DEFAULT_SETTINGS;
const CTX = { format: 'miles-sample' as const, kind: 'rollout' as const, settings: SETTINGS, rewardKey: null, inputRun: { ids: new Map() } };
const RULE = buildRule({});

/** The reference record of a line: scanned whole and normalised. */
function referenceRecord(text: string): SampleRecord {
  const b = Buffer.from(text, 'utf8');
  const scanned = parseLogLine(b, 0, b.length, RULE, false, new RuleParser());
  assert.equal(scanned.type, 'ok', text);
  const out = normalizeRecord((scanned as { value: unknown }).value, { line: 1, offset: 0, byteLength: b.length }, CTX);
  assert.equal(out.type, 'sample', text);
  return (out as { sample: SampleRecord }).sample;
}

/** A JSON value as the pickle machine hands it over (ints as numbers, floats as PyFloat). */
function py(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? v : new PyFloat(v);
  if (Array.isArray(v)) {
    const l = new PyList();
    l.items = v.map(py);
    l.count = v.length;
    return l;
  }
  if (v !== null && typeof v === 'object') {
    const d = new PyDict();
    for (const [k, x] of Object.entries(v)) d.map.set(k, py(x));
    return d;
  }
  return v;
}

test('member tables: the per-line path and the .pt rows read every member of MILES_SAMPLE as the reference does', () => {
  const noProbe = MILES_SAMPLE.members.filter((m) => m.feeds.length > 0 && !(m.name in PROBES)).map((m) => m.name);
  assert.deepEqual(noProbe, [], 'members of MILES_SAMPLE without a probe value here');
  const enc = new TextEncoder();
  for (const m of MILES_SAMPLE.members) {
    const withIt = { group_index: 1, [m.name]: PROBES[m.name] };
    const without = { group_index: 1 };
    const text = JSON.stringify(withIt);
    const reference = referenceRecord(text);
    if (m.feeds.length > 0) assert.notDeepEqual(reference, referenceRecord(JSON.stringify(without)), `${m.name}: the reference reads it`);
    const b = enc.encode(text);
    const fast = new MilesLineReader(RULE).read(b, 0, b.length, { line: 1, offset: 0, byteLength: b.length });
    assert.ok(fast !== null, `${m.name}: the per-line path reads it (not left to the full scan)`);
    assert.deepStrictEqual(fast, reference, `${m.name}: per-line record`);
    const sample = py(withIt) as PyDict;
    const line = enc.encode(sampleLine(sample));
    const viaLine = new MilesLineReader(RULE).read(line, 0, line.length, { line: 1, offset: 0, byteLength: line.length });
    const pt = new PtSampleReader().record(sample, 0);
    assert.ok(pt !== null && viaLine !== null, `${m.name}: the .pt reader reads it`);
    assert.deepStrictEqual(pt, viaLine, `${m.name}: .pt record`);
    // The store keeps every field the member fed (its columns: store/row.ts).
    assert.deepStrictEqual(SampleStore.of([reference]).at(0), reference, `${m.name}: the store's row`);
  }
});

test('member tables: every member the fast twins read names a reading kind each twin has a reader for', () => {
  const twins: [string, Readonly<Partial<Record<string, number>>>][] = [
    ['the per-line path (milesSample/lineMembers.ts)', LINE_READERS],
    ['the .pt rows (scan/ptSampleRecord.ts)', PT_READERS],
  ];
  for (const table of [MILES_SAMPLE, MILES_METADATA]) {
    for (const m of table.members as readonly Member[]) {
      assert.ok(m.read !== undefined, `${table.name}.${m.name}: no reading kind in its table`);
      for (const [twin, readers] of twins) assert.ok(readers[m.read] !== undefined, `${table.name}.${m.name}: ${twin} has no reader of kind ${m.read}`);
    }
  }
  // A kind without a reader is refused when the twin is made, not read as another.
  const missing = { ...MILES_SAMPLE, members: [...MILES_SAMPLE.members, { name: 'extra', check: null, feeds: [], read: 'no-such-kind' }] };
  assert.throws(() => new LineMembers(missing as unknown as MemberTable, RULE, lineTails()), /extra: no per-line reader/);
  assert.throws(() => new PtMembers(missing as unknown as MemberTable), /extra: no \.pt reader/);
});
