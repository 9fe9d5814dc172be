// The WebAssembly numeric-array validator (numberRun.wat) against the scanner's JS loop: the same
// line in a plain buffer and in WebAssembly memory must scan to the same result, error reason and
// position included, and to JSON.parse's verdict on validity.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';

import { buildRule } from '../../../server/src/core/formats/rule';
import { parseByRule } from '../../../server/src/core/reader/ruleParse';
import { runSkipperOf, lineBuffer } from '../../../server/src/core/reader/lineBuffers';

const RULE = buildRule({});
const root = join(__dirname, '../../../..');

/** `text` at byte `offset` of a WebAssembly-backed view (so the memory offset is not the view's 0). */
function inWasm(bytes: Uint8Array, offset: number): Uint8Array {
  const view = lineBuffer(bytes.length + offset + 64).subarray(offset);
  view.fill(0x31); // digits after the line: a validator reading past its end would go on
  view.set(bytes);
  return view;
}

function agree(text: string | Uint8Array, offset = 0): boolean {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'latin1') : Buffer.from(text);
  const plain = parseByRule(bytes, 0, bytes.length, RULE);
  const wasm = parseByRule(inWasm(bytes, offset), 0, bytes.length, RULE);
  assert.deepEqual(wasm, plain, JSON.stringify(bytes.toString('latin1')));
  let valid = true;
  try {
    JSON.parse(bytes.toString('latin1'));
  } catch {
    valid = false;
  }
  // Python's NaN/Infinity are the scanner's only extension; these tests do not write them.
  assert.equal(plain.ok, valid, JSON.stringify(bytes.toString('latin1')));
  return plain.ok;
}

test('wasm: numberRunWasm.ts, zlibMatchesWasm.ts and bootstrapDrawsWasm.ts are what their .wat files assemble to (npm run build:wasm)', () => {
  const r = spawnSync(process.execPath, [join(root, 'scripts/build-wasm.mjs'), '--check'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr + r.stdout);
});

test('numberRun: line buffers are WebAssembly memory on Node (the fast path is on), plain buffers are not', () => {
  assert.notEqual(runSkipperOf(lineBuffer(1000)), null);
  assert.notEqual(runSkipperOf(lineBuffer(1000).subarray(10)), null);
  assert.equal(runSkipperOf(Buffer.alloc(1000)), null);
});

test('numberRun: a long log-prob array, broken at every byte by every kind of byte, scans alike in both buffers', () => {
  const nums = Array.from({ length: 24 }, (_, k) => (k % 5 === 0 ? String(k * 1013) : (-(k + 0.5) / 7).toString()));
  const base = Buffer.from(`{"a": [${nums.join(', ')}], "b": 1}`);
  const from = base.indexOf('[') + 1;
  const breakers = ',. -0123e+E]\t\n"x\u0000\u00ff'.split('').map((ch) => ch.charCodeAt(0));
  let valid = 0;
  for (let at = from; at < base.length - 12; at++) {
    for (const byte of breakers) {
      for (const replace of [false, true]) {
        const bytes = Buffer.concat([base.subarray(0, at), Buffer.from([byte]), base.subarray(replace ? at + 1 : at)]);
        if (agree(bytes, at % 32)) valid++;
      }
    }
  }
  // Both kinds were tried: many breaks are still valid JSON (a digit for a digit), most are not.
  assert.ok(valid > 200, `valid variants: ${valid}`);
});

test('numberRun: each rule, with the bytes it looks at on either side of every 32-byte block edge', () => {
  // The run is read in blocks from just after the first number; a number of k digits before the
  // snippet moves it across all 32 block positions (twice).
  const snippets = [
    '.5.5',
    '.55555555555555555555.5',
    // fraction digits through more than a whole block: the carry goes on across block edges
    `.${'5'.repeat(140)}.5`,
    '.5',
    ', 05',
    ', -05',
    ', 0.5',
    ', 0',
    ', -0',
    ', -',
    ', - 1',
    ' , 1',
    ',,',
    ', .5',
    '.',
    ', 5e3',
    ', 5e3.5',
    ',  5',
    ', \t5',
    ', 1, 2',
    // exponents: `skipRun` reads the pair itself and goes on after it, or leaves it to JS
    ', 5e-3',
    ', -4e-06, -7e-05',
    ', 5E+12',
    ', 5e',
    ', 5e+',
    ', 5e-',
    ', 0e5',
    ', 05e1',
    ', -0e-0',
    ', 5.e3',
    ', 5.5e3.5',
    ', 5e3e3',
    ', 5e3-',
    ', 5e03',
    ', 5e-3]',
    ', -1.5e-3 ',
  ];
  for (const snippet of snippets) {
    // (and enough after it that the block holding it is not the line's tail, left to JS)
    for (let k = 1; k <= 72; k++) agree(`{"a": [5, ${'1'.repeat(k)}${snippet}, ${'7, '.repeat(40)}9]}`, k % 7);
  }
});

test('numberRun: each rule at every block edge, in the blocks that take exponents (after exponents close together)', () => {
  // Eight exponents in a row switch `skipRun` to `skipRunE`; the snippet then moves across its
  // block edges as above, with exponents after it too.
  const snippets = [
    '.5.5',
    `.${'5'.repeat(70)}.5`,
    'e5.5',
    'e5e5',
    'e-5.5',
    `e${'5'.repeat(70)}.5`,
    `e+${'5'.repeat(70)}e5`,
    'e05',
    'e-0',
    ', 05',
    ', 0e05',
    ', -0e-05',
    ', 5e',
    ', 5e+',
    ', 5e-,',
    ', 5e+-5',
    ', 5e--5',
    ', 5.e5',
    ', -e5',
    ', +5',
    ', 5E5',
    ', 5E+5',
    ', 5e 5',
    ' e5',
    ', 5ee5',
    ', 5e5-',
    ', 5e5+',
    ', 5.5e5.5',
    ', 5-5',
    ', 5e-5, -4e-06, 1E+2',
  ];
  const dense = '-1e-05, '.repeat(8);
  for (const snippet of snippets) {
    for (let k = 1; k <= 72; k++) agree(`{"a": [5, ${dense}${'1'.repeat(k)}${snippet}, ${'-7e-07, '.repeat(20)}9]}`, k % 7);
  }
});

test('numberRun (property): mutated numeric arrays scan alike in a plain buffer and in WebAssembly memory', () => {
  const digits = (max: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: max }).map((ds) => ds.join(''));
  const number = fc
    .tuple(fc.boolean(), digits(8), fc.option(digits(19)), fc.option(fc.tuple(fc.constantFrom('e', 'E+', 'e-'), digits(3))))
    .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}${exp ? exp[0] + exp[1] : ''}`);
  const separator = fc.constantFrom(', ', ', ', ', ', ',', ' ,', ',  ', ',\t', ',,');
  const array = fc
    .array(fc.tuple(number, separator), { minLength: 1, maxLength: 60 })
    .map((pairs) => `{"a": [${pairs.map(([n, s], k) => (k === 0 ? n : s + n)).join('')}]}`);
  const mutation = fc.tuple(fc.nat(), fc.constantFrom('', '0', '1', '-', '.', ',', ' ', 'e', ']', '"'), fc.boolean());
  fc.assert(
    fc.property(array, fc.array(mutation, { maxLength: 3 }), fc.nat(31), (text, mutations, offset) => {
      let s = text;
      for (const [at, ch, replace] of mutations) {
        const k = 6 + (at % Math.max(1, s.length - 6));
        s = s.slice(0, k) + ch + s.slice(replace ? k + 1 : k);
      }
      agree(s, offset);
    }),
    { numRuns: 10000 },
  );
});

test('numberRun: a line cut inside a long run is invalid even when the memory goes on with digits', () => {
  const nums = Array.from({ length: 40 }, (_, k) => (k + 1) * 7);
  const whole = Buffer.from(`{"a": [${nums.join(', ')}, 3]}`);
  const bytes = inWasm(whole, 3);
  for (let end = 8; end < whole.length - 2; end++) {
    assert.equal(parseByRule(bytes, 0, end, RULE).ok, false, `cut at ${end}`);
  }
  assert.equal(parseByRule(bytes, 0, whole.length, RULE).ok, true);
});

test('numberRun: a line cut inside a run with exponents is invalid even when the memory goes on with digits', () => {
  // Every fourth number has an exponent, so the cut falls inside one, after one and before one.
  const nums = Array.from({ length: 40 }, (_, k) => (k % 4 === 3 ? `-${k}e-0${k % 10}` : `-0.${k + 1}7`));
  const whole = Buffer.from(`{"a": [${nums.join(', ')}, 3]}`);
  for (const offset of [3, 17]) {
    const bytes = inWasm(whole, offset);
    for (let end = 8; end < whole.length - 2; end++) {
      assert.equal(parseByRule(bytes, 0, end, RULE).ok, false, `cut at ${end}`);
      assert.deepEqual(parseByRule(bytes, 0, end, RULE), parseByRule(whole, 0, end, RULE), `cut at ${end}`);
    }
    assert.equal(parseByRule(bytes, 0, whole.length, RULE).ok, true);
  }
});

/** `agree` for any bytes (UTF-8 in strings): validity as a strict UTF-8 decode plus JSON.parse says. */
function agreeUtf8(bytes: Uint8Array, offset: number): boolean {
  const plain = parseByRule(Buffer.from(bytes), 0, bytes.length, RULE);
  const wasm = parseByRule(inWasm(bytes, offset), 0, bytes.length, RULE);
  assert.deepEqual(wasm, plain, JSON.stringify(Buffer.from(bytes).toString('latin1')));
  let valid = true;
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    valid = false;
  }
  assert.equal(plain.ok, valid, JSON.stringify(Buffer.from(bytes).toString('latin1')));
  return plain.ok;
}

test('skipText: a long string, broken at every byte by every kind of byte, scans alike in both buffers', () => {
  // `response` under 1024 bytes is built as text (its value compared too), `other` is skipped.
  for (const key of ['response', 'other']) {
    const base = Buffer.from(`{"${key}": "${'The sum is 7 so x = 3; '.repeat(4)}é and 日本 ${'abc def '.repeat(8)}", "b": 1}`);
    const from = base.indexOf('": "') + 4;
    const breakers = [0x22, 0x5c, 0x00, 0x1f, 0x7f, 0x80, 0xc3, 0xe6, 0xff, 0x20, 0x61, 0x6e];
    let valid = 0;
    for (let at = from; at < base.length - 12; at++) {
      for (const byte of breakers) {
        for (const replace of [false, true]) {
          const bytes = Buffer.concat([base.subarray(0, at), Buffer.from([byte]), base.subarray(replace ? at + 1 : at)]);
          if (agreeUtf8(bytes, at % 16)) valid++;
        }
      }
    }
    assert.ok(valid > 200, `valid variants: ${valid}`);
  }
});

test('maskRun: a 0/1 loss mask, broken at every byte by every kind of byte, sums alike in both buffers', () => {
  const mask = Array.from({ length: 70 }, (_, k) => (k % 3 === 2 || k % 11 === 0 ? 0 : 1));
  const base = Buffer.from(`{"loss_mask": [${mask.join(', ')}], "b": 1}`);
  const from = base.indexOf('[') + 1;
  const breakers = ',. -01023e]\t"x'.split('').map((ch) => ch.charCodeAt(0));
  let valid = 0;
  for (let at = from; at < base.length - 10; at++) {
    for (const byte of breakers) {
      for (const replace of [false, true]) {
        const bytes = Buffer.concat([base.subarray(0, at), Buffer.from([byte]), base.subarray(replace ? at + 1 : at)]);
        if (agree(bytes, at % 16)) valid++;
      }
    }
  }
  assert.ok(valid > 200, `valid variants: ${valid}`);
  const whole = parseByRule(inWasm(base, 5), 0, base.length, RULE);
  assert.ok(whole.ok);
  assert.equal((whole.value as Record<string, unknown>).loss_mask, mask.filter((v) => v === 1).length);
});

test('maskRun (property): random 0/1 masks with odd items sum as in a plain buffer', () => {
  const item = fc.constantFrom('0', '1', '1', '1', '0', '1', '2', '10', '1.0', '-0', '1e0', 'NaN');
  const separator = fc.constantFrom(', ', ', ', ', ', ', ', ',', ' , ', ',  ', ',\t');
  const array = fc
    .array(fc.tuple(item, separator), { minLength: 1, maxLength: 120 })
    .map((pairs) => `{"loss_mask": [${pairs.map(([n, s], k) => (k === 0 ? n : s + n)).join('')}], "x": 2}`);
  fc.assert(
    fc.property(array, fc.nat(31), (text, offset) => {
      agreeUtf8(Buffer.from(text.replace(/NaN/g, '0')), offset);
      const bytes = Buffer.from(text);
      assert.deepEqual(parseByRule(inWasm(bytes, offset), 0, bytes.length, RULE), parseByRule(bytes, 0, bytes.length, RULE), text);
    }),
    { numRuns: 5000 },
  );
});
