// The record columns (core/store/recordColumns.ts): one column for each record field, the store's
// code written from them (store/fieldRows.ts, fieldColumns.ts,
// fieldRowView.ts), and every kind of column giving back what it was given, its rare encodings
// included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { CHUNK } from '../../../server/src/core/store/chunk';
import { storeColumnSources } from '../../../server/src/core/store/columnSource';
import { MILES_COLUMNS, RECORD_COLUMNS } from '../../../server/src/core/store/recordColumns';
import { RowView } from '../../../server/src/core/store/rowView';
import { SampleStore } from '../../../server/src/core/store/sampleStore';
import type { SampleRecord, SampleStatus } from '../../../server/src/core/vocabulary/types';

/** A record with every field: a field added to `SampleRecord` or `MilesSampleFields` fails to compile here until given. */
const EVERY_FIELD: Required<SampleRecord> = {
  line: 1,
  offset: 0,
  byteLength: 10,
  groupKey: 'g',
  index: 0,
  dataset: 'd',
  promptKey: 'p',
  status: 'completed',
  aborted: false,
  reward: 1,
  rewardIsInt: false,
  rewardIsBool: true,
  cause: 'c',
  responseLength: 3,
  step: 2,
  rolloutId: 5,
  vars: { acc: 1 },
  session: 's_0',
  output: 0,
  miles: { effectiveLength: 3, weightVersions: ['1'], cachedTokens: 1, totalPromptTokens: 2, repetition: false },
  zeroStdReward: { reward: 1, rewardIsInt: true, pyType: null, text: null },
};

test('record columns: each record field has a column, and the table names no other field', () => {
  assert.deepEqual(Object.keys(RECORD_COLUMNS).sort(), Object.keys(EVERY_FIELD).sort());
  assert.deepEqual(Object.keys(MILES_COLUMNS).sort(), Object.keys(EVERY_FIELD.miles).sort());
});

test('record columns: store/fieldRows.ts, fieldColumns.ts, fieldRowView.ts are what the table gives (else: node scripts/gen-store-columns.mjs)', async () => {
  const sources = storeColumnSources(RECORD_COLUMNS);
  assert.deepEqual(Object.keys(sources).sort(), ['fieldColumns.ts', 'fieldRowView.ts', 'fieldRows.ts']);
  for (const [name, text] of Object.entries(sources)) {
    const path = join(__dirname, '../../../../server/src/core/store', name);
    // Laid out by prettier, as the script writes it.
    const expected = await prettier.format(text, { ...(await prettier.resolveConfig(path)), filepath: path });
    assert.equal(readFileSync(path, 'utf8'), expected, name);
  }
});

const STATUSES: (SampleStatus | null)[] = [null, 'pending', 'completed', 'truncated', 'aborted', 'failed'];
/** Values an Int32 column holds in its overflow map, or that look like its codes. */
const ODD_INTS = [-0, 0.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, -0x80000000, -0x7fffffff, NaN, Infinity];
const ODD_REWARDS = [0.1, -0, NaN, -Infinity, 1e300, 2 ** -149];

/**
 * Row `i` of three chunks and a bit: every kind in its usual form and, at some rows, its rare
 * encodings (a broken count, an overflow value, a second step, a first rollout id, a 300th label, a
 * float64 reward, a wide offset, extras, each miles encoding).
 */
function recordAt(i: number): SampleRecord {
  const chunk = Math.floor(i / CHUNK);
  const odd = i % 97 === 13;
  const r: SampleRecord = {
    // Counts up, broken in the second chunk, and back to counting from another start in the third.
    line: chunk === 1 && i % CHUNK >= 100 ? i + 7 : i + 1,
    // Offsets count up in the first chunk, then step by line lengths, then leave 32 bits in the third.
    offset: chunk === 0 ? i : chunk === 1 ? i * 200 : i % CHUNK === 500 ? 2 ** 40 : odd ? -0 : i * 3,
    byteLength: (i * 7) % 2 ** 20,
    groupKey: i % 5 === 0 ? null : String(Math.floor(i / 8)),
    index: odd ? ODD_INTS[i % ODD_INTS.length] : chunk === 2 ? null : i,
    // More than 255 labels from the second chunk on: the byte columns widen.
    dataset: i % 11 === 0 ? null : chunk === 0 ? `d${i % 3}` : `d${i % 400}`,
    promptKey: i % 13 === 0 ? null : i % 2 === 0 ? `${(i * 2654435761) % 2 ** 32}`.padStart(16, '0') : `prompt ${i % 50}`,
    status: STATUSES[i % STATUSES.length],
    aborted: i % 3 === 0,
    reward: i % 17 === 0 ? null : odd ? ODD_REWARDS[i % ODD_REWARDS.length] : i % 2,
    rewardIsInt: i % 4 === 1,
    cause: i % 7 === 0 ? `cause ${i % 300}` : null,
    responseLength: odd ? ODD_INTS[(i + 3) % ODD_INTS.length] : i % 19 === 0 ? null : i % 400,
    // One step a chunk, changing mid-way in the second.
    step: chunk === 1 && i % CHUNK > 9000 ? 8 : chunk === 2 ? null : chunk,
  };
  // Rollout ids from the middle of the first chunk on (the rows before them have none).
  if (i % CHUNK > 4000 && i % 3 !== 0) r.rolloutId = odd ? ODD_INTS[i % ODD_INTS.length] : Math.floor(i / 4);
  if (i % 23 === 0) r.rewardIsBool = true;
  if (i % 29 === 0) r.vars = { acc: i % 2 };
  if (i % 31 === 0) {
    r.session = `u${i}_0`;
    r.output = i % 3;
  }
  if (i % 37 === 0) r.zeroStdReward = { reward: null, rewardIsInt: false, pyType: 'dict', text: `{"a": ${i}}` };
  if (i % 2 === 1) {
    r.miles = {
      effectiveLength: i % 5 === 1 ? r.responseLength : i % 5 === 3 ? null : odd ? 0.5 : i % 300,
      weightVersions: i % 9 === 1 ? null : i % 9 === 3 ? [String(i % 4), i % 4] : ['1'],
      cachedTokens: i % 41 === 1 ? -0 : i % 7 === 1 ? i % 100 : odd ? 2 ** 40 : 0,
      totalPromptTokens: i % 7 === 3 ? i % 1000 : 0,
      repetition: i % 43 === 1 ? null : i % 47 === 1 ? "UnicodeEncodeError: 'utf-8' codec can't encode" : i % 3 === 1,
    };
  }
  return r;
}

/** `r` as `at` builds it: fields in table order, an optional one only where it is set. */
function inTableOrder(r: SampleRecord): SampleRecord {
  const out: Record<string, unknown> = {};
  for (const f of Object.keys(RECORD_COLUMNS) as (keyof SampleRecord)[]) if (r[f] !== undefined) out[f] = r[f];
  return out as unknown as SampleRecord;
}

test('record columns: every kind of column gives back what was pushed, its rare encodings included', () => {
  const n = 2 * CHUNK + 1000;
  const records = Array.from({ length: n }, (_, i) => recordAt(i));
  const store = SampleStore.of(records);
  assert.equal(store.length, n);
  for (let i = 0; i < n; i++) {
    const got = store.at(i);
    // Same fields, in table order (JSON output follows the record's order), and same values (-0 and NaN kept).
    assert.deepEqual(Object.keys(got), Object.keys(inTableOrder(records[i])), `row ${i}: fields`);
    assert.deepStrictEqual(got, records[i], `row ${i}`);
    const view = new RowView(store, i);
    // A view reads an absent optional field as its reader does (`rolloutId`: null).
    for (const f of Object.keys(RECORD_COLUMNS) as (keyof SampleRecord)[])
      assert.deepStrictEqual(view[f] ?? null, records[i][f] ?? null, `row ${i}: view.${f}`);
  }
  // A slice within a chunk copies it (Chunk.copy): every column of the copied rows.
  const cut = CHUNK + 12345;
  const slice = store.slice(cut);
  for (let i = CHUNK; i < cut; i++) assert.deepStrictEqual(slice.at(i), records[i], `slice row ${i}`);
  assert.equal(store.hasRolloutIds, true);
});
