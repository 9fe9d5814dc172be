// Binary files opened by mistake (a checkpoint, a compressed log, an array dump, a UTF-16 export):
// one finding that says what the file is, not thousands of invalid-JSON lines; the CLI stays
// within its contract. Files are built byte by byte as the tools write them (zip local header,
// pickle protocol 2 opcodes, real gzip from zlib).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { firstUnsafe } from './contract';
import { check, cliJson, codes, groupLines, runCli, tempDir, write } from './helpers';

/** A zip local file header as `torch.save` (zip format, PyTorch >= 1.6) starts: `archive/data.pkl`. */
function torchZip(): Buffer {
  const name = Buffer.from('archive/data.pkl');
  const pickle = Buffer.from([0x80, 0x02, 0x7d, 0x71, 0x00, 0x2e]); // PROTO 2, EMPTY_DICT, BINPUT 0, STOP
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0); // local file header signature PK\x03\x04
  header.writeUInt16LE(20, 4);
  header.writeUInt32LE(pickle.length, 18);
  header.writeUInt32LE(pickle.length, 22);
  header.writeUInt16LE(name.length, 26);
  const weights = Buffer.alloc(64 * 1024);
  for (let i = 0; i < weights.length; i += 4) weights.writeFloatLE(Math.sin(i), i);
  return Buffer.concat([header, name, pickle, weights]);
}

/** A legacy (pre-1.6) `torch.save` stream: pickle protocol 2, starting with the magic number. */
function legacyTorchPickle(): Buffer {
  // PROTO 2, LONG1 (8 bytes) magic 0x1950a86a20f9469cfc6c, STOP — then raw storage bytes.
  return Buffer.concat([Buffer.from([0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19, 0x2e]), Buffer.alloc(4096, 0x3f)]);
}

function seeded(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

const LOG = `${groupLines(0, 30).join('\n')}\n`;

const CASES: [string, Buffer, RegExp][] = [
  ['torch-zip.jsonl', torchZip(), /zip archive.*PyTorch/],
  ['torch-legacy.jsonl', legacyTorchPickle(), /Python pickle/],
  ['rollout.jsonl.gz', gzipSync(Buffer.from(LOG)), /gzip-compressed.*decompress it first/],
  ['gz-named-plain.jsonl', gzipSync(Buffer.from(LOG)), /gzip-compressed.*decompress it first/],
  ['zstd.jsonl', Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), seeded(8192, 3)]), /zstd-compressed/],
  ['bz2.jsonl', Buffer.concat([Buffer.from('BZh91AY&SY'), seeded(8192, 4)]), /bzip2-compressed/],
  ['xz.jsonl', Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), seeded(8192, 5)]), /xz-compressed/],
  [
    'array.npy',
    Buffer.concat([
      Buffer.from('\x93NUMPY\x01\x00v\x00', 'latin1'),
      Buffer.from("{'descr': '<f4', 'fortran_order': False, 'shape': (1024,), }\n"),
      seeded(4096, 6),
    ]),
    /NumPy/,
  ],
  ['table.parquet', Buffer.concat([Buffer.from('PAR1'), seeded(8192, 7), Buffer.from('PAR1')]), /Parquet/],
  ['random-64k.jsonl', seeded(64 * 1024, 8), /binary file/],
  ['random-1m.jsonl', seeded(1024 * 1024, 9), /binary file/],
  [
    'safetensors.jsonl',
    Buffer.concat([Buffer.from([0x40, 0, 0, 0, 0, 0, 0, 0]), Buffer.from('{"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}    '), seeded(16, 10)]),
    /binary file/,
  ],
];

test('binary file: 12 kinds (torch zip and legacy pickle, gzip, zstd, bzip2, xz, .npy, Parquet, random bytes, safetensors) → one unknown-format finding that says what the file is, not a flood', async (t) => {
  const dir = tempDir(t);
  for (const [name, bytes, what] of CASES) {
    const r = await check(write(dir, name, bytes));
    const unknown = r.findings.filter((f) => f.code === 'unknown-format');
    assert.equal(unknown.length, 1, name);
    assert.match(unknown[0].message, what, name);
    assert.equal(unknown[0].line, 1);
    assert.equal(r.file.records, 0, name);
    // Random data may start with a few short lines before its first 512 bytes show it is binary:
    // those are reported as they were read, the rest is not.
    const others = r.findings.filter((f) => f.code !== 'unknown-format');
    assert.ok(others.length <= (name.startsWith('random') ? 5 : 0), `${name}: ${others.length} more findings`);
    assert.ok(
      others.every((f) => f.code === 'invalid-json' && f.line <= 6),
      name,
    );
  }
});

test('binary file: text encoded as UTF-16 (PowerShell `>` writes UTF-16LE with a BOM) is named as UTF-16 with a conversion hint', async (t) => {
  const dir = tempDir(t);
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(LOG, 'utf16le')]);
  const be = Buffer.from(le.toString('utf16le'), 'utf16le').swap16();
  for (const [name, bytes] of [
    ['utf16le.jsonl', le],
    ['utf16be.jsonl', be],
  ] as const) {
    const r = await check(write(dir, name, bytes));
    assert.deepEqual(codes(r.findings), ['unknown-format'], name);
    assert.match(r.findings[0].message, /UTF-16.*(iconv|convert)/i, name);
  }
});

test('binary file: the CLI (folder of binaries next to a good log) keeps its JSON contract, reports the good log fully, and prints text without control bytes', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'run'));
  for (const [name, bytes] of CASES) write(dir, join('run', name.replace(/\.(gz|npy|parquet)$/, '.jsonl')), bytes);
  write(dir, 'run/rollout_1.jsonl', LOG);
  const json = cliJson(['run'], dir);
  assert.notEqual(json.status, 2, `every file was readable: ${json.stderr}`);
  const good = json.doc.files.find((f) => f.path === 'run/rollout_1.jsonl');
  assert.equal(good?.records, 120);
  assert.equal(good?.groups.dropped, 10);
  const binaries = json.doc.files.filter((f) => f.path !== 'run/rollout_1.jsonl');
  assert.equal(binaries.length, CASES.length);
  for (const f of binaries) {
    const own = json.doc.findings.filter((x) => x.file === f.path);
    assert.equal(own.filter((x) => x.code === 'unknown-format').length, 1, f.path);
    assert.ok(own.length <= (f.path.includes('random') ? 6 : 1), `${f.path}: ${own.length} findings`);
  }
  const text = runCli(['check', 'run'], dir);
  assert.equal(firstUnsafe(text.stdout), null);
  assert.equal(firstUnsafe(text.stderr), null);
  assert.match(text.stdout, /run\/gz-named-plain\.jsonl:1:1: warning unknown-format: .*gzip-compressed/);
});
