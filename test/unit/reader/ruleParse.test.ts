import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

import { MAX_BUILT_SCALARS, parseByRule, RuleParser } from '../../../server/src/core/reader/ruleParse';
import { intLiteral, type Rule, Skipped } from '../../../server/src/core/reader/jsonRule';
import { buildRule } from '../../../server/src/core/formats/rule';

const RULE = buildRule({});
/** Builds every scalar at the top level and in every object (for comparing with JSON.parse). */
const ALL: Rule = { scalars: true, maxString: Infinity, children: null };

function scan(text: string, rule: Rule = RULE) {
  const bytes = Buffer.from(text);
  return parseByRule(bytes, 0, bytes.length, rule);
}

function value(text: string, rule: Rule = RULE): Record<string, unknown> {
  const r = scan(text, rule);
  assert.ok(r.ok, `expected valid: ${text} (${r.ok ? '' : r.reason})`);
  return r.value as Record<string, unknown>;
}

test('scanner: Python NaN, Infinity and -Infinity are numbers (json.dumps writes them)', () => {
  const v = value('{"a": NaN, "b": Infinity, "c": -Infinity, "d": [NaN, -Infinity, 1]}');
  assert.ok(Number.isNaN(v.a));
  assert.equal(v.b, Infinity);
  assert.equal(v.c, -Infinity);
  assert.ok(v.d instanceof Skipped);
});

test('scanner: -NaN, nan, inf and Infinit are not numbers', () => {
  for (const bad of ['{"a": -NaN}', '{"a": nan}', '{"a": inf}', '{"a": Infinit}', '{"a": +1}']) {
    assert.equal(scan(bad).ok, false, bad);
  }
});

test('scanner: an integer literal is remembered as int, 1.0 and 1e0 as float (zero_std_1 vs zero_std_1.0)', () => {
  const v = value('{"reward": 1, "r2": 1.0, "r3": 1e0, "r4": -0, "nested": {"x": 2}}');
  assert.equal(intLiteral(v, 'reward'), '1');
  assert.equal(intLiteral(v, 'r2'), null);
  assert.equal(intLiteral(v, 'r3'), null);
  assert.equal(intLiteral(v, 'r4'), '-0');
  const obj = value('{"reward": {"acc": 1, "fmt": 0.0}}').reward;
  assert.equal(intLiteral(obj, 'acc'), '1');
  assert.equal(intLiteral(obj, 'fmt'), null);
});

test('scanner: integers beyond 2^53 keep their exact literal text', () => {
  const v = value('{"group_index": 9007199254740993}');
  assert.equal(intLiteral(v, 'group_index'), '9007199254740993');
});

test('scanner: builds top-level scalars and metadata/reward/metrics objects; skips arrays and other objects', () => {
  const v = value(
    '{"group_index": 3, "status": "aborted", "tokens": [1, 2, 3], "metadata": {"exit_status": "X", "agent_metrics": {"t": 1}}, "spec_info": {"a": 1}}',
  );
  assert.equal(v.group_index, 3);
  assert.equal(v.status, 'aborted');
  assert.ok(v.tokens instanceof Skipped && v.tokens.kind === 'array');
  const meta = v.metadata as Record<string, unknown>;
  assert.equal(meta.exit_status, 'X');
  assert.ok(meta.agent_metrics instanceof Skipped && meta.agent_metrics.kind === 'object');
  assert.ok(v.spec_info instanceof Skipped && v.spec_info.kind === 'object');
});

test('scanner: prompt identity is a hash of the raw JSON text, equal for equal prompts', () => {
  const a = value('{"prompt": [{"role": "user", "content": "hi"}]}').prompt as Skipped;
  const b = value('{"x": 1, "prompt": [{"role": "user", "content": "hi"}]}').prompt as Skipped;
  const c = value('{"prompt": [{"role": "user", "content": "hj"}]}').prompt as Skipped;
  assert.match(a.hash ?? '', /^[0-9a-f]{16}$/);
  assert.equal(a.hash, b.hash);
  assert.notEqual(a.hash, c.hash);
});

test('scanner: strings longer than 1024 bytes are skipped (length kept), shorter ones built with escapes decoded', () => {
  const v = value(`{"response": "${'y'.repeat(2000)}", "label": "a\\"b\\u00e9\\n", "s": "ü"}`);
  assert.ok(v.response instanceof Skipped && v.response.byteLength === 2002);
  assert.equal(v.s, 'ü');
});

test('scanner: a __proto__ key never becomes the prototype', () => {
  const v = value('{"__proto__": {"polluted": 1}, "a": 1}');
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
  assert.equal((v as { polluted?: number }).polluted, undefined);
});

test('scanner: duplicate keys keep the last value (as JSON.parse and Python do)', () => {
  assert.equal(value('{"status": "completed", "status": "aborted"}').status, 'aborted');
});

test('scanner: 100 000 nesting levels are validated without overflowing the stack', () => {
  const deep = '{"a": ' + '['.repeat(100_000) + ']'.repeat(100_000) + ', "b": 1}';
  assert.equal(value(deep).b, 1);
  const deepObj = '{"a": ' + '{"k":'.repeat(100_000) + '1' + '}'.repeat(100_000) + '}';
  assert.ok(value(deepObj).a instanceof Skipped);
  const unbalanced = '{"a": ' + '['.repeat(100_000) + ']'.repeat(99_999) + '}';
  const r = scan(unbalanced);
  assert.equal(r.ok, false);
});

const INVALID: [string, RegExp][] = [
  ['{"a": 1,}', /expected a string key/],
  ['{"a": [1, 2,]}', /unexpected character '\]'/],
  ['{"a": 01}', /leading zero/],
  ['{"a": 1.}', /no digits after the decimal point/],
  ['{"a": 1e}', /no digits in the exponent/],
  ['{"a": "x', /unterminated string/],
  ['{"a": "\\x"}', /invalid escape/],
  ['{"a": "\\u12G4"}', /invalid escape/],
  ['{"a": "tab\there"}', /control character 0x09 in string/],
  ['{"a" 1}', /expected ':' after key/],
  ['{"a": 1} x', /unexpected data after the JSON value/],
  ['{"a": tru}', /unexpected character '}'/],
  ['{"a": [1 2]}', /expected ',' or '\]' in array/],
  ['{"a": {"b": 1 "c": 2}}', /expected ',' or '\}' in object/],
  ['{"a": 1', /expected ',' or '\}' in object, found end of line/],
  ["{'a': 1}", /expected a string key, found '''/],
  ['', /unexpected end of line/],
];

for (const [text, reason] of INVALID) {
  test(`scanner: invalid JSON ${JSON.stringify(text)} is rejected with a readable reason`, () => {
    const r = scan(text);
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.reason, reason);
  });
}

test('scanner: the error position points at the offending byte', () => {
  const r = scan('{"a": [1, 2,]}');
  assert.ok(!r.ok);
  if (!r.ok) assert.equal(r.position, 12);
});

test('scanner: a JSON array or a bare number is valid JSON (the format decides it is not a record)', () => {
  assert.ok(scan('[1, 2]').ok);
  assert.ok(scan('  42 ').ok);
  assert.ok(scan('"text"').ok);
});

test('scanner (property): agrees with JSON.parse on validity for any JSON text', () => {
  fc.assert(
    fc.property(fc.json(), (text) => {
      assert.equal(scan(text).ok, true, text);
    }),
    { numRuns: 2000 },
  );
});

test('scanner (property): agrees with JSON.parse on validity of mutated JSON texts', () => {
  const mutated = fc
    .tuple(fc.json(), fc.nat(), fc.nat(), fc.constantFrom('', ',', ']', '}', '"', '\\', '0', '-', '.', 'e', ' ', '\u0001', '[', '{', ':'))
    .map(([text, at, len, insert]) => {
      const i = at % (text.length + 1);
      return text.slice(0, i) + insert + text.slice(i + (len % 3));
    });
  fc.assert(
    fc.property(mutated, (text) => {
      let expected = true;
      try {
        JSON.parse(text);
      } catch {
        expected = false;
      }
      // NaN / Infinity are valid here but not for JSON.parse.
      if (!expected && /NaN|Infinity/.test(text)) return;
      assert.equal(scan(text).ok, expected, JSON.stringify(text));
    }),
    { numRuns: 5000 },
  );
});

test('scanner (property): built scalars equal JSON.parse for flat objects', () => {
  const scalar = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.string(), fc.boolean(), fc.constant(null));
  fc.assert(
    fc.property(
      fc.dictionary(
        fc.string().filter((k) => k !== '__proto__'),
        scalar,
      ),
      (obj) => {
        const text = JSON.stringify(obj);
        const v = value(text, ALL);
        assert.deepEqual(Object.fromEntries(Object.entries(v)), JSON.parse(text));
      },
    ),
    { numRuns: 1000 },
  );
});

// Numeric arrays run through a word-at-a-time digit skip (`digitsEnd`): runs of every length at
// every alignment, a foreign byte anywhere (next to the digit range: '/', ':', and bytes ≥ 0xfa whose
// +6 carries into the next byte), and lines cut inside a run while the buffer goes on with digits.
test('scanner (property): long digit runs in numeric arrays agree with JSON.parse, whatever byte breaks them', () => {
  // (Built from digit arrays: fc.stringMatching took minutes for these 5 000 runs.)
  const digits = fc
    .tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 29 }))
    .map(([first, rest]) => `${first}${rest.join('')}`);
  const number = fc
    .tuple(fc.boolean(), digits, fc.option(digits), fc.option(fc.tuple(fc.constantFrom('e', 'E+', 'e-'), digits)))
    .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}${exp ? exp[0] + exp[1] : ''}`);
  const line = fc
    .tuple(
      fc.string({ maxLength: 7 }).map((s) => s.replace(/[^ ]/g, ' ')),
      fc.array(number, { minLength: 1, maxLength: 12 }),
      fc.constantFrom(',', ', '),
    )
    .map(([pad, nums, sep]) => `{"a":${pad}[${nums.join(sep)}]}`);
  const breaker = fc.constantFrom(0x2f, 0x3a, 0x2e, 0x2c, 0x20, 0x2d, 0x65, 0x00, 0x7f, 0x80, 0xfa, 0xfe, 0xff);
  fc.assert(
    fc.property(line, fc.nat(), breaker, fc.boolean(), (text, at, byte, replace) => {
      const base = Buffer.from(text, 'latin1');
      const i = 6 + (at % (base.length - 7));
      const bytes = Buffer.concat([base.subarray(0, i), Buffer.from([byte]), base.subarray(replace ? i + 1 : i)]);
      let expected = true;
      try {
        JSON.parse(bytes.toString('latin1'));
      } catch {
        expected = false;
      }
      assert.equal(parseByRule(bytes, 0, bytes.length, RULE).ok, expected, JSON.stringify(bytes.toString('latin1')));
    }),
    { numRuns: 5000 },
  );
});

test('scanner: a line cut inside a long digit run is invalid even when the buffer goes on with digits', () => {
  const whole = Buffer.from('{"a": [1, 2.12345678901234567890123, 3]}\n');
  for (let end = 8; end < whole.length - 2; end++) {
    const r = parseByRule(whole, 0, end, RULE);
    assert.equal(r.ok, false, `cut at ${end}: ${whole.subarray(0, end)}`);
  }
  assert.equal(parseByRule(whole, 0, whole.length - 1, RULE).ok, true);
});

test('scanner: an object with 100 000 members builds at most MAX_BUILT_SCALARS unnamed ones (still validated), named members always', () => {
  const junk = Array.from({ length: 100_000 }, (_, k) => `"k${k}": ${k}`).join(', ');
  const v = value(`{"status": "completed", ${junk}, "metadata": {"exit_status": "X"}, "reward": 1}`);
  assert.equal(v.status, 'completed');
  assert.deepEqual(v.metadata, { exit_status: 'X' });
  assert.equal(v.reward, 1, 'reward is a named member of the rule');
  assert.equal(Object.keys(v).length, MAX_BUILT_SCALARS + 2);
  assert.equal(scan(`{"a": 1, ${junk}, "b": [1, }`).ok, false, 'members past the cap are still validated');
});

test('scanner: a repeated key takes its int-literal mark with it (the last value decides int vs float, as in Python)', () => {
  assert.equal(intLiteral(value('{"reward": 1, "reward": 1.5}'), 'reward'), null);
  assert.equal(intLiteral(value('{"reward": 1.5, "reward": 1}'), 'reward'), '1');
  assert.equal(intLiteral(value('{"reward": 1, "reward": "x", "a": 2}'), 'reward'), null);
  assert.equal(intLiteral(value('{"a": -0, "b": 123456789012345, "c": 1234567890123456789}'), 'a'), '-0');
  const v = value('{"a": -0, "b": 123456789012345, "c": 1234567890123456789, "d": -7}');
  assert.deepEqual(
    ['a', 'b', 'c', 'd'].map((k) => intLiteral(v, k)),
    ['-0', '123456789012345', '1234567890123456789', '-7'],
  );
  // eslint-disable-next-line no-loss-of-precision -- the parsed value rounds exactly as this literal does
  assert.ok(Object.is(v.a, -0) && v.d === -7 && v.c === 1234567890123456789);
});

test('scanner: escaped strings decode exactly as JSON.parse (every escape, lone surrogates, UTF-8 runs between)', () => {
  const piece = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.constantFrom('\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t', '\\ud800', '\\uDFFF', '\\u00e9', '\\u0000', '\\uD83D\\uDE00', 'é', '😀', 'x'),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      // A raw piece goes through JSON.stringify (quotes, controls, backslashes escaped); an escape piece is written as is.
      const body = pieces.map((p) => (p.startsWith('\\') ? p : JSON.stringify(p).slice(1, -1))).join('');
      const text = `{"a": "${body}", "b": ["${body}"]}`;
      assert.equal(value(text, ALL).a, (JSON.parse(text) as { a: string }).a);
    }),
    { numRuns: 500 },
  );
});

test('RuleParser: two parsers used in turn keep their own end and strings', () => {
  const rule: Rule = { scalars: true, maxString: 64, children: null };
  const a = new RuleParser();
  const b = new RuleParser();
  const first = Buffer.from('[1, 0, 1] , {"status": "completed"}');
  const second = Buffer.from('{"status": "aborted", "reward": 1.5, "tokens": [1, 2, 3, 4, 5, 6, 7]}');
  assert.equal(a.member(first, 0, first.length, 'sum', 64), 2);
  const aEnd = a.end;
  assert.equal(aEnd, 9);
  // The other parser reads a whole line between a's member and a's `end`: a's end stays a's.
  assert.deepEqual(b.parse(second, 0, second.length, rule), parseByRule(second, 0, second.length, rule));
  assert.equal(a.end, aEnd);
  const value = a.member(first, 12, first.length, rule, 64);
  assert.equal(b.end, second.length);
  assert.deepEqual({ ...(value as object) }, { status: 'completed' });
  assert.equal(a.end, first.length);
});
