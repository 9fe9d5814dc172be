// A pickled dict's entries (server/src/core/reader/pt/dictMap.ts `DictMap`): arrays of values
// sharing their keys with the dicts before them, in place of a `Map` per dict. They must read
// exactly as a `Map` does (insertion order, SameValueZero keys, a key set again keeps its place),
// and a dict sharing keys must never see another dict's changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { DictMap, INDEX_AFTER, RecentShapes } from '../../../server/src/core/reader/pt/dictMap';
import { PyFloat, PyText } from '../../../server/src/core/reader/pt/values';

/** One machine's recent key shapes, shared by the dicts of these tests as by a dump's. */
const recent = new RecentShapes();

function entries(m: DictMap | Map<unknown, unknown>): [unknown, unknown][] {
  return [...m];
}

/** The same SETITEMS batches into a DictMap and a Map (dictKey: a text key is its str). */
function both(batches: unknown[][]): { dict: DictMap; map: Map<unknown, unknown> } {
  const dict = new DictMap();
  const map = new Map<unknown, unknown>();
  for (const items of batches) {
    if (items.length === 2) dict.set(items[0], items[1]);
    else dict.setPairs(items, 0, recent);
    for (let i = 0; i < items.length; i += 2) map.set(items[i] instanceof PyText ? (items[i] as PyText).text : items[i], items[i + 1]);
  }
  return { dict, map };
}

test('DictMap reads as a Map: order, keys set again, NaN, -0, bigint, object and text keys', () => {
  const obj = new PyFloat(1);
  const cases: unknown[][][] = [
    [['a', 1, 'b', 2, 'a', 3]],
    [
      ['a', 1],
      ['b', 2],
      ['a', 3],
      ['c', 4],
    ],
    [[NaN, 1, NaN, 2, -0, 3, 0, 4, 1n, 5, 1n, 6, 1, 7, '1', 8]],
    [[obj, 1, new PyFloat(1), 2, obj, 3]],
    [[new PyText(0, 70, false, 'x'.repeat(70)), 1, 'x'.repeat(70), 2]],
    [
      ['k', 1, 'l', 2],
      ['m', 3, 'k', 4],
    ],
  ];
  for (const batches of cases) {
    const { dict, map } = both(batches);
    assert.deepEqual(entries(dict), entries(map));
    assert.equal(dict.size, map.size);
    for (const k of [...map.keys(), 'zz', 2, NaN, -0, 1n]) {
      assert.equal(dict.has(k), map.has(k), String(k));
      assert.equal(dict.get(k), map.get(k), String(k));
    }
    assert.deepEqual([...dict.keys()], [...map.keys()]);
    assert.deepEqual(dict.valueList, [...map.values()]);
  }
});

test('DictMap: dicts sharing the keys of a recent dict never see each other change', () => {
  const keys = ['group_index', 'index', 'prompt', 'status'];
  const pairs = (vs: unknown[]) => keys.flatMap((k, i) => [k, vs[i]]);
  const first = new DictMap();
  first.setPairs(pairs([0, 0, 'p', 'completed']), 0, recent);
  const second = new DictMap();
  second.setPairs(pairs([0, 1, 'p', 'aborted']), 0, recent);
  assert.equal(second.keyList, first.keyList, 'the keys are shared');
  second.set('extra', true);
  second.set('index', 9);
  first.set('status', 'truncated');
  assert.deepEqual(entries(first), [
    ['group_index', 0],
    ['index', 0],
    ['prompt', 'p'],
    ['status', 'truncated'],
  ]);
  assert.deepEqual(entries(second), [
    ['group_index', 0],
    ['index', 9],
    ['prompt', 'p'],
    ['status', 'aborted'],
    ['extra', true],
  ]);
  const third = new DictMap();
  third.setPairs(pairs([1, 2, 'q', 'completed']), 0, recent);
  assert.equal(third.get('extra'), undefined);
  assert.equal(third.size, 4);
  assert.ok(third.delete('prompt'));
  assert.deepEqual([...third.keys()], ['group_index', 'index', 'status']);
  assert.deepEqual([...first.keys()], keys);
  // Keys repeated inside one batch: one member, the last value, in the first place.
  const dup = new DictMap();
  dup.setPairs(['a', 1, 'b', 2, 'a', 3], 0, recent);
  assert.deepEqual(entries(dup), [
    ['a', 3],
    ['b', 2],
  ]);
  const again = new DictMap();
  again.setPairs(['a', 4, 'b', 5, 'a', 6], 0, recent);
  assert.deepEqual(entries(again), [
    ['a', 6],
    ['b', 5],
  ]);
});

test('DictMap.positionsOf: what get reads, for shared keys, after a key is added or deleted, asked again', () => {
  const keys = ['group_index', 'index', 'prompt', 'status'];
  const names = ['status', 'absent', 'group_index', 'extra', 'prompt'];
  const pairs = (vs: unknown[]) => keys.flatMap((k, i) => [k, vs[i]]);
  const read = (d: DictMap) => {
    const at = d.positionsOf(names);
    return names.map((_, k) => d.valueAt(at[k]));
  };
  const expected = (d: DictMap) => names.map((n) => d.get(n));
  const first = new DictMap();
  first.setPairs(pairs([0, 0, 'p', 'completed']), 0, recent);
  const second = new DictMap();
  second.setPairs(pairs([0, 1, 'q', 'aborted']), 0, recent);
  assert.equal(second.keyList, first.keyList, 'the keys are shared');
  for (const d of [first, second, first, second]) assert.deepEqual(read(d), expected(d));
  assert.deepEqual(read(second), ['aborted', undefined, 0, undefined, 'q']);
  // A key added to a dict that shared its keys: its positions are its own, the others' unchanged.
  second.set('extra', true);
  assert.deepEqual(read(second), ['aborted', undefined, 0, true, 'q']);
  assert.deepEqual(read(first), ['completed', undefined, 0, undefined, 'p']);
  const third = new DictMap();
  third.setPairs(pairs([1, 2, 'r', 'truncated']), 0, recent);
  assert.ok(third.delete('group_index'));
  assert.deepEqual(read(third), ['truncated', undefined, undefined, undefined, 'r']);
  assert.deepEqual(read(first), ['completed', undefined, 0, undefined, 'p']);
  // Another list of names asked of the same keys, then the first list again.
  const other = ['index'];
  assert.equal(first.valueAt(first.positionsOf(other)[0]), 0);
  assert.deepEqual(read(first), expected(first));
  // A dict with more keys than are searched in order, and an empty one.
  const big = new DictMap();
  big.setPairs(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]).flat(), 0, recent);
  const bigNames = ['k39', 'k0', 'k40'];
  assert.deepEqual(
    [...big.positionsOf(bigNames)].map((p) => big.valueAt(p)),
    bigNames.map((n) => big.get(n)),
  );
  assert.deepEqual(
    read(new DictMap()),
    names.map(() => undefined),
  );
  // A dict being built (keys of its own, not shared yet) asked before and after a key is added.
  const built = new DictMap();
  built.set('status', 'completed');
  assert.deepEqual(read(built), ['completed', undefined, undefined, undefined, undefined]);
  built.set('extra', 1);
  assert.deepEqual(read(built), ['completed', undefined, undefined, 1, undefined]);
});

test('DictMap: a big dict, built pair by pair or at once, and shared, reads as a Map', () => {
  const n = INDEX_AFTER * 3;
  const items: unknown[] = [];
  for (let i = 0; i < n; i++) items.push(`k${i % (n - 7)}`, i);
  items.push(NaN, 'nan', -0, 'zero', 0, 'zero again');
  for (const asBatch of [true, false, true]) {
    const { dict, map } = asBatch ? both([items]) : both(Array.from({ length: items.length / 2 }, (_, i) => items.slice(2 * i, 2 * i + 2)));
    assert.deepEqual(entries(dict), entries(map));
    for (const k of [...map.keys(), 'k99999', 5]) assert.equal(dict.get(k), map.get(k), String(k));
    dict.set('late', 1);
    map.set('late', 1);
    dict.set(NaN, 'nan again');
    map.set(NaN, 'nan again');
    assert.deepEqual(entries(dict), entries(map));
  }
});

test('DictMap.valuesLength: dicts of one shape measure each value, whatever the last one at its place was', () => {
  // A measure that tells apart what `===` does not (0 and -0) and what it never equates (NaN).
  const measure = (v: unknown, depth: number): number =>
    depth * 1000 + (Object.is(v, -0) ? 7 : typeof v === 'string' ? 100 + v.length : v === null ? 4 : typeof v === 'object' ? 50 : String(v).length);
  const keys = ['a', 'b', 'c'];
  const rows: unknown[][] = [
    [0, 'x', null],
    [-0, 'x', null],
    [0, 'xyz', false],
    [NaN, 'xyz', false],
    [NaN, 1, true],
    [new PyFloat(2), '1', 'true'],
    [new PyFloat(2), 1, 1n],
    [12345, null, 1n],
  ];
  const seen = new Set<unknown>();
  for (const depths of [
    [1, 1],
    [1, 2],
  ]) {
    for (const [r, row] of rows.entries()) {
      const depth = depths[r % 2];
      const dict = new DictMap();
      dict.setPairs(
        keys.flatMap((k, i) => [k, row[i]]),
        0,
        recent,
      );
      seen.add(dict.keyList);
      const want = row.reduce<number>((n, v) => n + measure(v, depth), 0);
      assert.equal(dict.valuesLength(measure, depth), want, `${row.map(String).join(', ')} at depth ${depth}`);
    }
  }
  // The dicts did share one shape (what the lengths are remembered by).
  assert.equal(seen.size, 1);
});

test('RecentShapes: two machines reading in turn share no key shape', () => {
  const mine = new RecentShapes();
  const theirs = new RecentShapes();
  const a = new DictMap();
  const b = new DictMap();
  a.setPairs(['p', 1, 'q', 2], 0, mine);
  b.setPairs(['p', 3, 'q', 4], 0, theirs);
  const a2 = new DictMap();
  const b2 = new DictMap();
  a2.setPairs(['p', 5, 'q', 6], 0, mine);
  b2.setPairs(['p', 7, 'q', 8], 0, theirs);
  const shapeOf = (d: DictMap): unknown => (d as unknown as { shape: unknown }).shape;
  // Within a machine the second dict shares the first one's keys; across machines never.
  assert.equal(shapeOf(a2), shapeOf(a));
  assert.equal(shapeOf(b2), shapeOf(b));
  assert.notEqual(shapeOf(a), shapeOf(b));
  assert.deepEqual([...a2.keys()], ['p', 'q']);
  assert.deepEqual([a2.get('p'), b2.get('p')], [5, 7]);
});
