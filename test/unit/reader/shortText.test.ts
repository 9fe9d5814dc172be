// Short strings read through the slot table of core/reader/text.ts: always the bytes' own text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { shortText } from '../../../server/src/core/reader/text';

const encoder = new TextEncoder();

/** The text of `value`'s UTF-8 bytes, placed at an offset inside a larger buffer. */
function read(value: string, pad = 3): string {
  const bytes = encoder.encode(value);
  const b = new Uint8Array(bytes.length + 2 * pad).fill(0x41);
  b.set(bytes, pad);
  return shortText(b, pad, pad + bytes.length);
}

/** The table's hash of ASCII `value` (the slot and the check it is kept under). */
function hashOf(value: string): number {
  let h = value.length | 0;
  for (let k = 0; k < value.length; k++) h = Math.imul(h ^ value.charCodeAt(k), 0x01000193);
  return h;
}

test('shortText gives each string its own text, through slot reuse, lengths, non-ASCII and long values', () => {
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

test('shortText tells apart two strings of the same hash', () => {
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
