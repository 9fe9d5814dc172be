// zlibLength (server/src/core/reader/zlibLength.ts) must give what a fresh pako stream gives
// (pako's one-shot deflate), whatever came before it: at level 9 from the WebAssembly matches of
// zlibMatches.wat sized by zlibBlocks.ts, elsewhere from one reused pako stream per level. The
// lengths themselves are pinned against CPython's zlib in textTail.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { deflate } from 'pako/lib/deflate';
import { ZlibSizer } from '../../../server/src/core/reader/zlibLength';
import { AFTER_LAST } from '../../../server/src/core/reader/zlibBlocks';
import { giveBackMatcher, Level9Matcher, type Level9Tokens, MAX_MATCH_INPUT, takeMatcher } from '../../../server/src/core/reader/zlibMatches';

/** One sizer and one matcher for the file's tests, reused call after call as a scan's are. */
const sizer = new ZlibSizer();
const matcher = new Level9Matcher();

const WORDS = 'the of to and a in is it you that he was for on are with as I his they be at one have this'.split(' ');
const CJK =
  '的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴'.split(
    '',
  );

/** A deterministic generator of 32-bit values from a seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0);
}

/**
 * Bytes of the kinds a response tail can be, and of the kinds that reach each of zlib's rules:
 * English-like words, one repeated phrase, random bytes (literals, stored blocks, full blocks of
 * 16 383 tokens), all zeros, Chinese text (3-byte UTF-8), two letters at random (long hash chains,
 * so the 4096 and 1024 entry limits), and a block repeated more than 32 506 bytes later (the
 * window's limit).
 */
const input = fc
  .record({ kind: fc.integer({ min: 0, max: 6 }), length: fc.integer({ min: 0, max: 70_000 }), seed: fc.integer() })
  .map(({ kind, length, seed }) => {
    const next = rng(seed);
    const out = new Uint8Array(length);
    if (kind === 0 || kind === 4) {
      const words = kind === 0 ? WORDS : CJK;
      const parts: string[] = [];
      let size = 0;
      while (size < length) {
        const w = words[next() % words.length];
        parts.push(w);
        size += Buffer.byteLength(w) + (kind === 0 ? 1 : 0);
      }
      out.set(Buffer.from(parts.join(kind === 0 ? ' ' : '')).subarray(0, length));
    } else if (kind === 1) {
      const phrase = Buffer.from(`step ${seed} again, `);
      for (let i = 0; i < length; i++) out[i] = phrase[i % phrase.length];
    } else if (kind === 2) {
      for (let i = 0; i < length; i++) out[i] = next() >>> 24;
    } else if (kind === 5) {
      for (let i = 0; i < length; i++) out[i] = next() & 0x8000_0000 ? 0x61 : 0x62;
    } else if (kind === 6) {
      const block = Buffer.from(Array.from({ length: 600 }, () => WORDS[next() % WORDS.length]).join(' ')).subarray(0, 2000);
      for (let i = 0; i < length; i++) out[i] = i < 2000 ? block[i] : i >= 34_000 && i < 36_000 ? block[i - 34_000] : next() >>> 24;
    }
    return out;
  });

test('zlibLength: every call equals a fresh stream, in any order of inputs and levels', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(input, fc.constantFrom(1, 6, 9)), { minLength: 2, maxLength: 6 }), (calls) => {
      for (const [bytes, level] of calls) assert.equal(sizer.length(bytes, level), deflate(bytes, { level }).length);
    }),
    { numRuns: 40, seed: 20261202 },
  );
});

test('zlibLength: level 9 up to the WebAssembly limit equals a fresh stream, every kind of input', () => {
  fc.assert(
    fc.property(
      input.filter((b) => b.length <= MAX_MATCH_INPUT),
      (bytes) => {
        assert.notEqual(matcher.tokens(bytes), null, 'the WebAssembly matches run here');
        assert.equal(sizer.length(bytes, 9), deflate(bytes, { level: 9 }).length);
      },
    ),
    { numRuns: 150, seed: 20261203 },
  );
});

test('zlibLength: level 9 around the edges: tiny inputs, full blocks, a stored block on the boundary, the limit itself', () => {
  const next = rng(7);
  const random = (n: number) => Uint8Array.from({ length: n }, () => next() >>> 24);
  const cases = [
    new Uint8Array(0),
    Uint8Array.of(1),
    Uint8Array.of(1, 2),
    Uint8Array.of(1, 2, 3),
    Buffer.from('aaaa'),
    Buffer.from('abcabcabc'),
    // Random bytes are nearly all literals: 16 383 tokens fill a block, with or without a last pending literal.
    random(16_382),
    random(16_383),
    random(16_384),
    random(16_385),
    random(32_767),
    random(MAX_MATCH_INPUT),
    new Uint8Array(MAX_MATCH_INPUT),
    new Uint8Array(MAX_MATCH_INPUT + 1),
    // 52 random bytes whose stored block (with its 4 length bytes) is exactly as long as the coded one: zlib stores it.
    Buffer.from('386540a900d1ceb156d956479201ba25948d842f501506a14c6f6423609baa01920906c54a89782b822bc88f224f98911a0bc42d', 'hex'),
  ];
  for (const bytes of cases) assert.equal(sizer.length(bytes, 9), deflate(bytes, { level: 9 }).length, `${bytes.length} bytes`);
});

/** `n` seeded random bytes. */
function randomBytes(n: number, seed: number): Uint8Array {
  const next = rng(seed);
  return Uint8Array.from({ length: n }, () => next() >>> 24);
}

/** 40 three-byte matches `distance` back, each between random bytes (zlib drops such a match beyond 4096). */
function threeByteMatches(distance: number): Uint8Array {
  const out = randomBytes(40 * 300 + distance + 300, distance);
  for (let j = 0; j < 40; j++) out.copyWithin(j * 300 + distance, j * 300, j * 300 + 3);
  return out;
}

/**
 * A long match whose only source is `entries` back on its 3-byte hash chain: a 100-byte phrase,
 * then `entries - 2` copies of its second to fourth bytes each followed by a random byte, then the
 * phrase's first `near` bytes (behind a byte that differs, a short match near by), then the phrase
 * behind another byte. At the last phrase's first byte the near copy matches `near` bytes; at its
 * second the old phrase would match 99, `entries` deep on the chain: found when the walk goes that
 * far (4096 entries, or 1024 when the previous match is 32 or longer).
 */
function deepMatch(entries: number, near: number): Uint8Array {
  const phrase = randomBytes(100, entries * 1000 + near);
  const parts: Uint8Array[] = [Uint8Array.of(1), phrase.subarray(1)];
  const filler = randomBytes(entries, near);
  for (let j = 0; j < entries - 2; j++) parts.push(Uint8Array.of(phrase[1], phrase[2], phrase[3], filler[j] | 0x80));
  parts.push(Uint8Array.of(2), phrase.subarray(0, near), Uint8Array.of(3), phrase);
  return Buffer.concat(parts);
}

/** A 200-byte phrase repeated `distance` bytes later; with `nearCopy`, a 3-byte copy of its start also sits just before. */
function farMatch(distance: number, nearCopy: boolean): Uint8Array {
  const out = randomBytes(distance + 400, distance);
  out.copyWithin(distance + 100, 100, 300);
  if (nearCopy) out.copyWithin(distance + 50, 100, 103);
  return out;
}

/**
 * Matches of 257 and 258 bytes to one phrase, the 258 older: zlib takes it, as it stops early only
 * at 258, the longest a match can be. With `after257`, the byte before the phrase starts a match of
 * 257 too: zlib still searches at the phrase (it does so after any match shorter than 258) and
 * takes the 258 there. (Position 0 is never a match: the phrase starts at 1.) Eight such phrases,
 * so that a wrong choice changes the length by more than the bits a byte rounds away.
 */
function longMatches(after257: boolean): Uint8Array {
  return Buffer.concat(Array.from({ length: 8 }, (_, seed) => longMatchesOf(randomBytes(300, seed), after257)));
}

function longMatchesOf(phrase: Uint8Array, after257: boolean): Uint8Array {
  const mismatch = (b: number) => Uint8Array.of(b ^ 0xff);
  const parts = [Uint8Array.of(6), phrase, Uint8Array.of(7), phrase.subarray(0, 257), mismatch(phrase[257])];
  if (after257) parts.push(Uint8Array.of(8, 9), phrase.subarray(0, 256), mismatch(phrase[256]), Uint8Array.of(9));
  else parts.push(Uint8Array.of(8));
  parts.push(phrase);
  return Buffer.concat(parts);
}

test("zlibLength: level 9 at the edges of zlib's rules (longest match, drop distance, chain limits, window limit)", () => {
  const cases: [string, Uint8Array][] = [];
  cases.push(['matches of 257 and 258 bytes', longMatches(false)], ['the same after a match of 257', longMatches(true)]);
  for (const d of [4095, 4096, 4097]) cases.push([`3-byte matches ${d} back`, threeByteMatches(d)]);
  for (const entries of [1023, 1024, 1025, 4095, 4096, 4097]) {
    for (const near of [31, 32, 33]) cases.push([`match ${entries} entries deep after ${near}`, deepMatch(entries, near)]);
  }
  for (const d of [32_505, 32_506, 32_507]) {
    cases.push([`match ${d} back`, farMatch(d, false)]);
    cases.push([`match ${d} back behind a near one`, farMatch(d, true)]);
  }
  for (const [name, bytes] of cases) {
    assert.ok(bytes.length <= MAX_MATCH_INPUT, name);
    assert.equal(sizer.length(bytes, 9), deflate(bytes, { level: 9 }).length, name);
  }
});

test('zlibMatches: the tokens spell the input back (literals, and copies from where they point)', () => {
  fc.assert(
    fc.property(
      input.filter((b) => b.length <= MAX_MATCH_INPUT),
      (bytes) => {
        const m = matcher.tokens(bytes)!;
        const back = new Uint8Array(bytes.length);
        let pos = 0;
        for (let i = 0; i < m.count; i++) {
          const token = m.tokens[i] & ~AFTER_LAST;
          const dist = token >>> 8;
          if (dist === 0) back[pos++] = token & 0xff;
          else {
            const length = (token & 0xff) + 3;
            assert.ok(dist <= 32_506 && dist <= pos, `distance ${dist} at ${pos}`);
            for (let k = 0; k < length; k++, pos++) back[pos] = back[pos - dist];
          }
        }
        assert.equal(pos, bytes.length);
        assert.deepEqual(back, bytes);
      },
    ),
    { numRuns: 60, seed: 20261204 },
  );
});

test('zlibLength: a short input after a long one of other bytes (no byte of the window carried over)', () => {
  const long = Buffer.from('abcdefgh'.repeat(8000));
  const short = Buffer.from('abcdefg');
  for (const level of [6, 9]) {
    const fresh = deflate(short, { level }).length;
    sizer.length(long, level);
    assert.equal(sizer.length(short, level), fresh);
    assert.equal(sizer.length(new Uint8Array(0), level), deflate(new Uint8Array(0), { level }).length);
  }
});

/** The bytes `m`'s tokens spell. */
function spelt(m: Level9Tokens, length: number): Uint8Array {
  const back = new Uint8Array(length);
  let pos = 0;
  for (let i = 0; i < m.count; i++) {
    const token = m.tokens[i] & ~AFTER_LAST;
    const dist = token >>> 8;
    if (dist === 0) back[pos++] = token & 0xff;
    else for (let k = 0, n = (token & 0xff) + 3; k < n; k++, pos++) back[pos] = back[pos - dist];
  }
  return back;
}

test('ZlibSizer, Level9Matcher: two used in turn keep their own streams, memory and stamps', () => {
  const inputs = [Buffer.from('abcdefgh'.repeat(4000)), Buffer.from('the quick brown fox '.repeat(900)), Buffer.from('xyz'), new Uint8Array(0)];
  const mine = new ZlibSizer();
  const theirs = new ZlibSizer();
  for (const level of [6, 9]) {
    for (let k = 0; k < inputs.length; k++) {
      const a = inputs[k];
      const b = inputs[inputs.length - 1 - k];
      assert.equal(mine.length(a, level), deflate(a, { level }).length);
      assert.equal(theirs.length(b, level), deflate(b, { level }).length);
    }
  }
  // One matcher's tokens are a view of its own memory: another's call does not overwrite them.
  const first = new Level9Matcher();
  const second = new Level9Matcher();
  const x = inputs[0];
  const y = inputs[1];
  const mx = first.tokens(x)!;
  const my = second.tokens(y)!;
  assert.deepEqual(spelt(mx, x.length), new Uint8Array(x));
  assert.deepEqual(spelt(my, y.length), new Uint8Array(y));
});

test('takeMatcher: a matcher given back is the next one taken, its stamps carried on from call to call', () => {
  const a = takeMatcher();
  const b = takeMatcher();
  assert.notEqual(a, b, 'a matcher taken is not handed out again before it is given back');
  giveBackMatcher(b);
  giveBackMatcher(a);
  assert.equal(takeMatcher(), a);
  assert.equal(takeMatcher(), b);
  // Calls of other callers in between: each input's tokens still spell it out, as a fresh matcher's do.
  const inputs = [Buffer.from('abcabcabd'.repeat(500)), Buffer.from('zzzz'.repeat(3000)), Buffer.from('abcabcabd'.repeat(500))];
  for (const [k, x] of inputs.entries()) {
    const m = k % 2 === 0 ? a : b;
    const got = m.tokens(x)!;
    assert.deepEqual(spelt(got, x.length), new Uint8Array(x));
    const fresh = new Level9Matcher().tokens(x)!;
    assert.deepEqual(got.tokens.subarray(0, got.count), fresh.tokens.subarray(0, fresh.count));
  }
  giveBackMatcher(a);
  giveBackMatcher(b);
});
