import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { readLineText, readRange } from '../../../server/src/core/reader/lineReader';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';

import { collectLines, tempDir, writeFile } from './helpers';

test('reader: \\n and \\r\\n line ends are both stripped; offsets point at each line start', async (t) => {
  const path = writeFile(tempDir(t), 'a.jsonl', 'one\r\ntwo\nthree\r\n');
  const { lines, result } = await collectLines(path);
  assert.deepEqual(lines, [
    { text: 'one', line: 1, offset: 0 },
    { text: 'two', line: 2, offset: 5 },
    { text: 'three', line: 3, offset: 9 },
  ]);
  assert.equal(result.endOffset, 16);
  assert.equal(result.pending, null);
});

test('reader: a UTF-8 BOM is skipped and line 1 starts after it', async (t) => {
  const path = writeFile(tempDir(t), 'bom.jsonl', '\ufeff{"a":1}\n{"b":2}\n');
  const { lines, result } = await collectLines(path);
  assert.equal(result.bomLength, 3);
  assert.deepEqual(lines[0], { text: '{"a":1}', line: 1, offset: 3 });
  assert.deepEqual(lines[1], { text: '{"b":2}', line: 2, offset: 11 });
});

test('reader: blank lines are lines (numbering continues past them)', async (t) => {
  const path = writeFile(tempDir(t), 'b.jsonl', 'a\n\n\r\nb\n');
  const { lines } = await collectLines(path);
  assert.deepEqual(
    lines.map((l) => [l.text, l.line]),
    [
      ['a', 1],
      ['', 2],
      ['', 3],
      ['b', 4],
    ],
  );
});

test('reader: a last line without newline is returned as pending, not as a line', async (t) => {
  const path = writeFile(tempDir(t), 'p.jsonl', '{"a":1}\n{"b":');
  const { lines, result } = await collectLines(path);
  assert.equal(lines.length, 1);
  assert.ok(result.pending);
  assert.equal(Buffer.from(result.pending.bytes).toString(), '{"b":');
  assert.equal(result.pending.line, 2);
  assert.equal(result.pending.offset, 8);
  assert.equal(result.endOffset, 8);
  assert.equal(result.nextLine, 2);
});

test('reader: scan buffers go from one read to the next, a pending line copied out of them first', async (t) => {
  // Reads one after the other reuse the scan buffers: a pending line left in them would be
  // overwritten by the next file's bytes.
  const dir = tempDir(t);
  const a = await collectLines(writeFile(dir, 'a.jsonl', '{"a":1}\n{"tail":"of a"'), { chunkSize: 64 });
  const b = await collectLines(writeFile(dir, 'b.jsonl', `${'{"bbbbbbbbbbbbbbbbbbbbbb":2}\n'.repeat(20)}{"tail":"of b"`), { chunkSize: 64 });
  const c = await collectLines(writeFile(dir, 'c.jsonl', `${'{"c":3}\n'.repeat(50)}`), { chunkSize: 64 });
  assert.equal(Buffer.from(a.result.pending!.bytes).toString(), '{"tail":"of a"');
  assert.equal(Buffer.from(b.result.pending!.bytes).toString(), '{"tail":"of b"');
  assert.equal(b.lines.length, 20);
  assert.equal(c.lines.length, 50);
  assert.equal(c.result.pending, null);
  // Reads at once make their own buffers: the same lines as one at a time.
  const [x, y] = await Promise.all([collectLines(join(dir, 'b.jsonl'), { chunkSize: 64 }), collectLines(join(dir, 'a.jsonl'), { chunkSize: 64 })]);
  assert.deepEqual([x.lines, y.lines], [b.lines, a.lines]);
  assert.equal(Buffer.from(x.result.pending!.bytes).toString(), '{"tail":"of b"');
});

test('reader: lines spanning chunk boundaries (chunk 16 bytes) come out whole, CRLF split across chunks too', async (t) => {
  const texts = Array.from({ length: 40 }, (_, i) => `{"i":${i},"pad":"${'x'.repeat(i % 37)}"}`);
  const path = writeFile(tempDir(t), 'c.jsonl', texts.join('\r\n') + '\r\n');
  const { lines } = await collectLines(path, { chunkSize: 16 });
  assert.deepEqual(
    lines.map((l) => l.text),
    texts,
  );
  let offset = 0;
  for (const [i, l] of lines.entries()) {
    assert.equal(l.offset, offset, `offset of line ${i + 1}`);
    offset += Buffer.byteLength(texts[i]) + 2;
  }
});

test('reader: multi-byte UTF-8 characters split across chunks are intact', async (t) => {
  const text = '{"s":"' + 'é漢🙂'.repeat(50) + '"}';
  const path = writeFile(tempDir(t), 'u.jsonl', `${text}\n${text}\n`);
  const { lines } = await collectLines(path, { chunkSize: 17 });
  assert.deepEqual(
    lines.map((l) => l.text),
    [text, text],
  );
});

test('reader: starting at a byte offset resumes at that line with the given line number', async (t) => {
  const path = writeFile(tempDir(t), 'r.jsonl', 'aa\nbbb\ncccc\n');
  const { lines } = await collectLines(path, { startOffset: 3, startLine: 2 });
  assert.deepEqual(lines, [
    { text: 'bbb', line: 2, offset: 3 },
    { text: 'cccc', line: 3, offset: 7 },
  ]);
});

test('reader: cancellation between chunks stops the read and says so', async (t) => {
  const path = writeFile(tempDir(t), 'k.jsonl', 'x\n'.repeat(1000));
  let chunks = 0;
  const { lines, result } = await collectLines(path, { chunkSize: 64, isCancelled: () => chunks++ >= 2 });
  assert.equal(result.cancelled, true);
  assert.equal(lines.length, 64);
});

test('reader: progress reports the absolute position after each chunk', async (t) => {
  const path = writeFile(tempDir(t), 'g.jsonl', 'x\n'.repeat(100));
  const seen: number[] = [];
  await collectLines(path, { chunkSize: 64, onChunk: (pos) => seen.push(pos) });
  assert.deepEqual(seen, [64, 128, 192, 200]);
});

test('reader: one line is read back by offset and byte length (hover detail)', async (t) => {
  const path = writeFile(tempDir(t), 'h.jsonl', '{"a":1}\n{"b":"ü"}\n');
  assert.equal(await readLineText(nodeFileAccess, path, 8, 10), '{"b":"ü"}');
  assert.equal((await readRange(nodeFileAccess, path, 0, 7)).length, 7);
  // Past the end: only what exists.
  assert.equal((await readRange(nodeFileAccess, path, 15, 100)).length, 4);
});

test('reader: an empty file has no lines and no pending line', async (t) => {
  const path = writeFile(tempDir(t), 'e.jsonl', '');
  const { lines, result } = await collectLines(path);
  assert.equal(lines.length, 0);
  assert.equal(result.pending, null);
  assert.equal(result.endOffset, 0);
});

test('reader (property): any lines, any line ends, any chunk size → exactly the lines back, offsets exact', async (t) => {
  const dir = tempDir(t);
  const { writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const fc = (await import('fast-check')).default;
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.tuple(
          fc.string({ unit: 'binary', maxLength: 300 }).map((s) => s.replace(/[\r\n]/g, '')),
          fc.boolean(),
        ),
        { maxLength: 30 },
      ),
      fc.integer({ min: 16, max: 200 }),
      fc.boolean(),
      async (lines, chunkSize, finalNewline) => {
        const path = join(dir, `p${n++}.jsonl`);
        const text = lines.map(([s, crlf], i) => s + (i < lines.length - 1 || finalNewline ? (crlf ? '\r\n' : '\n') : '')).join('');
        writeFileSync(path, text);
        const { lines: got, result } = await collectLines(path, { chunkSize });
        const complete = finalNewline ? lines : lines.slice(0, -1);
        // A first line starting with a BOM character loses it (it is the file's BOM).
        const expected = complete.map(([s], i) => (i === 0 && s.startsWith('\ufeff') ? s.slice(1) : s));
        assert.deepEqual(
          got.map((l) => l.text),
          expected,
        );
        let offset = 0;
        for (const [i, l] of got.entries()) {
          if (i === 0 && lines[0][0].startsWith('\ufeff')) offset += 3;
          assert.equal(l.offset, offset);
          offset += Buffer.byteLength(expected[i]) + (lines[i][1] ? 2 : 1);
        }
        if (!finalNewline && lines.length > 0 && Buffer.byteLength(lines.at(-1)![0]) > 0) {
          // The pending line's bytes, wherever the reader keeps them, are the last line's.
          const last = lines.length === 1 && lines[0][0].startsWith('\ufeff') ? lines[0][0].slice(1) : lines.at(-1)![0];
          assert.equal(Buffer.from(result.pending!.bytes).toString(), last);
          assert.equal(result.endOffset, offset);
        }
      },
    ),
    { numRuns: 200 },
  );
});

test('reader: a line far longer than the chunk grows the buffer, and the lines after it are still exact', async (t) => {
  const long = 'x'.repeat(50_000);
  const path = writeFile(tempDir(t), 'g.jsonl', `a\n${long}\nb\n${long}${long}\nc\n`);
  const { lines } = await collectLines(path, { chunkSize: 1024 });
  assert.deepEqual(
    lines.map((l) => l.text.length),
    [1, 50_000, 1, 100_000, 1],
  );
  assert.deepEqual(
    lines.map((l) => l.offset),
    [0, 2, 50_003, 50_005, 150_006],
  );
});
