// miles' has_repetition compresses the last 10 000 characters of a long response with zlib
// (docs/semantics.md#miles-sample-metrics). The engine keeps only that verdict, computed while the
// line is scanned: these tests pin the compressed lengths to Python's zlib and the tail the scanner
// finds to what json.loads + text[-10000:] give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

import { parseByRule } from '../../../server/src/core/reader/ruleParse';
import { decodeParsedValue, encodeParsedValue } from '../../../server/src/core/reader/lineParse';
import { LongString, TAIL_CHARS, textTail, stringTail } from '../../../server/src/core/reader/textTail';
import { zlibLength } from '../../../server/src/core/reader/zlibLength';
import { buildRule } from '../../../server/src/core/formats/rule';
import { repetitionOf } from '../../../server/src/core/formats/miles';

interface Case {
  seed: number;
  chars: number;
  utf8: number;
  zlib9: number;
  tail_utf8: number;
  tail_zlib9: number;
  has_repetition: boolean;
}

const CASES = (JSON.parse(readFileSync(join(__dirname, '../../../../test/fixtures/real/miles/zlib/cases.json'), 'utf8')) as { cases: Case[] }).cases;

/** xorshift32, as scripts/gen-real-fixtures.py's XorShift. */
class XorShift {
  constructor(private x: number) {}
  next(): number {
    let x = this.x;
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    this.x = x;
    return x;
  }
  int(n: number): number {
    return this.next() % n;
  }
}

const RANGES: [number, number][] = [
  [0x20, 0x7f],
  [0xa0, 0x800],
  [0x4e00, 0xa000],
  [0x1f600, 0x1f650],
];
const ESCAPED = [0x0a, 0x22, 0x5c, 0x09];

const texts = new Map<number, string>();
function randomText(seed: number): string {
  let text = texts.get(seed);
  if (text === undefined) texts.set(seed, (text = generate(seed)));
  return text;
}

/** scripts/gen-real-fixtures.py's random_text(seed), call for call. */
function generate(seed: number): string {
  const r = new XorShift(seed);
  const length = seed % 5 ? 9000 + r.int(4000) : r.int(3000);
  const repeat = r.int(11);
  const ranges = [RANGES[0]];
  for (let k = r.int(3); k > 0; k--) ranges.push(RANGES[1 + r.int(3)]);
  const out: number[] = [];
  while (out.length < length) {
    if (out.length >= 20 && r.int(10) < repeat) {
      const n = 3 + r.int(50);
      const at = r.int(out.length - 2);
      out.push(...out.slice(at, at + n));
    } else if (r.int(20) === 0) {
      out.push(ESCAPED[r.int(ESCAPED.length)]);
    } else {
      const [lo, hi] = ranges[r.int(ranges.length)];
      out.push(lo + r.int(hi - lo));
    }
  }
  return String.fromCodePoint(...out.slice(0, length));
}

/** Python's json.dumps (ensure_ascii): every non-ASCII UTF-16 unit as \uXXXX. */
function asciiJson(text: string): string {
  return JSON.stringify(text).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The tail the scanner kept for `{"response": <json>}`, and the verdict miles.ts draws from it. */
function scanned(json: string): { tail: ReturnType<typeof textTail>; verdict: unknown } {
  const bytes = Buffer.from(`{"response": ${json}}`);
  const r = parseByRule(bytes, 0, bytes.length, buildRule({}));
  assert.ok(r.ok);
  const response = (r.value as Record<string, unknown>).response;
  const tail = response instanceof LongString ? response.tail : typeof response === 'string' ? stringTail(response) : null;
  return { tail, verdict: repetitionOf(response) };
}

test('zlib: compressed lengths of 300 seeded random strings equal what Python zlib.compress(raw, 9) gave', () => {
  assert.equal(CASES.length, 300);
  for (const c of CASES) {
    const text = randomText(c.seed);
    const raw = Buffer.from(text, 'utf8');
    assert.equal(Array.from(text).length, c.chars, `seed ${c.seed}: the same string as Python's`);
    assert.equal(raw.length, c.utf8, `seed ${c.seed}`);
    // The whole text for a quarter of them (the tails below are what miles compresses).
    if (c.seed % 4 === 0) assert.equal(zlibLength(raw, 9), c.zlib9, `seed ${c.seed}: whole text`);
    const tail = Buffer.from(Array.from(text).slice(-TAIL_CHARS).join(''), 'utf8');
    assert.equal(tail.length, c.tail_utf8, `seed ${c.seed}`);
    assert.equal(zlibLength(tail, 9), c.tail_zlib9, `seed ${c.seed}: tail`);
  }
  // The set spans the threshold: repetitive and not, long and short.
  assert.ok(CASES.filter((c) => c.has_repetition).length >= 30);
  assert.ok(CASES.filter((c) => !c.has_repetition && c.chars > TAIL_CHARS).length >= 30);
});

test('zlib: the scanner finds the same tail in raw UTF-8 and in ASCII-escaped JSON, and miles verdict follows', () => {
  for (const c of CASES) {
    const text = randomText(c.seed);
    for (const json of [JSON.stringify(text), asciiJson(text)]) {
      const { tail, verdict } = scanned(json);
      if (c.chars <= TAIL_CHARS) assert.equal(tail, null, `seed ${c.seed}`);
      else assert.deepEqual(tail, { utf8Length: c.tail_utf8, deflatedLength: c.tail_zlib9, surrogates: null }, `seed ${c.seed}`);
      assert.equal(verdict, c.has_repetition, `seed ${c.seed}`);
    }
  }
});

/** What json.loads + text[-10000:] give, computed through JSON.parse (a lone surrogate: its 3 UTF-8 bytes). */
function reference(
  json: string,
): { utf8Length: number; deflatedLength: number | null; surrogates: { at: number; length: number; first: number } | null } | null {
  const chars = Array.from(JSON.parse(json) as string);
  if (chars.length <= TAIL_CHARS) return null;
  const tail = chars.slice(-TAIL_CHARS);
  let surrogates: { at: number; length: number; first: number } | null = null;
  tail.forEach((ch, i) => {
    const u = ch.charCodeAt(0);
    if (ch.length !== 1 || u < 0xd800 || u > 0xdfff) return;
    if (surrogates === null) surrogates = { at: i, length: 1, first: u };
    else if (surrogates.at + surrogates.length === i) surrogates.length++;
  });
  const bytes = Buffer.from(tail.join(''), 'utf8');
  return { utf8Length: bytes.length, deflatedLength: surrogates === null ? zlibLength(bytes, 9) : null, surrogates };
}

test('tail: escapes, backslash runs, surrogate pairs and lone surrogates near the cut (property)', () => {
  // Pieces whose JSON is tricky to read backwards: a backslash before text that looks like an
  // escape, pairs written as two escapes, lone halves, multi-byte characters.
  let long = 0;
  const piece = fc.constantFrom('\\', '\\u0041', 'u00e9', '\\\\', '"', '\n', '\ud83d\ude00', '\ud800', '\udc00', 'é', '日', 'a', 'b ', '\\ud83d');
  fc.assert(
    fc.property(fc.array(piece, { minLength: 4000, maxLength: 6000, size: 'max' }), fc.boolean(), (pieces, ascii) => {
      const text = pieces.join('');
      const json = ascii ? asciiJson(text) : JSON.stringify(text);
      const want = reference(json);
      const { tail } = scanned(json);
      // The same tail from the built string (the full scan's short strings, .pt dumps).
      assert.deepEqual(stringTail(JSON.parse(json) as string), want);
      if (want === null) return tail === null;
      long++;
      assert.deepEqual(tail, want);
      return true;
    }),
    { numRuns: 60, seed: 7 },
  );
  assert.ok(long >= 30, `${long} runs over ${TAIL_CHARS} characters`);
});

test('tail: a line of backslashes only, and a string of exactly 10 000 and 10 001 characters', () => {
  const slashes = `"${'\\\\'.repeat(30000)}"`;
  const t = textTail(Buffer.from(slashes), 1, slashes.length - 1)!;
  assert.equal(t.utf8Length, TAIL_CHARS);
  assert.equal(t.deflatedLength, zlibLength(Buffer.from('\\'.repeat(TAIL_CHARS)), 9));
  assert.equal(repetitionOf(`${'ab'.repeat(5000)}`), false);
  const ten = `"${'日'.repeat(TAIL_CHARS)}"`;
  assert.equal(textTail(Buffer.from(ten), 1, Buffer.byteLength(ten) - 1), null);
  const more = `"${'日'.repeat(TAIL_CHARS + 1)}"`;
  assert.equal(textTail(Buffer.from(more), 1, Buffer.byteLength(more) - 1)!.utf8Length, 3 * TAIL_CHARS);
  // Built strings: pairs count once, so 10 000 emoji are 20 000 UTF-16 units and no tail.
  assert.equal(stringTail('😀'.repeat(TAIL_CHARS)), null);
  assert.equal(stringTail('x' + '😀'.repeat(TAIL_CHARS))!.utf8Length, 4 * TAIL_CHARS);
  assert.equal(stringTail('😀'.repeat(TAIL_CHARS + 1))!.utf8Length, 4 * TAIL_CHARS);
  // A pair cut by the 10 000th code point from the end stays whole; a lone low half at the start counts once.
  assert.equal(stringTail('\ude00' + 'a'.repeat(TAIL_CHARS - 1)), null);
  assert.deepEqual(stringTail('b\ude00' + 'a'.repeat(TAIL_CHARS - 1))!.surrogates, { at: 0, length: 1, first: 0xde00 });
});

test('has_repetition raises on a lone surrogate in the tail: the verdict is the exception Python prints', () => {
  assert.equal(
    repetitionOf('x'.repeat(TAIL_CHARS) + '\ud800'),
    "UnicodeEncodeError: 'utf-8' codec can't encode character '\\ud800' in position 9999: surrogates not allowed",
  );
  assert.equal(
    repetitionOf('x'.repeat(TAIL_CHARS) + '\udfff\ud800y'),
    "UnicodeEncodeError: 'utf-8' codec can't encode characters in position 9997-9998: surrogates not allowed",
  );
  // Outside the tail it is never encoded.
  assert.equal(repetitionOf('\ud800' + 'ab'.repeat(TAIL_CHARS)), true);
});

test('tail: a scan worker hands the kept figures to the main thread (structured clone), verdict unchanged', () => {
  const text = 'step 1: add 2\n'.repeat(900);
  const bytes = Buffer.from(JSON.stringify({ response: text, reward: 1 }));
  const r = parseByRule(bytes, 0, bytes.length, buildRule({}));
  assert.ok(r.ok);
  const back = decodeParsedValue(structuredClone(encodeParsedValue(r.value))) as Record<string, unknown>;
  assert.ok(back.response instanceof LongString);
  assert.deepEqual(back.response, (r.value as Record<string, unknown>).response);
  assert.equal(repetitionOf(back.response), true);
});
