// zlibLength reuses one deflate stream per level (server/src/core/reader/zlibLength.ts): each call
// must give what a fresh stream gives (pako's one-shot deflate), whatever came before it. The
// lengths themselves are pinned against CPython's zlib in textTail.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { deflate } from 'pako/lib/deflate';
import { zlibLength } from '../../../server/src/core/reader/zlibLength';

const WORDS = 'the of to and a in is it you that he was for on are with as I his they be at one have this'.split(' ');

/** Bytes of one of the kinds a response tail can be: English-like words, one repeated phrase, random bytes, all zeros. */
const input = fc
  .record({ kind: fc.integer({ min: 0, max: 3 }), length: fc.integer({ min: 0, max: 70_000 }), seed: fc.integer() })
  .map(({ kind, length, seed }) => {
    let s = seed >>> 0;
    const next = () => (s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0);
    const out = new Uint8Array(length);
    if (kind === 0) {
      let text = '';
      while (text.length < length) text += `${WORDS[next() % WORDS.length]} `;
      out.set(Buffer.from(text.slice(0, length), 'latin1'));
    } else if (kind === 1) {
      const phrase = Buffer.from(`step ${seed} again, `);
      for (let i = 0; i < length; i++) out[i] = phrase[i % phrase.length];
    } else if (kind === 2) {
      for (let i = 0; i < length; i++) out[i] = next() >>> 24;
    }
    return out;
  });

test('zlibLength: every call equals a fresh stream, in any order of inputs and levels', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(input, fc.constantFrom(1, 6, 9)), { minLength: 2, maxLength: 6 }), (calls) => {
      for (const [bytes, level] of calls) assert.equal(zlibLength(bytes, level), deflate(bytes, { level }).length);
    }),
    { numRuns: 40, seed: 20261202 },
  );
});

test('zlibLength: a short input after a long one of other bytes (no byte of the window carried over)', () => {
  const long = Buffer.from('abcdefgh'.repeat(8000));
  const short = Buffer.from('abcdefg');
  const fresh = deflate(short, { level: 9 }).length;
  zlibLength(long, 9);
  assert.equal(zlibLength(short, 9), fresh);
  assert.equal(zlibLength(new Uint8Array(0), 9), deflate(new Uint8Array(0), { level: 9 }).length);
});
