// Bad input, class by class, through the real engine on real files: every bad line gets a clear
// finding on its own line, and the rest of the file is still analysed (its groups and drop metrics
// equal those of the same file without the bad lines).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';

import { accounted, check, codes, groupLines, milesSample, scan, tempDir, write } from './helpers';

/** The drop metrics of a file's metrics (miles files also carry the per-sample metrics miles logs). */
function drops(m: Record<string, number | null>): Record<string, number | null> {
  return Object.fromEntries(Object.entries(m).filter(([k]) => k.startsWith('rollout/dynamic_filter/')));
}

const GOOD = groupLines(0, 6); // 24 samples, 6 groups, groups 1 and 4 dropped (aborted)

/** What the clean file says: the baseline every damaged variant must still reach. */
async function baseline(dir: string) {
  const clean = await check(write(dir, 'clean.jsonl', `${GOOD.join('\n')}\n`));
  return { groups: clean.file.groups, metrics: clean.file.metrics };
}

/** Good lines with `bad` (raw bytes) inserted before the good line at each position. */
function withBadLines(bad: { at: number; bytes: Buffer }[]): { bytes: Buffer; badLines: number[] } {
  const parts: Buffer[] = [];
  const badLines: number[] = [];
  let line = 1;
  for (let i = 0; i <= GOOD.length; i++) {
    for (const b of bad.filter((x) => x.at === i)) {
      parts.push(b.bytes, Buffer.from('\n'));
      badLines.push(line++);
    }
    if (i < GOOD.length) {
      parts.push(Buffer.from(`${GOOD[i]}\n`));
      line++;
    }
  }
  return { bytes: Buffer.concat(parts), badLines };
}

/** Deterministic bytes (xorshift), so a failure names a reproducible case. */
function randomBytes(seed: number, length: number): Buffer {
  let x = seed | 1;
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

async function assertRestAnalysed(path: string, badLines: number[], base: Awaited<ReturnType<typeof baseline>>, reason?: RegExp) {
  const r = await check(path);
  assert.equal(r.file.format, 'miles-sample', `${path}: still detected`);
  assert.equal(r.file.records, GOOD.length, `${path}: every good line is a record`);
  assert.equal(r.file.invalidLines, badLines.length, `${path}: each bad line counted once`);
  assert.deepEqual(r.file.groups, base.groups);
  assert.deepEqual(r.file.metrics, base.metrics);
  const bad = r.findings.filter((f) => f.code === 'invalid-json' || f.code === 'invalid-record');
  assert.deepEqual(
    bad.map((f) => f.line),
    badLines,
    `${path}: one finding on each bad line`,
  );
  for (const f of bad) {
    assert.equal(f.severity, f.code === 'invalid-json' ? 'error' : 'warning');
    if (reason) assert.match(f.message, reason);
  }
  return r;
}

test('random bytes: 60 seeded garbage lines (1-300 bytes) anywhere in a log, the first line too → one invalid-json each, the rest analysed', async (t) => {
  const dir = tempDir(t);
  const base = await baseline(dir);
  for (let seed = 1; seed <= 60; seed++) {
    const garbage = randomBytes(seed * 7919, 1 + ((seed * 37) % 300)).map((b) => (b === 0x0a ? 0x00 : b));
    garbage[0] = 0x01 + (seed % 7); // never blank, never the start of a JSON value
    const at = seed % 4 === 0 ? 0 : seed % GOOD.length;
    const { bytes, badLines } = withBadLines([{ at, bytes: Buffer.from(garbage) }]);
    await assertRestAnalysed(write(dir, `random-${seed}.jsonl`, bytes), badLines, base, /^invalid JSON: unexpected byte 0x0\d at column 1$/);
  }
});

test('random bytes: the reason names the byte found, not a number error (text garbage, a stray word, a control byte)', async (t) => {
  const dir = tempDir(t);
  const base = await baseline(dir);
  const cases: [string, RegExp][] = [
    ['hello world', /unexpected character 'h' at column 1/],
    ['Traceback (most recent call last):', /unexpected character 'T' at column 1/],
    ['\x1b[31mERROR\x1b[0m', /unexpected byte 0x1b at column 1/],
    ['@@@', /unexpected character '@' at column 1/],
  ];
  for (const [i, [text, reason]] of cases.entries()) {
    const { bytes, badLines } = withBadLines([{ at: 5, bytes: Buffer.from(text) }]);
    await assertRestAnalysed(write(dir, `text-${i}.jsonl`, bytes), badLines, base, reason);
  }
});

const INVALID_UTF8: [string, number[]][] = [
  ['lone continuation byte 0x80', [0x80]],
  ['lone continuation byte 0xbf', [0xbf]],
  ['overlong 2-byte /', [0xc0, 0xaf]],
  ['overlong 3-byte NUL', [0xe0, 0x80, 0x80]],
  ['2-byte lead without continuation', [0xc3, 0x28]],
  ['3-byte sequence cut short', [0xe2, 0x82]],
  ['UTF-16 surrogate encoded in UTF-8', [0xed, 0xa0, 0x80]],
  ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ['lead byte 0xf5', [0xf5, 0x80, 0x80, 0x80]],
  ['byte 0xfe', [0xfe]],
  ['byte 0xff', [0xff]],
];

test('invalid UTF-8: 11 malformed sequences inside a built string, a hashed prompt, a key, and outside strings → invalid-json naming UTF-8; valid multi-byte text is accepted', async (t) => {
  const dir = tempDir(t);
  const base = await baseline(dir);
  let cases = 0;
  for (const [what, seq] of INVALID_UTF8) {
    const bad = Buffer.from(seq);
    const variants: [string, Buffer][] = [
      [
        'exit_status',
        Buffer.concat([
          Buffer.from('{"group_index": 99, "index": 0, "status": "aborted", "response": "", "metadata": {"exit_status": "Sandbox'),
          bad,
          Buffer.from('"}}'),
        ]),
      ],
      ['prompt', Buffer.concat([Buffer.from('{"group_index": 99, "index": 0, "prompt": "solve '), bad, Buffer.from(' now", "response": "x"}')])],
      ['key', Buffer.concat([Buffer.from('{"group_index": 99, "index": 0, "response": "x", "k'), bad, Buffer.from('": 1}')])],
      ['outside a string', Buffer.concat([Buffer.from('{"group_index": 99, "index": 0, "response": "x", "reward": '), bad, Buffer.from('}')])],
    ];
    for (const [where, bytes] of variants) {
      const { bytes: file, badLines } = withBadLines([{ at: 7, bytes }]);
      const path = write(dir, `utf8-${cases++}.jsonl`, file);
      await t.test(`${what} in ${where}`, async () => {
        await assertRestAnalysed(
          path,
          badLines,
          base,
          where === 'outside a string' ? /^invalid JSON: unexpected byte 0x[89a-f][0-9a-f]/ : /^invalid JSON: invalid UTF-8/,
        );
      });
    }
  }
  const valid = milesSample({ group: 99, index: 99, prompt: 'é 中文 😀 \u{10FFFF} ﻿', status: 'completed' });
  const r = await scan(write(dir, 'valid-utf8.jsonl', `${valid}\n`));
  assert.equal(r.invalidLines, 0, 'valid multi-byte UTF-8 (2, 3 and 4 bytes, U+10FFFF, U+FEFF) is accepted');
  assert.equal(r.records, 1);
});

test('NUL byte: alone, raw in a string, after the value, a 4 KiB NUL run (crash padding) and at the start of the file → invalid-json each, the rest analysed; \\u0000 escaped is valid', async (t) => {
  const dir = tempDir(t);
  const base = await baseline(dir);
  const cases: [string, Buffer, number, RegExp][] = [
    ['alone', Buffer.from([0]), 3, /unexpected byte 0x00 at column 1/],
    ['raw in a string', Buffer.from('{"group_index": 99, "index": 0, "prompt": "a\0b"}'), 3, /control character 0x00 in string/],
    ['after the value', Buffer.from(`${GOOD[0].replace('"index": 0', '"index": 1000')}\0`), 3, /unexpected data after the JSON value: byte 0x00/],
    ['4 KiB of NUL', Buffer.alloc(4096), 9, /unexpected byte 0x00 at column 1/],
    ['first line', Buffer.from([0, 0, 0]), 0, /unexpected byte 0x00 at column 1/],
  ];
  for (const [i, [what, bytes, at, reason]] of cases.entries()) {
    const { bytes: file, badLines } = withBadLines([{ at, bytes }]);
    await t.test(what, async () => {
      await assertRestAnalysed(write(dir, `nul-${i}.jsonl`, file), badLines, base, reason);
    });
  }
  const escaped = milesSample({ group: 0, index: 0, prompt: 'a\u0000b' });
  assert.ok(escaped.includes('\\u0000'));
  assert.equal((await scan(write(dir, 'escaped.jsonl', `${escaped}\n`))).invalidLines, 0);
});

test('UTF-8 BOM: at the start (with LF and with CRLF) it is skipped, identical report; a BOM inside the file is a bad line there', async (t) => {
  const dir = tempDir(t);
  const base = await baseline(dir);
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  for (const eol of ['\n', '\r\n']) {
    const r = await check(write(dir, `bom${eol.length}.jsonl`, Buffer.concat([bom, Buffer.from(`${GOOD.join(eol)}${eol}`)])));
    assert.equal(r.file.records, GOOD.length);
    assert.equal(r.file.invalidLines, 0);
    assert.deepEqual(r.file.groups, base.groups);
    assert.deepEqual(r.file.metrics, base.metrics);
  }
  const { bytes, badLines } = withBadLines([{ at: 4, bytes: Buffer.concat([bom, Buffer.from('{"group_index": 50, "index": 0}')]) }]);
  await assertRestAnalysed(write(dir, 'bom-inside.jsonl', bytes), badLines, base, /unexpected byte 0xef at column 1/);
});

test('CRLF and mixed line endings: LF, CRLF, alternating, and a CRLF-terminated last line without LF give identical reports', async (t) => {
  const dir = tempDir(t);
  const base = await baseline(dir);
  const variants: [string, string][] = [
    ['lf', GOOD.map((l) => `${l}\n`).join('')],
    ['crlf', GOOD.map((l) => `${l}\r\n`).join('')],
    ['mixed', GOOD.map((l, i) => `${l}${i % 2 ? '\r\n' : '\n'}`).join('')],
    ['whitespace-crlf', GOOD.map((l, i) => `${i % 3 === 0 ? ' \t' : ''}${l}${i % 2 ? ' \r\n' : '\t\n'}`).join('')],
    ['last-cr', `${GOOD.join('\n')}\r`],
  ];
  for (const [name, text] of variants) {
    const path = write(dir, `${name}.jsonl`, text);
    const r = await check(path);
    assert.equal(r.file.records, GOOD.length, name);
    assert.equal(r.file.invalidLines, 0, name);
    assert.deepEqual(r.file.groups, base.groups, name);
    assert.deepEqual(r.file.metrics, base.metrics, name);
    assert.deepEqual(
      codes(r.findings).filter((c) => c !== 'group-dropped'),
      [],
      name,
    );
    const s = await scan(path);
    assert.deepEqual(accounted(s), { lines: GOOD.length, counted: GOOD.length }, name);
  }
});

test('CR alone is not a line end (JSON lines end in LF): two records joined by a bare CR are one invalid-json line', async (t) => {
  const dir = tempDir(t);
  const base = await baseline(dir);
  const joined = `${GOOD[0].replace('"index": 0', '"index": 500')}\r${GOOD[1].replace('"index": 1', '"index": 501')}`;
  const { bytes, badLines } = withBadLines([{ at: 3, bytes: Buffer.from(joined) }]);
  await assertRestAnalysed(write(dir, 'bare-cr.jsonl', bytes), badLines, base, /unexpected data after the JSON value/);
});

test('empty file and only blank lines: no records, one unknown-format finding saying the file holds none, blank lines counted', async (t) => {
  const dir = tempDir(t);
  const cases: [string, string, number][] = [
    ['empty', '', 0],
    ['newlines', '\n\n\n', 3],
    ['whitespace', '  \n\t\n \r\n\r\n', 4],
    ['unterminated-blank', '\n\n   ', 3],
  ];
  for (const [name, text, blank] of cases) {
    const path = write(dir, `${name}.jsonl`, text);
    const r = await check(path);
    assert.equal(r.file.records, 0, name);
    assert.equal(r.file.invalidLines, 0, name);
    assert.deepEqual(codes(r.findings), ['unknown-format'], name);
    assert.match(r.findings[0].message, /holds no records/, name);
    const s = await scan(path);
    assert.equal(s.blankLines, blank, name);
    assert.deepEqual(accounted(s), { lines: blank, counted: blank }, name);
  }
});

test('numbers beyond 2^53 as group keys: 9007199254740993 and 9007199254740992 (and 2^64±1, 10^30+1) stay distinct groups, keyed by their exact text', async (t) => {
  const dir = tempDir(t);
  const keys = [
    '9007199254740992',
    '9007199254740993',
    '18446744073709551615',
    '18446744073709551616',
    '18446744073709551617',
    '1000000000000000000000000000001',
    '1000000000000000000000000000000',
    '-9007199254740993',
    '-9007199254740992',
  ];
  const lines: string[] = [];
  keys.forEach((key, k) => {
    for (let i = 0; i < 2; i++) {
      const aborted = k % 2 === 1 && i === 1;
      lines.push(
        milesSample({
          group: 0,
          index: k * 2 + i,
          prompt: `p${key}`,
          status: aborted ? 'aborted' : 'completed',
          exitStatus: aborted ? 'SandboxUnavailable' : undefined,
          reward: aborted ? 'null' : `${i}.0`,
        }).replace('"group_index": 0', `"group_index": ${key}`),
      );
    }
  });
  const r = await check(write(dir, 'bigint.jsonl', `${lines.join('\n')}\n`));
  assert.equal(r.file.groups.total, keys.length, 'no two keys merged');
  assert.equal(r.file.groups.dropped, 4);
  assert.deepEqual(drops(r.file.metrics), { 'rollout/dynamic_filter/drop_group_has_aborted_SandboxUnavailable': 4 });
  const dropped = r.findings.filter((f) => f.code === 'group-dropped').map((f) => f.group);
  assert.deepEqual(
    dropped,
    keys.filter((_k, i) => i % 2 === 1),
    'findings name each group by its exact literal',
  );
  assert.deepEqual(
    codes(r.findings).filter((c) => c !== 'group-dropped'),
    [],
    'no misgrouping: each prompt is in its own group',
  );
});

test('integer group keys compare as Python ints: -0 and 0 are one group, 1.0 and 1 are one group (dict keys), 1e400 is not an integer', async (t) => {
  const dir = tempDir(t);
  const line = (key: string, index: number, prompt: string, reward: string) =>
    milesSample({ group: 0, index, prompt, reward }).replace('"group_index": 0', `"group_index": ${key}`);
  const text = [
    line('0', 0, 'p0', '1.0'),
    line('-0', 1, 'p0', '0.0'),
    line('1', 2, 'p1', '1.0'),
    line('1.0', 3, 'p1', '0.0'),
    line('1e400', 4, 'p2', '1.0'),
  ].join('\n');
  const r = await check(write(dir, 'python-ints.jsonl', `${text}\n`));
  assert.equal(r.file.groups.total, 2, JSON.stringify(r.findings.map((f) => [f.code, f.group])));
  assert.equal(r.file.records, 4);
  const invalid = r.findings.filter((f) => f.code === 'invalid-record');
  assert.equal(invalid.length, 1);
  assert.match(invalid[0].message, /field group_index: expected an integer, got Infinity/);
  assert.ok(!r.findings.some((f) => f.code === 'misgrouped'), 'no group holds two prompts, no prompt two groups');
});

test('duplicate keys: the last one wins, as JSON.parse and Python json do (group_index, status, reward, metadata, metadata.exit_status)', async (t) => {
  const dir = tempDir(t);
  const dup = [
    '{"group_index": 1, "index": 0, "prompt": "a", "response": "x", "status": "aborted", "status": "completed", "reward": null, "reward": 1.0, "group_index": 7}',
    '{"group_index": 7, "index": 1, "prompt": "a", "response": "", "status": "completed", "reward": 0.0, "status": "aborted", "metadata": {"exit_status": "TimeLimitExceeded"}, "metadata": {"exit_status": "AgentError", "exit_status": "ServerUnreachable"}}',
    '{"group_index": 8, "index": 2, "prompt": "b", "response": "x", "status": "completed", "reward": 1.0}',
    '{"group_index": 8, "index": 3, "prompt": "b", "response": "x", "status": "completed", "reward": 0.0}',
  ];
  for (const l of dup) assert.ok(JSON.parse(l)); // each line is JSON; JSON.parse keeps the last value of a repeated key
  const r = await check(write(dir, 'dup.jsonl', `${dup.join('\n')}\n`));
  const expect = dup.map((l) => JSON.parse(l) as { group_index: number; status: string; metadata?: { exit_status: string } });
  assert.equal(r.file.groups.total, 2, 'group 1 was overwritten by 7');
  assert.deepEqual(drops(r.file.metrics), { [`rollout/dynamic_filter/drop_group_has_aborted_${expect[1].metadata!.exit_status}`]: 1 });
  const dropped = r.findings.find((f) => f.code === 'group-dropped');
  assert.equal(dropped?.group, String(expect[0].group_index));
  assert.equal(dropped?.line, 2, 'reported on the aborted sample that names the reason (its last status wins)');
});

test('NaN and Infinity: rewards NaN/Infinity/-Infinity are numbers (zero_std_nan/inf/-inf); as group_index they are not integers; nan, -NaN, +Infinity, infinity are invalid JSON', async (t) => {
  const dir = tempDir(t);
  const lines = [
    milesSample({ group: 0, index: 0, reward: 'NaN' }),
    milesSample({ group: 0, index: 1, reward: 'NaN' }),
    milesSample({ group: 1, index: 2, reward: 'Infinity' }),
    milesSample({ group: 1, index: 3, reward: 'Infinity' }),
    milesSample({ group: 2, index: 4, reward: '-Infinity' }),
    milesSample({ group: 2, index: 5, reward: '-Infinity' }),
    milesSample({ group: 3, index: 6 }).replace('"group_index": 3', '"group_index": NaN'),
    milesSample({ group: 3, index: 7 }).replace('"index": 7', '"index": Infinity'),
    milesSample({ group: 4, index: 8, reward: 'nan' }),
    milesSample({ group: 4, index: 9, reward: '-NaN' }),
    milesSample({ group: 4, index: 10, reward: '+Infinity' }),
    milesSample({ group: 4, index: 11, reward: 'infinity' }),
  ];
  const r = await check(write(dir, 'nonfinite.jsonl', `${lines.join('\n')}\n`), { dynamicFilter: 'check_reward_nonzero_std' });
  assert.deepEqual(drops(r.file.metrics), {
    'rollout/dynamic_filter/drop_zero_std_nan': 1,
    'rollout/dynamic_filter/drop_zero_std_inf': 1,
    'rollout/dynamic_filter/drop_zero_std_-inf': 1,
  });
  assert.equal(r.file.records, 6);
  assert.equal(r.file.invalidLines, 6);
  const bad = r.findings
    .filter((f) => f.code === 'invalid-record' || f.code === 'invalid-json')
    .map((f) => [f.line, f.code, f.message.replace(/ at column \d+$/, '')]);
  assert.deepEqual(bad, [
    [7, 'invalid-record', 'invalid miles-sample record: field group_index: expected an integer, got NaN'],
    [8, 'invalid-record', 'invalid miles-sample record: field index: expected an integer, got Infinity'],
    [9, 'invalid-json', "invalid JSON: unexpected character 'a'"],
    [10, 'invalid-json', 'invalid JSON: invalid number: no digits'],
    [11, 'invalid-json', "invalid JSON: unexpected character '+'"],
    [12, 'invalid-json', "invalid JSON: unexpected character 'i'"],
  ]);
});

test('a JSON array, a bare number, a string, null, true as a line (first line too) → invalid-record "a line must be a JSON object"; the rest analysed', async (t) => {
  const dir = tempDir(t);
  const base = await baseline(dir);
  const values = ['[1, 2, 3]', '[]', '[{"group_index": 1}]', '42', '-1.5e3', 'NaN', '"a string"', 'null', 'true', 'false'];
  for (const [i, v] of values.entries()) {
    const at = i % 3 === 0 ? 0 : 5 + i;
    const { bytes, badLines } = withBadLines([{ at, bytes: Buffer.from(v) }]);
    await assertRestAnalysed(write(dir, `nonobject-${i}.jsonl`, bytes), badLines, base, /^invalid miles-sample record: a line must be a JSON object, got /);
  }
});
