// The store's interning table (core/store/stringTable.ts): ids, integer and hex keys spelt back exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { StringTable } from '../../../server/src/core/sampleStore';
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
