// Bad bytes, class by class, through the real engine on real files: garbage, invalid UTF-8, NUL
// bytes, byte-order marks, line endings, empty files. Every bad line gets a clear finding on its
// own line, and the rest of the file is still analysed (test/reliability/badLines.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';

import { assertRestAnalysed, baseline, GOOD, withBadLines } from './badLines';
import { accounted, check, codes, milesSample, scan, tempDir, write } from './helpers';

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
