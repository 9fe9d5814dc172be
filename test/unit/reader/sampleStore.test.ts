// The sample store (core/store/sampleStore.ts): records given back field for field, chunk reuse, narrow columns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SampleStore } from '../../../server/src/core/store/sampleStore';
import { RowView } from '../../../server/src/core/store/rowView';
import type { SampleRecord, SampleStatus } from '../../../server/src/core/vocabulary/types';

const statuses: (SampleStatus | null)[] = [null, 'pending', 'completed', 'truncated', 'aborted', 'failed'];
const intLike = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -5, max: 5 }),
  fc.constant(-0x80000000),
  fc.constant(-0x7fffffff),
  fc.constant(0x7fffffff),
  fc.constant(2 ** 31),
  fc.constant(2 ** 53 + 2),
  fc.constant(-0),
  fc.double({ noNaN: false }),
);
const key = fc.oneof(
  fc.constant(null),
  fc.constantFrom('0', '1', 'x', '', '-0', '012', '-7', '00ff00ff00ff00ff', '00FF00FF00FF00FF'),
  fc.string({ maxLength: 4 }),
  fc.stringMatching(/^[0-9a-f]{16}$/),
);
const record = fc.record({
  line: fc.integer({ min: 1, max: 2 ** 32 - 1 }),
  offset: fc.integer({ min: 0, max: 2 ** 40 }),
  byteLength: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  groupKey: key,
  index: intLike,
  dataset: key,
  promptKey: key,
  status: fc.constantFrom(...statuses),
  aborted: fc.boolean(),
  reward: fc.oneof(fc.constant(null), fc.double(), fc.constant(-0), fc.constant(NaN), fc.constant(Infinity)),
  rewardIsInt: fc.boolean(),
  cause: key,
  responseLength: intLike,
  step: intLike,
});
const versions = fc.oneof(
  fc.constant(null),
  fc.constantFrom<(string | number)[]>(['1'], [1], ['1', 1], []),
  fc.array(fc.oneof(fc.string({ maxLength: 2 }), fc.integer()), { maxLength: 3 }),
);
const miles = fc.record({
  effectiveLength: intLike,
  weightVersions: versions,
  cachedTokens: fc.oneof(
    fc.constant(0),
    fc.constant(-0),
    intLike.filter((v): v is number => v !== null),
  ),
  totalPromptTokens: fc.oneof(
    fc.constant(0),
    intLike.filter((v): v is number => v !== null),
  ),
  repetition: fc.oneof(fc.boolean(), fc.constant(null), fc.constant("UnicodeEncodeError: 'utf-8' codec can't encode")),
});
/** Records with and without miles fields; a miles row's effective length is mostly its response length. */
const anyRecord = fc.tuple(record, fc.oneof(fc.constant(null), miles), fc.boolean()).map(([r, m, same]): SampleRecord => {
  if (m === null) return r;
  return { ...r, miles: same ? { ...m, effectiveLength: r.responseLength } : { ...m } };
});

const FIELDS = [
  'line',
  'offset',
  'byteLength',
  'groupKey',
  'index',
  'dataset',
  'promptKey',
  'status',
  'aborted',
  'reward',
  'rewardIsInt',
  'cause',
  'responseLength',
  'step',
  'vars',
  'session',
  'output',
  'miles',
] as const satisfies readonly (keyof SampleRecord)[];

/** A row read through its view (core/store/rowView.ts) gives every field of the record pushed, -0 and NaN included. */
function assertViewReads(store: SampleStore, row: number, r: SampleRecord): void {
  const view = new RowView(store, row);
  for (const f of FIELDS) {
    if (f === 'vars' || f === 'miles') assert.deepEqual(view[f], r[f], `view ${f}`);
    else assert.ok(Object.is(view[f], r[f]), `view ${f}: ${String(view[f])} vs ${String(r[f])}`);
  }
}

test('SampleStore gives back every record it was given, field for field, across chunk edges', () => {
  fc.assert(
    fc.property(fc.array(anyRecord, { maxLength: 40 }), fc.integer({ min: 0, max: 40_000 }), (records, pad) => {
      const store = new SampleStore();
      // Padding rows put the records at a chunk edge (chunks hold 16384 rows).
      const filler: SampleRecord = {
        ...records[0],
        line: 1,
        offset: 0,
        byteLength: 0,
        groupKey: null,
        index: 0,
        dataset: null,
        promptKey: null,
      } as SampleRecord;
      const padRows = records.length > 0 ? pad : 0;
      for (let k = 0; k < padRows; k++) store.push(filler);
      for (const r of records) store.push(r);
      assert.equal(store.length, padRows + records.length);
      records.forEach((r, k) => {
        const got = store.at(padRows + k);
        assert.deepEqual(got, { ...r });
        for (const f of ['index', 'reward', 'responseLength', 'step'] as const) assert.ok(Object.is(got[f], r[f]), `${f}: ${got[f]} vs ${r[f]}`);
        if (r.miles) {
          for (const f of ['effectiveLength', 'cachedTokens', 'totalPromptTokens'] as const)
            assert.ok(Object.is(got.miles?.[f], r.miles[f]), `miles.${f}: ${got.miles?.[f]} vs ${r.miles[f]}`);
        }
        assert.equal(store.groupId(padRows + k) >= 0, r.groupKey !== null);
        assert.ok(Object.is(store.stepAt(padRows + k), r.step));
        assertViewReads(store, padRows + k, r);
      });
    }),
    { numRuns: 60 },
  );
});

/** A plain record: the tests below change the fields they are about. */
const base: SampleRecord = {
  line: 1,
  offset: 0,
  byteLength: 10,
  groupKey: 'b',
  index: 0,
  dataset: null,
  promptKey: null,
  status: null,
  aborted: false,
  reward: 1,
  rewardIsInt: true,
  cause: null,
  responseLength: null,
  step: null,
};

test('SampleStore keeps vars, groups by first appearance, and refuses rows it does not hold', () => {
  const miles: SampleRecord['miles'] = { effectiveLength: 3, weightVersions: ['1'], cachedTokens: 0, totalPromptTokens: 5, repetition: false };
  const store = SampleStore.of([base, { ...base, line: 2, groupKey: 'a', vars: { acc: 0.5 }, session: 'u_0', output: 1 }, { ...base, line: 3, miles }]);
  assert.deepEqual(store.at(1), { ...base, line: 2, groupKey: 'a', vars: { acc: 0.5 }, session: 'u_0', output: 1 });
  assert.deepEqual(store.at(2).miles, miles);
  assert.ok(!('session' in store.at(0)) && !('miles' in store.at(1)), 'absent optional fields stay absent');
  assert.deepEqual(store.at(1).vars, { acc: 0.5 });
  assert.equal(store.at(0).vars, undefined);
  for (let row = 0; row < 3; row++) assertViewReads(store, row, store.at(row));
  assert.deepEqual([store.groupId(0), store.groupId(1), store.groupId(2)], [0, 1, 0]);
  assert.throws(() => store.at(3), RangeError);
  assert.throws(() => store.at(-1), RangeError);
  assert.deepEqual(
    [...store].map((s) => s.line),
    [1, 2, 3],
  );
});

test('SampleStore.slice holds the first rows and shares nothing the original writes afterwards', () => {
  const mk = (line: number, groupKey: string): SampleRecord => ({
    line,
    offset: line * 10,
    byteLength: 9,
    groupKey,
    index: line > 16_000 ? 2 ** 40 : line,
    dataset: null,
    promptKey: `p${line % 3}`,
    status: 'completed',
    aborted: false,
    reward: 0.5,
    rewardIsInt: false,
    cause: null,
    responseLength: null,
    step: null,
  });
  const store = new SampleStore();
  for (let k = 1; k <= 16_390; k++) store.push(mk(k, `g${k % 7}`));
  const cut = store.slice(16_385); // one row into the second chunk
  store.push(mk(99_999, 'new'));
  cut.push(mk(77_777, 'other'));
  assert.equal(cut.length, 16_386);
  assert.equal(cut.at(16_384).line, 16_385);
  assert.equal(cut.at(16_384).index, 2 ** 40);
  assert.equal(cut.at(16_385).line, 77_777);
  assert.equal(cut.at(16_385).groupKey, 'other');
  assert.equal(store.at(16_385).line, 16_386, 'the original keeps its own row where the slice appended');
  assert.equal(store.at(16_390).groupKey, 'new');
  assert.equal(cut.groupId(16_385), 7, 'the slice interns its own new keys');
});

test('a released store hands its chunks to the next store, which reads back only its own rows', () => {
  const mk = (line: number, groupKey: string | null, step: number | null): SampleRecord => ({
    line,
    offset: line,
    byteLength: 1,
    groupKey,
    index: null,
    dataset: 'd',
    promptKey: null,
    status: 'aborted',
    aborted: true,
    reward: null,
    rewardIsInt: true,
    cause: 'X',
    responseLength: 2 ** 33,
    step,
  });
  const a = new SampleStore();
  for (let k = 1; k <= 20_000; k++) a.push(mk(k, `a${k}`, k));
  a.release();
  assert.equal(a.length, 0);
  assert.equal(a.groupKeys.size, 0, 'its tables are dropped with its rows');
  assert.throws(() => a.at(0), RangeError);
  const b = new SampleStore();
  for (let k = 1; k <= 20_000; k++) b.push(mk(k + 5, k % 2 ? null : 'b', null));
  for (const k of [0, 1, 16_383, 16_384, 19_999]) {
    assert.deepEqual(b.at(k), mk(k + 6, (k + 1) % 2 ? null : 'b', null));
  }
});

test('narrow columns widen in place: many labels, changing steps, wide offsets, float64 rewards', () => {
  const mk = (k: number): SampleRecord => ({
    line: k + 1,
    offset: k < 100 ? k * 40 : k < 200 ? 2 ** 33 + k : 5 * 2 ** 40 - k,
    byteLength: 39,
    groupKey: String(k >> 3),
    index: k,
    dataset: k % 3 === 0 ? null : `d${k}`,
    promptKey: null,
    status: 'completed',
    aborted: false,
    reward: k < 300 ? (k % 4) / 2 : k === 301 ? null : 0.1 * k,
    rewardIsInt: false,
    cause: `c${k % 400}`,
    responseLength: k,
    step: k < 250 ? 7 : k < 260 ? null : k,
  });
  const store = new SampleStore();
  for (let k = 0; k < 600; k++) store.push(mk(k));
  for (let k = 0; k < 600; k++) assert.deepEqual(store.at(k), mk(k), `row ${k}`);
  const cut = store.slice(450);
  for (let k = 0; k < 450; k++) assert.deepEqual(cut.at(k), mk(k), `sliced row ${k}`);
});

test('weight_versions lists: one id for each JSON text, also when every row brings a new array', () => {
  // Each a new array, as a .pt dump's samples bring them; the text decides (JSON: "7" is not 7,
  // -0 is written 0, NaN null).
  const lists: (string | number)[][] = [['7'], ['7'], [7], [7], ['7', '8'], ['7'], [NaN], [NaN], [null as unknown as number], [-0], [0], ['7', '8']];
  const store = new SampleStore();
  for (const wv of lists)
    store.push({ ...base, miles: { effectiveLength: 3, weightVersions: [...wv], cachedTokens: 0, totalPromptTokens: 0, repetition: false } });
  const row = { effectiveLength: null, weightVersions: -1, cachedTokens: 0, totalPromptTokens: 0, repetition: false };
  const ids = lists.map((_, i) => {
    assert.ok(store.milesAt(i, row));
    return row.weightVersions;
  });
  const texts = lists.map((wv) => JSON.stringify(wv));
  for (let i = 0; i < lists.length; i++) {
    for (let j = 0; j < lists.length; j++) assert.equal(ids[i] === ids[j], texts[i] === texts[j], `${texts[i]} (row ${i}) and ${texts[j]} (row ${j})`);
    assert.equal(JSON.stringify(store.weightVersionList(ids[i])), texts[i]);
  }
});

test('lines, offsets and indexes that count up by one read back as given, also once a row breaks the count', () => {
  // Each row's line, offset and index: one more than the last row's (mostly), another step, or
  // (the index) null or a code the overflow map holds; padding rows put the run across a chunk
  // edge; a released store's chunks (their columns made by rows that never counted) are reused.
  const step = fc.oneof(fc.constant(1), fc.constant(1), fc.constant(1), fc.integer({ min: -3, max: 70_000 }));
  const steps = fc.record({ line: step, offset: step, index: fc.oneof(step, step, fc.constantFrom(null, -0, 2 ** 40, 0.5)) });
  fc.assert(
    fc.property(fc.array(steps, { minLength: 1, maxLength: 50 }), fc.integer({ min: 0, max: 20_000 }), fc.boolean(), (rows, pad, reuse) => {
      const base = {
        byteLength: 1,
        groupKey: null,
        dataset: null,
        promptKey: null,
        status: null,
        aborted: false,
        reward: null,
        rewardIsInt: false,
        cause: null,
        responseLength: null,
        step: null,
      };
      if (reuse) {
        const old = new SampleStore();
        for (let k = 0; k < 20_000; k++) old.push({ ...base, line: 7 * k + 3, offset: 5 * k, index: k % 3 === 0 ? null : 2 * k });
        old.release();
      }
      const records: SampleRecord[] = [];
      for (let k = 0; k < pad; k++) records.push({ ...base, line: k + 1, offset: k, index: k });
      let line = pad + 1;
      let offset = pad;
      let index = pad;
      for (const r of rows) {
        line = Math.max(1, line + r.line);
        offset = Math.max(0, offset + r.offset);
        const next = r.index;
        index = next === null || Object.is(next, -0) || next === 2 ** 40 || next === 0.5 ? index : index + next;
        records.push({ ...base, line, offset, index: next === null || Object.is(next, -0) || next === 2 ** 40 || next === 0.5 ? next : index });
      }
      const store = SampleStore.of(records);
      const rowsToRead = [0, pad - 1, 16_383, 16_384].filter((k) => k >= 0 && k < pad).concat(records.map((_, k) => k).slice(pad));
      for (const k of rowsToRead) {
        const r = records[k];
        assert.deepEqual(store.at(k), r);
        assert.equal(store.lineAt(k), r.line);
        assert.ok(Object.is(store.indexAt(k), r.index), `index of row ${k}: ${store.indexAt(k)} vs ${r.index}`);
        assert.equal(store.offsetAt(k), r.offset);
        assertViewReads(store, k, r);
      }
      // A slice copies the chunk it cuts, its counts and broken columns alike.
      const cut = store.slice(records.length - 1);
      for (const k of rowsToRead.filter((k) => k < records.length - 1)) assert.deepEqual(cut.at(k), records[k]);
    }),
    { numRuns: 80 },
  );
});
