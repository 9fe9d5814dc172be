// Short strings read through the slot table of core/reader/text.ts (`ShortTexts`): always the bytes' own text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ShortTexts } from '../../../server/src/core/reader/text';

const encoder = new TextEncoder();
const table = new ShortTexts();

/** The text of `value`'s UTF-8 bytes, placed at an offset inside a larger buffer. */
function read(value: string, pad = 3, texts = table): string {
  const bytes = encoder.encode(value);
  const b = new Uint8Array(bytes.length + 2 * pad).fill(0x41);
  b.set(bytes, pad);
  return texts.text(b, pad, pad + bytes.length);
}

/** The table's hash of ASCII `value` (the slot and the check it is kept under). */
function hashOf(value: string): number {
  let h = value.length | 0;
  for (let k = 0; k < value.length; k++) h = Math.imul(h ^ value.charCodeAt(k), 0x01000193);
  return h;
}

test('ShortTexts gives each string its own text, through slot reuse, lengths, non-ASCII and long values', () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', 'a', 'completed', 'aborted', 'Cause1', 'Cause2')), { maxLength: 300 }),
      (values) => {
        for (const v of values) assert.equal(read(v), v);
        for (const v of values.reverse()) assert.equal(read(v, 0), v);
      },
    ),
    { numRuns: 200 },
  );
  // More distinct values than slots, then each again: every slot replaced, none given back wrongly.
  const many = Array.from({ length: 20_000 }, (_, k) => `v${k}`);
  for (const v of many) assert.equal(read(v), v);
  for (const v of many) assert.equal(read(v), v);
});

test('ShortTexts tells apart two strings of the same hash', () => {
  // Found by the birthday bound: ASCII strings whose hashes (and so slots) are equal.
  const seen = new Map<number, string>();
  let pair: [string, string] | null = null;
  for (let k = 0; pair === null; k++) {
    const v = `k${k.toString(36)}`;
    const h = hashOf(v);
    const other = seen.get(h);
    if (other !== undefined) pair = [other, v];
    else seen.set(h, v);
  }
  const [a, b] = pair;
  assert.notEqual(a, b);
  for (let round = 0; round < 3; round++) {
    assert.equal(read(a), a);
    assert.equal(read(b), b);
    assert.equal(read(b), b);
    assert.equal(read(a), a);
  }
});

test('ShortTexts: two tables fed in turn keep their own slots', () => {
  // Same-slot strings, one table each: a table never answers with what the other one saw.
  const mine = new ShortTexts();
  const theirs = new ShortTexts();
  for (let k = 0; k < 5000; k++) {
    assert.equal(read(`a${k}`, 0, mine), `a${k}`);
    assert.equal(read(`b${k}`, 0, theirs), `b${k}`);
  }
  const slotsOf = (t: ShortTexts): string[] => (t as unknown as { slotText: string[] }).slotText;
  assert.ok(slotsOf(mine).every((v) => !v.startsWith('b')));
  assert.ok(slotsOf(theirs).every((v) => !v.startsWith('a')));
});
