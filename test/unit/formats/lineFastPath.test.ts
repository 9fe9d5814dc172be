// Differential test of the per-line path of miles-sample files (`formats/milesSample/line.ts`) against the
// full path (`parseLogLine` + `normalizeRecord`): random lines as Python's json.dumps writes them and
// beyond (repeated keys, escaped keys and values, non-ASCII text, big ints, -0 / -0.0, 1e400,
// NaN / Infinity, nested and odd metadata, unknown members, other whitespace, syntax errors) must
// give identical records; a line the per-line path cannot decide alone must be left to the full
// path (null), never read differently. Then whole files through the real reader, both ways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

import { MilesLineReader } from '../../../server/src/core/formats/milesSample/line';
import { SampleStore } from '../../../server/src/core/store/sampleStore';
import { normalizeRecord } from '../../../server/src/core/formats/normalize';
import { buildRule } from '../../../server/src/core/formats/rule';
import { readNumber, numberValue } from '../../../server/src/core/reader/jsonNumber';
import { parseLogLine } from '../../../server/src/core/reader/lineParse';
import { RuleParser } from '../../../server/src/core/reader/ruleParse';
import { lineBuffer } from '../../../server/src/core/reader/lineBuffers';
import type { SampleRecord } from '../../../server/src/core/vocabulary/types';
import { DEFAULT_SETTINGS } from '../../../shared/protocol';

import { scanPath, tempDir, writeLines } from './helpers';

const LONG = JSON.stringify('y'.repeat(1100)); // longer than MAX_STRING
/** Text longer than miles' 10 000-character repetition window that does not compress well. */
const VARIED = Array.from({ length: 3000 }, (_, k) => ((k * 7919) % 10007).toString(36)).join(' ');
const INT = fc.constantFrom(
  '0',
  '7',
  '-1',
  '-0',
  '123456789012345',
  '1234567890123456',
  '12345678901234567890',
  '9007199254740993',
  '3.0',
  '2e0',
  '1.5',
  '01',
  '-',
  '1.',
  '00',
  '-01',
  '.5',
  '1.0e2',
  '-0.0',
);
const NUM = fc.constantFrom(
  '0',
  '1',
  '1.0',
  '0.0',
  '-0.0',
  '-0',
  '0.5',
  '-0.337484',
  '1e400',
  '-1e400',
  '1E-7',
  '2.5e-3',
  'NaN',
  'Infinity',
  '-Infinity',
  '12345678901234567890',
  '0.1234567890123456',
  '123456789012345.0',
  '12345678901234.5',
  '1.e5',
  '01.5',
  '1.5E2',
);
const TEXT = fc.constantFrom('"gsm8k"', '""', '"a\\nb"', '"\\u00e9t\\u00e9"', '"été"', '"日本"', '"\\ud83d\\ude00"', '"😀"', '"tab\\tq\\"x"', LONG);
const STATUS = fc.constantFrom('"completed"', '"truncated"', '"aborted"', '"pending"', '"failed"', '"done"', '"\\u0061borted"');
const OTHER = fc.constantFrom('null', 'true', 'false', '[]', '[1, 2]', '{}', '{"a": 1}', '"s"', '3', '1.5', 'NaN', LONG);
const KEYS = {
  group_index: INT,
  index: INT,
  rollout_id: INT,
  response_length: INT,
  status: STATUS,
  reward: fc.oneof(NUM, fc.constantFrom('null', '{"score": 1}', '"1"', 'true')),
  dataset: TEXT,
  data_source: TEXT,
  prompt: fc.constantFrom('"What is 2 + 2?"', '[{"role": "user", "content": "hi \\u00e9"}]', LONG, 'null', '"日本"'),
  label: fc.constantFrom('"4"', '"x\\\\y"', 'null', '17'),
  response: fc.constantFrom(
    '"\\\\boxed{4}"',
    '""',
    LONG,
    JSON.stringify('z'.repeat(10050)),
    JSON.stringify(VARIED),
    `"${VARIED.slice(0, 10400)}\\ud800 and \\u00e9"`,
    'null',
    '["a"]',
    '7',
  ),
  loss_mask: fc.constantFrom(
    '[1, 1, 0]',
    '[]',
    '[1, 0.5, NaN]',
    '["a"]',
    'null',
    '3',
    '{}',
    // A .pt dump's counted run (docs/pt.md), and objects that are not one.
    '{"$numbers": 12, "$sum": 7}',
    '{"$numbers": 12}',
    '{"$sum": 7, "$numbers": 12}',
    '{"$numbers": 12, "$sum": 7.5}',
  ),
  weight_versions: fc.constantFrom('["3"]', '["3"]', '[ "3"]', '["3", "4"]', '[1, "2"]', '[]', '[[1]]', 'null', '"v"', '["3"]]', '["3"'),
  prefix_cache_info: fc.constantFrom(
    '{}',
    '{}',
    '{"cached_tokens": 5, "total_prompt_tokens": 9}',
    '{"cached_tokens": 5, "total_prompt_tokens": 9}',
    '{"cached_tokens": 7, "total_prompt_tokens": 9}',
    '{"cached_tokens": -0, "total_prompt_tokens": 1e400}',
    '{"cached_tokens": "5"}',
    '{}}',
    'null',
    '[1]',
  ),
  metadata: fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom('null', '[]', '"m"', '1', '{}') },
    {
      weight: 4,
      arbitrary: fc
        .subarray([
          ['exit_status', fc.oneof(TEXT, fc.constantFrom('"Submitted"', '"TimeLimitExceeded"', 'null', '3'))],
          ['dataset', TEXT],
          ['dataset_name', TEXT],
          ['instance_id', fc.oneof(TEXT, INT)],
          ['reward', fc.constantFrom('{"score": 1}', '2')],
          ['other', OTHER],
          ['exit_status', fc.constantFrom('"Repeated"', '""')],
        ] as [string, fc.Arbitrary<string>][])
        .chain((pairs) => fc.tuple(...pairs.map(([k, v]) => v.map((x) => `${JSON.stringify(k)}: ${x}`))))
        .map((parts) => `{${parts.join(', ')}}`),
    },
  ),
  // Members no format reads, and ones spelled with escapes.
  tokens: fc.constantFrom('[1, 2, 3]', '[]'),
  rollout_log_probs: fc.constantFrom('[-0.5, -1.25e-05, NaN]', '[]'),
  ['__proto__']: fc.constantFrom('1', '{"status": "aborted"}'),
  'gr\\u006fup_index': INT,
  'st\\u0061tus': STATUS,
  ステータス: TEXT,
} as Record<string, fc.Arbitrary<string>>;

/** A member: a known key (sometimes twice) with one of its values, or an unusual value. */
const member = fc
  .constantFrom(...Object.keys(KEYS))
  .chain((key) =>
    fc.oneof({ weight: 8, arbitrary: KEYS[key] }, { weight: 1, arbitrary: OTHER }).map((value) => `${JSON.stringify(key).replace(/\\\\/g, '\\')}: ${value}`),
  );
const SEPARATORS = fc.constantFrom(', ', ',', ' , ', ',\t');
/** A line: members in any order, repeats allowed; sometimes spaced oddly or broken. */
const line = fc
  .tuple(fc.array(member, { maxLength: 12 }), SEPARATORS, fc.constantFrom('', ' ', '\t'), fc.integer({ min: 0, max: 20 }))
  .map(([members, sep, pad, damage]) => {
    const text = `${pad}{${members.join(sep)}}${pad}`;
    if (damage === 0) return text.slice(0, Math.max(1, text.length - 3)); // cut short
    if (damage === 1) return `${text}x`; // trailing data
    if (damage === 2) return text.replace(':', ''); // a key without its colon
    return text;
  });

const SETTINGS = DEFAULT_SETTINGS;
const CTX = { format: 'miles-sample' as const, kind: 'rollout' as const, settings: SETTINGS, rewardKey: null, inputRun: { ids: new Map() } };

function bytesOf(text: string): Uint8Array {
  const raw = Buffer.from(text, 'utf8');
  const b = lineBuffer(raw.length + 64); // the scanner's own kind of buffer (WebAssembly memory)
  b.set(raw, 16);
  return b.subarray(0, 16 + raw.length);
}

test('the per-line path reads a miles-sample line exactly as the full path, or leaves it to it', () => {
  const rule = buildRule({});
  const reader = new MilesLineReader(rule);
  let read = 0;
  let left = 0;
  const verdicts = new Set<string>();
  fc.assert(
    fc.property(line, (text) => {
      const b = bytesOf(text);
      const info = { line: 3, offset: 100, byteLength: b.length - 16 };
      const fast = reader.read(b, 16, b.length, info);
      if (fast === null) {
        left++;
        return;
      }
      read++;
      verdicts.add(String(fast.miles?.repetition).slice(0, 18));
      const scanned = parseLogLine(b, 16, b.length, rule, false, new RuleParser());
      assert.equal(scanned.type, 'ok', text);
      const full = normalizeRecord(scanned.type === 'ok' ? scanned.value : null, info, CTX);
      assert.equal(full.type, 'sample', text);
      if (full.type !== 'sample') return;
      assert.equal(full.rewardProblem, null, text);
      assert.deepStrictEqual(fast, full.sample, text);
      // The same line written straight into a store's columns reads back as the same record.
      const store = new SampleStore();
      assert.ok(reader.readInto(b, 16, b.length, info.line, info.offset, store), text);
      assert.equal(store.length, 1, text);
      assert.deepStrictEqual(store.at(0), SampleStore.of([full.sample]).at(0), text);
      // -0 / -0.0 and NaN: deepStrictEqual uses Object.is, so the signs of zero are compared too.
    }),
    { numRuns: 5000 },
  );
  // Both outcomes occur (the generator is not all repeats and errors, nor all plain lines).
  assert.ok(read > 500, `read ${read}`);
  assert.ok(left > 500, `left ${left}`);
  // miles' has_repetition verdicts of every kind went through the per-line path.
  assert.deepEqual([...verdicts].sort(), ['UnicodeEncodeError', 'false', 'null', 'true']);
});

test('the per-line path reads the usual lines itself and leaves repeated keys to the full path', () => {
  const reader = new MilesLineReader(buildRule({}));
  const plain =
    '{"group_index": 12, "index": 96, "prompt": "What is 2 + 2?", "response": "\\\\boxed{4}", "label": "4", "reward": 1.0, "status": "completed", "response_length": 20, "metadata": {"exit_status": "Submitted"}}';
  const b = bytesOf(plain);
  const info = { line: 1, offset: 0, byteLength: b.length - 16 };
  const r = reader.read(b, 16, b.length, info);
  assert.ok(r !== null);
  assert.equal(r.groupKey, '12');
  assert.equal(r.reward, 1);
  assert.equal(r.rewardIsInt, false);
  assert.equal(r.cause, 'Submitted');
  for (const repeated of [
    plain.replace('"index": 96', '"index": 96, "index": 97'),
    plain.replace('"exit_status": "Submitted"', '"exit_status": "Submitted", "exit_status": "Other"'),
    plain.replace('"reward": 1.0', '"reward": 1.0, "rew\\u0061rd": 0'),
  ]) {
    const d = bytesOf(repeated);
    assert.equal(reader.read(d, 16, d.length, { line: 1, offset: 0, byteLength: d.length - 16 }), null, repeated);
  }
});

/** `reader`'s record of the line `text`, checked equal to the full path's; null when that refuses it (and so did `reader`). */
function readAsFullPath(reader: MilesLineReader, rule: ReturnType<typeof buildRule>, text: string): SampleRecord | null {
  const b = bytesOf(text);
  const info = { line: 1, offset: 0, byteLength: b.length - 16 };
  const fast = reader.read(b, 16, b.length, info);
  const scanned = parseLogLine(b, 16, b.length, rule, false, new RuleParser());
  if (scanned.type !== 'ok') {
    assert.equal(fast, null, text);
    return null;
  }
  const full = normalizeRecord(scanned.value, info, CTX);
  assert.ok(fast !== null && full.type === 'sample', text);
  assert.deepStrictEqual(fast, full.sample, text);
  return fast;
}

test('weight_versions repeated from the last line: the same list while the bytes are the same, read anew otherwise', () => {
  const rule = buildRule({});
  const reader = new MilesLineReader(rule);
  const lists = ['["3"]', '["3"]', '["3"]', '["4"]', '["4"]', '[ "4"]', '["4"]]', '["4"', '[ "4"] ', '[3]', '[3]', '[]', '["3"]'];
  let previous: unknown = undefined;
  let reused = 0;
  for (const list of lists) {
    const fast = readAsFullPath(reader, rule, `{"group_index": 1, "index": 2, "weight_versions": ${list}, "status": "completed", "response_length": 3}`);
    if (fast === null) continue;
    if (fast.miles?.weightVersions === previous) reused++;
    previous = fast.miles?.weightVersions;
  }
  // Equal bytes hand on the same list (the store then knows it without reading it again): the 2nd
  // and 3rd `["3"]`, the 2nd `["4"]`, the 2nd `[3]`; `[ "4"] ` is read anew, the broken line
  // before it having read `["4"]` (a whole list, though the line is then left to the full path).
  assert.equal(reused, 4);
});

test('prefix_cache_info repeated from the last line: the same counts while the bytes are the same, read anew otherwise', () => {
  const rule = buildRule({});
  const reader = new MilesLineReader(rule);
  const infos = [
    '{}',
    '{}',
    '{"cached_tokens": 5, "total_prompt_tokens": 9}',
    '{"cached_tokens": 5, "total_prompt_tokens": 9}',
    '{"cached_tokens": 7, "total_prompt_tokens": 9}',
    '{"cached_tokens": 7}}',
    '{"cached_tokens": 7}',
    '{}',
  ];
  const seen: [number, number][] = [];
  for (const info of infos) {
    const fast = readAsFullPath(reader, rule, `{"group_index": 1, "index": 2, "prefix_cache_info": ${info}, "status": "completed", "response_length": 3}`);
    if (fast === null) continue;
    seen.push([fast.miles?.cachedTokens ?? NaN, fast.miles?.totalPromptTokens ?? NaN]);
  }
  assert.deepEqual(seen, [
    [0, 0],
    [0, 0],
    [5, 9],
    [5, 9],
    [7, 9],
    [7, 0],
    [0, 0],
  ]);
});

test('numbers read from bytes equal Number() of their text, with Python int-vs-float', () => {
  const facts = { isInt: false, literal: null as string | null };
  const digits = fc.stringMatching(/^[0-9]{1,18}$/);
  const literal = fc.oneof(
    fc.tuple(fc.boolean(), digits).map(([neg, d]) => `${neg ? '-' : ''}${d.replace(/^0+(?=.)/, '')}`),
    fc.tuple(fc.boolean(), digits, digits).map(([neg, a, f]) => `${neg ? '-' : ''}${a.replace(/^0+(?=.)/, '')}.${f}`),
    fc.double({ noNaN: false }).map((v) => (Number.isFinite(v) ? String(v) : Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity')),
  );
  fc.assert(
    fc.property(literal, (text) => {
      const b = Buffer.from(text);
      const v = readNumber(b, 0, b.length, facts);
      const want = numberValue(text);
      assert.ok(Object.is(v, want.value), `${text}: ${v} vs ${want.value}`);
      assert.equal(facts.isInt, want.isInt, text);
      const short = want.isInt && text.replace('-', '').length <= 15;
      assert.equal(facts.literal, want.isInt ? (short ? (text === '-0' ? '-0' : null) : text) : null, text);
    }),
    { numRuns: 20000 },
  );
});

test('files of miles samples: the same records and findings with and without the per-line path', async (t) => {
  const dir = tempDir(t);
  const anchor = '{"group_index": 0, "index": 0, "prompt": "p", "response": "r", "reward": 1}';
  await fc.assert(
    fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 30 }), async (lines) => {
      const path = writeLines(dir, 'rollout_1.jsonl', [anchor, ...lines]);
      const pick = (s: Awaited<ReturnType<typeof scanPath>>) => ({
        format: s.format,
        records: s.records,
        invalidLines: s.invalidLines,
        blankLines: s.blankLines,
        findings: s.findings,
        samples: Array.from({ length: s.samples.length }, (_, k) => s.samples.at(k)),
      });
      const fast = pick(await scanPath(path));
      const full = pick(await scanPath(path, {}, { fullScan: true }));
      assert.equal(fast.format, 'miles-sample');
      assert.deepStrictEqual(fast, full);
    }),
    { numRuns: 200 },
  );
});
