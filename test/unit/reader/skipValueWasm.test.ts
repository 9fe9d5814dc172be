// numberRun.wat's `skipValue` (one call skips a whole JSON value) against jsonSkip.ts' JS
// `skipValueJs`: wherever the WebAssembly answers (not -1), the JS must accept the same value and end
// at the same byte; where the JS refuses a value, the WebAssembly must leave it (-1), so the JS
// reports the error. Every value is tried cut at each byte, with the memory past the cut holding
// bytes that would extend it (digits, letters, quotes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

import { skipValue, skipValueJs } from '../../../server/src/core/reader/jsonSkip';
import { lineBuffer, wasmRoutinesOf } from '../../../server/src/core/reader/lineBuffers';

/** `bytes` at byte `offset` of a WebAssembly-backed view, followed by `fill` bytes. */
function inWasm(bytes: Uint8Array, offset: number, fill: number): Uint8Array {
  const view = lineBuffer(bytes.length + offset + 64).subarray(offset);
  view.fill(fill);
  view.set(bytes);
  return view;
}

function jsEnd(bytes: Uint8Array, e: number): number | string {
  try {
    return skipValueJs(Buffer.from(bytes), 0, e);
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

const FILLS = [0x31, 0x65, 0x22, 0x2c, 0x5d, 0x7d, 0x20, 0x2e, 0x61];

/**
 * Checks `text` cut at `e` (all cuts when omitted): the WebAssembly's answer is -1 or the JS's end;
 * `skipValue` (WebAssembly, then JS) ends where the JS alone does or throws as it does. Returns
 * how many answers the WebAssembly gave.
 */
function agree(text: string | Uint8Array, cuts?: number[]): number {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text);
  let answered = 0;
  for (const e of cuts ?? Array.from({ length: bytes.length + 1 }, (_, k) => k)) {
    const expected = jsEnd(bytes, e);
    for (const fill of e === bytes.length ? FILLS : [FILLS[e % FILLS.length]]) {
      const b = inWasm(bytes, e % 29, fill);
      const wasm = wasmRoutinesOf(b);
      assert.notEqual(wasm, null);
      const got = wasm!.skipValue(b.byteOffset, b.byteOffset + e);
      const where = `${JSON.stringify(bytes.subarray(0, e).toString('latin1'))} (cut at ${e}, then 0x${fill.toString(16)})`;
      if (got !== -1) {
        answered++;
        assert.equal(got - b.byteOffset, expected, where);
      }
      let through: number | string;
      try {
        through = skipValue(b, 0, e);
      } catch (err) {
        through = `error: ${(err as Error).message}`;
      }
      assert.equal(through, expected, where);
    }
  }
  return answered;
}

test('skipValue (wasm): valid values of every kind are skipped whole, to the byte the JS ends at', () => {
  const values = [
    '0',
    '-0',
    '-0.0',
    '12345678901234567890123',
    '-1.5e-06',
    '2E+10',
    '1e400',
    'NaN',
    'Infinity',
    '-Infinity',
    'true',
    'false',
    'null',
    '""',
    '"plain text"',
    '"esc \\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\\uDE00 end"',
    '"utf-8: é ✓ 😀 ߿ 𐀀 \uffff"',
    '[]',
    '{}',
    '[ ]',
    '{ }',
    '[1, 2, 3]',
    '[-0.148509, -1.173547, -5e-06, -2.1e-05, 0.0, -0, 3]',
    '[1,2 ,3\t,\n4\r]',
    '{"a": 1, "b": [true, false, null], "c": {"d": "e", "f": [{}, []]}}',
    '{"role": "user", "content": "Problem 0: what \\u00e9?"}',
    '[{"role": "user", "content": "x"}, {"role": "assistant", "content": "y"}]',
    '[NaN, Infinity, -Infinity, 1]',
    ' \t\n\r 5',
    `[${'['.repeat(62)}1${']'.repeat(62)}]`,
  ];
  let answered = 0;
  for (const value of values) {
    answered += agree(value, [Buffer.byteLength(value)]);
    // and as a prefix of more bytes (the end is where the value stops, not `e`)
    const longer = `${value}, 7]`;
    answered += agree(longer, [Buffer.byteLength(longer)]);
  }
  // The WebAssembly answered for every one of them (so the fast path is what was tested).
  assert.equal(answered, values.length * 2 * FILLS.length);
});

test('skipValue (wasm): malformed values are left to the JS, which reports them', () => {
  const bad = [
    '01',
    '-01',
    '1.',
    '.5',
    '-',
    '--1',
    '1e',
    '1e+',
    '1.e5',
    '+1',
    '-NaN',
    'nan',
    'Inf',
    '-Infinit',
    'NaNa',
    'tru',
    'nul',
    'fals',
    'True',
    '"unterminated',
    '"bad escape \\x"',
    '"bad unicode \\u12g4"',
    '"control \u0001 char"',
    '"tab \t inside"',
    '[1, 2',
    '[1, 2,]',
    '[1 2]',
    '{"a" 1}',
    '{"a": }',
    '{a: 1}',
    '{"a": 1,}',
    '[1}',
    '{"a": 1]',
    '',
    '   ',
    ']',
    '[-]',
    '[1, -]',
    '[0.5.5]',
    '[1, 05]',
  ];
  for (const value of bad) {
    const bytes = Buffer.from(value, 'utf8');
    assert.equal(typeof jsEnd(bytes, bytes.length) === 'string' || jsEnd(bytes, bytes.length) !== bytes.length, true, value);
    agree(value);
  }
  // Malformed UTF-8 in strings: overlong, surrogates, beyond U+10FFFF, truncated, stray continuation.
  const utf8 = [
    [0xc0, 0x80],
    [0xc1, 0xbf],
    [0xe0, 0x80, 0x80],
    [0xed, 0xa0, 0x80],
    [0xf0, 0x80, 0x80, 0x80],
    [0xf4, 0x90, 0x80, 0x80],
    [0xf5, 0x80, 0x80, 0x80],
    [0xe2, 0x9c],
    [0x80],
    [0xff],
  ];
  for (const seq of utf8) agree(Buffer.concat([Buffer.from('["a'), Buffer.from(seq), Buffer.from('b", 1]')]));
});

test('skipValue (wasm): every value cut at every byte agrees with the JS', () => {
  const line = `{"tokens": [70392, 53289, 7290], "log": [-0.148509, -1.5e-06, 2E+3, -0, 0.5, NaN], "p": [{"role": "user", "content": "é \\u00e9 \\n"}], "n": null, "t": true, "f": false, "e": {}, "x": -Infinity}`;
  const answered = agree(line);
  assert.ok(answered > 0);
});

test('skipValue (wasm): nesting deeper than 64 levels is left to the JS, which skips it', () => {
  for (const depth of [63, 64, 65, 200]) {
    const value = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    const bytes = Buffer.from(value);
    const b = inWasm(bytes, 3, 0x5d);
    const got = wasmRoutinesOf(b)!.skipValue(b.byteOffset, b.byteOffset + bytes.length);
    assert.equal(got === -1, depth > 64, `depth ${depth}`);
    assert.equal(skipValue(b, 0, bytes.length), bytes.length);
  }
});

test('skipValue (wasm, property): random JSON, mutated, agrees with the JS', () => {
  const json = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v, null, [0, 1, 2][Math.abs(JSON.stringify(v).length) % 3]));
  const number = fc
    .tuple(fc.boolean(), fc.integer({ min: 0, max: 99999 }), fc.option(fc.integer({ min: 0, max: 999999 })), fc.option(fc.integer({ min: -20, max: 20 })))
    .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac !== null ? `.${frac}` : ''}${exp !== null ? `e${exp}` : ''}`);
  const numbers = fc.array(number, { minLength: 1, maxLength: 40 }).map((ns) => `[${ns.join(', ')}]`);
  const mutation = fc.tuple(
    fc.nat(),
    fc.constantFrom('', '0', '1', '-', '.', ',', ' ', 'e', 'E', '+', ']', '}', '[', '{', '"', ':', '\\', 'u', 'N', 'I', '\u0001', '\u00e9', '\ud83d'),
    fc.boolean(),
  );
  fc.assert(
    fc.property(fc.oneof(json, numbers), fc.array(mutation, { maxLength: 3 }), (text, mutations) => {
      let s = text;
      for (const [at, ch, replace] of mutations) {
        const k = at % Math.max(1, s.length);
        s = s.slice(0, k) + ch + s.slice(replace ? k + 1 : k);
      }
      const bytes = Buffer.from(s, 'utf8');
      agree(bytes, [bytes.length, Math.max(0, bytes.length - 1), bytes.length >> 1]);
    }),
    { numRuns: 5000 },
  );
});
