// The store's interning table (core/store/stringTable.ts): ids, integer and hex keys spelt back exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { StringTable } from '../../../server/src/core/store/sampleStore';
import { hex64 } from '../../../server/src/core/reader/hash';

test('StringTable: equal strings share one id, ids in first-seen order, null is -1', () => {
  const t = new StringTable();
  assert.equal(t.id('a'), 0);
  assert.equal(t.id('b'), 1);
  assert.equal(t.id('a'), 0);
  assert.equal(t.id(''), 2);
  assert.equal(t.id(null), -1);
  assert.equal(t.size, 3);
  assert.equal(t.value(1), 'b');
  assert.equal(t.value(2), '');
  assert.equal(t.value(-1), null);
  const c = t.clone(2);
  assert.equal(c.size, 2);
  assert.equal(c.id('c'), 2, 'a clone of the first two gives the next string the next id');
  assert.equal(t.id('c'), 3, 'the original is not changed by its clone');
});

test('StringTable spells integer and hex keys back as given, apart from look-alikes', () => {
  const keys = [
    '0',
    '7',
    '-3',
    '123456789012345',
    '1234567890123456',
    '-0',
    '007',
    '+1',
    '1.0',
    '',
    '-',
    '00ff00ff00ff00ff',
    'ffffffffffffffff',
    '0000000000000000',
    '00FF00FF00FF00FF',
    '00ff00ff00ff00f',
    'x',
  ];
  const t = new StringTable();
  const ids = keys.map((k) => t.id(k));
  assert.deepEqual(
    ids,
    keys.map((_, k) => k),
    'every key is new',
  );
  assert.deepEqual(
    keys.map((k) => t.id(k)),
    ids,
    'and found again',
  );
  assert.deepEqual(
    ids.map((id) => t.value(id)),
    keys,
  );
  for (let k = 0; k < 5000; k++) t.id(String(k * 7919));
  assert.equal(t.id('7919'), t.id(String(7919)));
  assert.equal(t.value(t.id(String(4999 * 7919))), String(4999 * 7919));
  assert.deepEqual(
    keys.map((k) => t.id(k)),
    ids,
    'after the table grew',
  );
  const c = t.clone(3);
  assert.deepEqual([c.value(0), c.value(1), c.value(2), c.size], ['0', '7', '-3', 3]);
});

test('StringTable: intId and hexId give the ids of the keys they spell', () => {
  const ints = fc.oneof(
    fc.integer(),
    fc.constantFrom(0, -0, 1e15 - 1, 1e15, 1e16, -1e14 + 1, -1e14, 2 ** 53 + 2, 1e21, 1234567890123456),
    fc.double({ noNaN: true }).map((v) => Math.trunc(v)),
  );
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          ints.map((v) => ({ v })),
          fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => ({ a: a >>> 0, b: b >>> 0 })),
        ),
      ),
      (keys) => {
        const byNumber = new StringTable();
        const byText = new StringTable();
        for (const k of keys) {
          const id = 'v' in k ? byNumber.intId(k.v) : byNumber.hexId(k.a, k.b);
          const text = 'v' in k ? String(k.v) : hex64(k.a, k.b);
          assert.equal(id, byText.id(text), text);
          assert.equal(byNumber.value(id), text);
        }
      },
    ),
  );
});

test('StringTable: an integer key held before the direct index covered it keeps its id', () => {
  const t = new StringTable();
  const far = t.id('70000');
  for (let v = 0; v < 3000; v++) assert.equal(t.intId(v), t.id(String(v)));
  assert.equal(t.intId(70000), far);
  assert.equal(t.id('70000'), far);
  assert.equal(t.value(far), '70000');
  for (let v = 0; v < 3000; v++) assert.equal(t.value(t.intId(v)), String(v));
  assert.equal(t.size, 3001);
});

test('StringTable: strings of any kind, mixed with numeric keys, get the ids a Map would give, across growth', () => {
  const key = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.string({ unit: 'grapheme', maxLength: 4 }),
    fc.constantFrom('a', 'b', 'Cause1', 'Cause2', '\u0000', '\ud800', 'é', 'e\u0301'),
    fc.nat({ max: 50 }).map(String),
    fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => hex64(a >>> 0, b >>> 0)),
  );
  fc.assert(
    fc.property(fc.array(key, { maxLength: 400 }), (keys) => {
      const t = new StringTable();
      const want = new Map<string, number>();
      for (const k of keys) {
        if (!want.has(k)) want.set(k, want.size);
        assert.equal(t.id(k), want.get(k), JSON.stringify(k));
      }
      for (const [k, id] of want) assert.equal(t.value(id), k);
      assert.equal(t.size, want.size);
    }),
    { numRuns: 300 },
  );
  // Many distinct strings: the table grows and rehashes them with the numeric keys.
  const t = new StringTable();
  for (let k = 0; k < 50_000; k++) {
    assert.equal(t.id(`Cause${k}`), 2 * k);
    assert.equal(t.id(String(1_000_000_007 + k)), 2 * k + 1);
  }
  for (let k = 0; k < 50_000; k += 997) {
    assert.equal(t.id(`Cause${k}`), 2 * k);
    assert.equal(t.value(2 * k), `Cause${k}`);
    assert.equal(t.value(2 * k + 1), String(1_000_000_007 + k));
  }
});
