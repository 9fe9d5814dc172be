// Streaming and memory of the .pt reader (docs/pt.md): each sample is handed on as soon as the
// next one begins, before the next one's bytes are interpreted; long texts of samples handed on
// are released and decoded again from the pickle when a memo read brings them back, with values
// equal to torch.load's (test/fixtures/pt/memo, written by miles' writer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { OpenFile } from '../../../server/src/core/seams/fileAccess';
import { LIMITS, PickleMachine } from '../../../server/src/core/reader/pt/pickleMachine';
import { readPt } from '../../../server/src/core/reader/pt/ptFile';
import { stringify, toPlain } from '../../../server/src/core/reader/pt/serialize';
import { entryData, findDataPkl, readZipDirectory } from '../../../server/src/core/reader/pt/zip';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../lsp/fixtures';

const FIX = join(repoRoot(), 'test/fixtures/pt');

function canonical(v: unknown): unknown {
  return JSON.parse(stringify(toPlain(v, 'canonical')));
}

/** An in-memory file that records the end of every byte range asked for. */
function recordingFile(bytes: Uint8Array, reads: { at: number; end: number }[]): OpenFile {
  return {
    read: async (buf, off, len, pos) => {
      const n = Math.max(0, Math.min(len, bytes.length - pos));
      buf.set(bytes.subarray(pos, pos + n), off);
      reads.push({ at: pos, end: pos + n });
      return n;
    },
    close: async () => {},
  };
}

/** data.pkl of a torch.save zip, as bytes. */
async function dataPkl(path: string): Promise<Uint8Array> {
  const size = (await nodeFileAccess.stat(path)).size;
  const file = await nodeFileAccess.open(path);
  try {
    const entry = await entryData(file, size, findDataPkl(await readZipDirectory(file, size))!);
    const out = new Uint8Array(entry.size);
    await file.read(out, 0, entry.size, entry.dataOffset);
    return out;
  } finally {
    await file.close();
  }
}

// A few opcodes of protocol 2, enough to write what torch.save writes for miles' samples.
const op = { PROTO2: [0x80, 2], EMPTY_DICT: [0x7d], EMPTY_LIST: [0x5d], MARK: [0x28], SETITEMS: [0x75], SETITEM: [0x73], APPENDS: [0x65], STOP: [0x2e] };
const binput = (i: number) => [0x71, i];
const binget = (i: number) => [0x68, i];
const int1 = (n: number) => [0x4b, n];
function str(s: string): number[] {
  const b = Buffer.from(s, 'utf8');
  return [0x58, b.length & 0xff, (b.length >> 8) & 0xff, 0, 0, ...b];
}

/** `{'samples': [ {'index': i, 'response': <text>} for i in 0..2 ]}`, and where each sample starts. */
function threeSamples(): { bytes: Uint8Array; starts: number[] } {
  const out: number[] = [...op.PROTO2, ...op.EMPTY_DICT, ...binput(0), ...str('samples'), ...binput(1), ...op.EMPTY_LIST, ...binput(2), ...op.MARK];
  const starts: number[] = [];
  for (let i = 0; i < 3; i++) {
    starts.push(out.length);
    out.push(...op.EMPTY_DICT, ...binput(3 + 3 * i), ...op.MARK, ...str('index'), ...int1(i), ...str('response'), ...str(`response ${i} `.repeat(12)));
    out.push(...binput(4 + 3 * i), ...op.SETITEMS);
  }
  out.push(...op.APPENDS, ...op.SETITEM, ...op.STOP);
  return { bytes: Uint8Array.from(out), starts };
}

test('pt stream: each sample is handed on before any byte of the next sample after its first opcode is read', async () => {
  const { bytes, starts } = threeSamples();
  const reads: { at: number; end: number }[] = [];
  const seen: { index: number; readUpTo: number; response: unknown }[] = [];
  // One-byte chunks: the machine reads only what the opcode at hand needs (plus one byte ahead).
  const r = await new PickleMachine(recordingFile(bytes, reads), 0, bytes.length, {
    chunkSize: 1,
    onSample: (value, index) => {
      seen.push({ index, readUpTo: Math.max(...reads.map((x) => x.end)), response: (canonical(value) as { response: unknown }).response });
    },
  }).run();
  assert.deepEqual(r.problems, []);
  assert.deepEqual(
    seen.map((s) => s.index),
    [0, 1, 2],
  );
  // Sample 0 and 1 are handed on when the next one's EMPTY_DICT is reached: the reader has read
  // that opcode and at most one byte ahead, none of the next sample's keys.
  assert.ok(seen[0].readUpTo <= starts[1] + 2, `sample 0 handed on after reading up to ${seen[0].readUpTo} (sample 1 starts at ${starts[1]})`);
  assert.ok(seen[1].readUpTo <= starts[2] + 2, `sample 1 handed on after reading up to ${seen[1].readUpTo} (sample 2 starts at ${starts[2]})`);
  assert.equal(seen[2].response, 'response 2 '.repeat(12));
  assert.equal(r.samples, 3);
});

test('pt stream: a dump cut inside a batch still hands on every sample before the cut', async () => {
  // torch.save appends samples in batches of up to 1000 (MARK … APPENDS): the cut is inside the
  // only batch of step 1, so handing on per batch would give none of them.
  const pkl = await dataPkl(join(FIX, 'run/rollout_data/1.pt'));
  const expected = JSON.parse(readFileSync(join(FIX, 'expected/1.json'), 'utf8')).samples as unknown[];
  const cut = pkl.subarray(0, Math.floor(pkl.length * 0.6));
  const got: unknown[] = [];
  const r = await new PickleMachine(recordingFile(cut, []), 0, cut.length, { onSample: (v) => got.push(canonical(v)) }).run();
  assert.equal(r.problems.length, 1);
  assert.match(r.problems[0].message, /truncated|ends/);
  assert.ok(got.length >= expected.length / 2, `${got.length} of ${expected.length} samples before the cut`);
  assert.deepEqual(got, expected.slice(0, got.length));
  assert.equal(r.problems[0].sample, got.length);
});

test('pt stream: prompts shared by a group are read back from the memo equal to torch.load, in any chunk size', async () => {
  const path = join(FIX, 'memo/5.pt');
  const expected = JSON.parse(readFileSync(join(FIX, 'memo/5.json'), 'utf8'));
  // The fixture really refers back: each group's later samples read its prompt from the memo.
  const pkl = await dataPkl(path);
  const prompt = Buffer.from(expected.samples[0].prompt, 'utf8');
  assert.equal(Buffer.from(pkl).indexOf(prompt), Buffer.from(pkl).lastIndexOf(prompt), 'the prompt is written once');
  assert.equal(expected.samples[1].prompt, expected.samples[0].prompt);
  for (const chunkSize of [undefined, 7, 256]) {
    const got: unknown[] = [];
    const r = await readPt(nodeFileAccess, path, { chunkSize, onSample: (v) => got.push(canonical(v)) });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(got, expected.samples, `chunk size ${chunkSize}`);
  }
  // With a small window the prompt's bytes have left it when the next sample reads it back: it is
  // read again from the file (a read behind what was already read), and still equal.
  const reads: { at: number; end: number }[] = [];
  const got: unknown[] = [];
  await new PickleMachine(recordingFile(pkl, reads), 0, pkl.length, { chunkSize: 7, onSample: (v) => got.push(canonical(v)) }).run();
  let furthest = 0;
  let behind = 0;
  for (const x of reads) {
    if (x.end < furthest) behind++;
    furthest = Math.max(furthest, x.end);
  }
  assert.ok(behind > 0, 'some text was read again from the file');
  assert.deepEqual(got, expected.samples);
});

test('pt stream: a sample handed on keeps no text in the memo, and a value of it read back is whole again', async () => {
  // Sample 1 refers back to sample 0's response text (memo slot 4) after sample 0 was handed on.
  const { bytes } = threeSamples();
  const text = 'response 0 '.repeat(12);
  const at = Buffer.from(bytes).indexOf(Buffer.from('response 1 '.repeat(12)));
  const head = at - 5;
  const patched = Uint8Array.from([...bytes.subarray(0, head), ...binget(4), ...bytes.subarray(at + 132)]);
  const got: unknown[] = [];
  const reads: { at: number; end: number }[] = [];
  const r = await new PickleMachine(recordingFile(patched, reads), 0, patched.length, { chunkSize: 1, onSample: (v) => got.push(canonical(v)) }).run();
  assert.deepEqual(r.problems, []);
  // The text was not kept: it was read again from where it is in the pickle.
  const textAt = Buffer.from(patched).indexOf(Buffer.from(text));
  assert.ok(reads.some((x, i) => i > 0 && x.at === textAt && reads.slice(0, i).some((y) => y.end > textAt + text.length)));
  assert.deepEqual(
    got.map((s) => (s as { response: string }).response),
    [text, text, 'response 2 '.repeat(12)],
  );
});

test('pt stream: a pickle that changes a sample after the next one began is refused, not misread', async () => {
  // After sample 1 begins, `BINGET 3` (sample 0's dict) gets one more item.
  const { bytes, starts } = threeSamples();
  const tail = [...binget(3), ...str('late'), ...int1(1), ...op.SETITEM];
  const patched = Uint8Array.from([...bytes.subarray(0, starts[1] + 3), ...tail, ...bytes.subarray(starts[1] + 3)]);
  const r = await new PickleMachine(recordingFile(patched, []), 0, patched.length, { onSample: () => {} }).run();
  assert.equal(r.problems.length, 1);
  assert.match(r.problems[0].message, /changes or reuses a sample .* after the next one began/);
});

test('pt stream: memo reads that bring released texts back are bounded over the file (a clear problem, no hang)', async () => {
  // Sample 0 holds a list of 100 long texts; every later sample reads that list back from the
  // memo, so each one looks at the 100 texts again. With the bound lowered to 1 000 visits the
  // read stops with a problem naming it, after the samples before it.
  const list = [...op.EMPTY_LIST, ...binput(10), ...op.MARK];
  for (let i = 0; i < 100; i++) list.push(...str(`text ${i} `.repeat(10)));
  list.push(...op.APPENDS);
  const out: number[] = [...op.PROTO2, ...op.EMPTY_DICT, ...binput(0), ...str('samples'), ...op.EMPTY_LIST, ...binput(1), ...op.MARK];
  // Each sample also has a long text of its own, so each hand-on releases something and the list
  // read back is walked again (texts read back stay decoded, in a bounded cache).
  for (let i = 0; i < 30; i++)
    out.push(...op.EMPTY_DICT, ...op.MARK, ...str('t'), ...(i === 0 ? list : binget(10)), ...str('u'), ...str(`own ${i} `.repeat(10)), ...op.SETITEMS);
  out.push(...op.APPENDS, ...op.SETITEM, ...op.STOP);
  const bytes = Uint8Array.from(out);
  const saved = LIMITS.rewalk;
  LIMITS.rewalk = 1000;
  try {
    let samples = 0;
    const r = await new PickleMachine(recordingFile(bytes, []), 0, bytes.length, { chunkSize: 64, onSample: () => samples++ }).run();
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0].message, /refers back to earlier samples' values more than 1000 times/);
    assert.ok(samples >= 5 && samples < 30, `${samples} samples before the bound`);
  } finally {
    LIMITS.rewalk = saved;
  }
  // Unbounded, every sample reads the 100 texts back whole.
  const texts: number[] = [];
  const r = await new PickleMachine(recordingFile(bytes, []), 0, bytes.length, {
    chunkSize: 64,
    onSample: (v) => texts.push((canonical(v) as { t: string[] }).t.filter((t, i) => t === `text ${i} `.repeat(10)).length),
  }).run();
  assert.deepEqual(r.problems, []);
  assert.deepEqual(texts, new Array(30).fill(100));
});

test('pt stream: a list of numbers of a sample handed on is released and read back whole from the pickle', async () => {
  // Sample 0 has a token list (memo slot 20: a batch of 12 and one single APPEND); samples 1 and
  // 2 read it back after a long text that moves the window past it.
  const tokens = [...op.EMPTY_LIST, ...binput(20), ...op.MARK];
  for (let i = 0; i < 12; i++) tokens.push(...int1(100 + i));
  tokens.push(...op.APPENDS, ...int1(7), 0x61);
  const out: number[] = [...op.PROTO2, ...op.EMPTY_DICT, ...binput(0), ...str('samples'), ...op.EMPTY_LIST, ...binput(1), ...op.MARK];
  for (let i = 0; i < 3; i++) {
    out.push(...op.EMPTY_DICT, ...op.MARK, ...str('pad'), ...str(`padding ${i} `.repeat(20)), ...str('tokens'));
    out.push(...(i === 0 ? tokens : binget(20)), ...op.SETITEMS);
  }
  out.push(...op.APPENDS, ...op.SETITEM, ...op.STOP);
  const bytes = Uint8Array.from(out);
  const want = [...Array.from({ length: 12 }, (_, i) => 100 + i), 7];
  const listAt = Buffer.from(bytes).indexOf(Buffer.from(tokens));
  for (const chunkSize of [undefined, 96]) {
    const reads: { at: number; end: number }[] = [];
    const got: unknown[] = [];
    const r = await new PickleMachine(recordingFile(bytes, reads), 0, bytes.length, { chunkSize, onSample: (v) => got.push(canonical(v)) }).run();
    assert.deepEqual(r.problems, []);
    assert.deepEqual(
      got.map((s) => (s as { tokens: unknown }).tokens),
      [want, want, want],
      `chunk size ${chunkSize}`,
    );
    if (chunkSize !== undefined)
      assert.ok(
        reads.some((x, i) => x.at === listAt && reads.slice(0, i).some((y) => y.end > listAt + tokens.length)),
        'the list was read again',
      );
  }
  // Summarised (check), the list is counted and summed (its ints: the batch and the APPEND after
  // it), never kept, and read back as its count and sum.
  const counted: unknown[] = [];
  await new PickleMachine(recordingFile(bytes, []), 0, bytes.length, { summarize: true, onSample: (v) => counted.push(canonical(v)) }).run();
  const sum = want.reduce((a, b) => a + b, 0);
  assert.deepEqual(
    counted.map((s) => (s as { tokens: unknown }).tokens),
    [
      { $numbers: 13, $sum: sum },
      { $numbers: 13, $sum: sum },
      { $numbers: 13, $sum: sum },
    ],
  );
});

test('pt stream: memo slots stored out of order, far apart or twice read back what was stored last; MEMOIZE counts them', async () => {
  // [slot 5, slot 0, slot 1e9, slot 1, MEMOIZE (slot 4 = len(memo)), slot 3, slot 2, slot 0 again] then each read back.
  const longPut = (i: number) => [0x72, i & 0xff, (i >> 8) & 0xff, (i >> 16) & 0xff, (i >>> 24) & 0xff];
  const longGet = (i: number) => [0x6a, i & 0xff, (i >> 8) & 0xff, (i >> 16) & 0xff, (i >>> 24) & 0xff];
  const out: number[] = [...op.PROTO2, ...op.EMPTY_LIST, ...op.MARK];
  const puts: [number[], number][] = [
    [binput(5), 50],
    [binput(0), 1],
    [longPut(1e9), 77],
    [binput(1), 11],
    [[0x94], 44],
    [binput(3), 33],
    [binput(2), 22],
    [binput(0), 10],
  ];
  for (const [put, value] of puts) out.push(...int1(value), ...put);
  for (const slot of [0, 1, 2, 3, 4, 5]) out.push(...binget(slot));
  out.push(...longGet(1e9), ...op.APPENDS, ...op.STOP);
  const bytes = Uint8Array.from(out);
  const r = await new PickleMachine(recordingFile(bytes, []), 0, bytes.length, {}).run();
  assert.deepEqual(r.problems, []);
  assert.deepEqual(canonical(r.value), [50, 1, 77, 11, 44, 33, 22, 10, 10, 11, 22, 33, 44, 50, 77]);
  // A slot never stored is a clear problem.
  const bad = Uint8Array.from([...op.PROTO2, ...int1(1), ...binput(0), ...binget(6), ...op.STOP]);
  const r2 = await new PickleMachine(recordingFile(bad, []), 0, bad.length, {}).run();
  assert.match(r2.problems[0].message, /memo read of slot 6 .* never stored/);
});

test('pt stream: str bytes in surrogatepass form (ED A0..BF xx) read back as lone surrogates, short or long; Hangul stays', async () => {
  const raw = (bytes: number[]) => [0x58, bytes.length & 0xff, (bytes.length >> 8) & 0xff, 0, 0, ...bytes];
  const hangul = [...Buffer.from('한', 'utf8')]; // ED 95 9C: a valid character that starts with ED
  const short = [0x61, 0xed, 0xa0, 0x80, ...hangul, 0xed, 0xbf, 0xbf, 0x62];
  const long = [...Buffer.from('x'.repeat(100)), 0xed, 0xb0, 0x80, 0xed, 0xa0];
  const out = [...op.PROTO2, ...op.EMPTY_LIST, ...op.MARK, ...raw(short), ...raw(long), ...op.APPENDS, ...op.STOP];
  const bytes = Uint8Array.from(out);
  const r = await new PickleMachine(recordingFile(bytes, []), 0, bytes.length, {}).run();
  assert.deepEqual(r.problems, []);
  // A cut sequence at the end is not a surrogate: replaced, as other invalid bytes are.
  assert.deepEqual(canonical(r.value), ['a\ud800한\udfffb', `${'x'.repeat(100)}\udc00\ufffd\ufffd`]);
});
