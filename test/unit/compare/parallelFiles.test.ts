// The CLI and the threads of `summarize --jobs` read files with calls done on the calling thread
// (node/syncFileAccess.ts), and threads take files from a shared counter (node/parallelSummarize.ts):
// that access gives what the asynchronous access gives, failures included (as rejected promises,
// never thrown), and a run that cannot be planned still ends, its workers stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { readLines } from '../../../server/src/core/reader/lineReader';
import type { FileAccess } from '../../../server/src/core/seams/fileAccess';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { takeNextJob } from '../../../server/src/node/summarizeJob';
import { syncFileAccess } from '../../../server/src/node/syncFileAccess';
import { runCli, tempDir } from '../cli/run';

/** What `access` gives for `f`, or the code of its error; whether it threw before returning a promise. */
async function outcome<T>(f: () => Promise<T>): Promise<{ value?: T; code?: string; threw: boolean }> {
  let promise: Promise<T>;
  try {
    promise = f();
  } catch (err) {
    return { code: (err as NodeJS.ErrnoException).code, threw: true };
  }
  try {
    return { value: await promise, threw: false };
  } catch (err) {
    return { code: (err as NodeJS.ErrnoException).code, threw: false };
  }
}

async function linesOf(access: FileAccess, path: string, chunkSize: number): Promise<string[]> {
  const lines: string[] = [];
  const done = await readLines(access, path, { chunkSize }, (l) => void lines.push(Buffer.from(l.bytes.subarray(l.start, l.end)).toString('utf8')));
  if (done.pending) lines.push(Buffer.from(done.pending.bytes).toString('utf8'));
  return lines;
}

test('syncFileAccess: the same stats, entries, paths and lines as nodeFileAccess, the same errors as rejections', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'sub'));
  // Lines longer than a chunk, a CRLF, a last line without its newline, a multi-byte character across chunks.
  const text = `${'a'.repeat(70)}\r\nshort\n\n${'é'.repeat(40)}\nlast`;
  writeFileSync(join(dir, 'sub/steps.jsonl'), text);
  writeFileSync(join(dir, 'empty.jsonl'), '');
  symlinkSync(join(dir, 'sub'), join(dir, 'link'));
  const file = join(dir, 'sub/steps.jsonl');
  const missing = join(dir, 'missing.jsonl');
  const calls: [string, (a: FileAccess) => Promise<unknown>][] = [
    ['stat of a file', (a: FileAccess) => a.stat(file)],
    ['stat of a folder', (a: FileAccess) => a.stat(join(dir, 'sub'))],
    ['stat of a missing file', (a: FileAccess) => a.stat(missing)],
    ['a folder listed', (a: FileAccess) => a.readDir(dir).then((es) => es.sort((x, y) => x.name.localeCompare(y.name)))],
    ['a file listed', (a: FileAccess) => a.readDir(file)],
    ['a link resolved', (a: FileAccess) => a.realPath(join(dir, 'link/steps.jsonl'))],
    ['a missing path resolved', (a: FileAccess) => a.realPath(missing)],
    ['a missing file opened', (a: FileAccess) => a.open(missing)],
    ['a folder read', (a: FileAccess) => a.open(join(dir, 'sub')).then((f) => f.read(new Uint8Array(8), 0, 8, 0).finally(() => f.close()))],
    ['lines in chunks of 16 bytes', (a: FileAccess) => linesOf(a, file, 16)],
    ['lines of an empty file', (a: FileAccess) => linesOf(a, join(dir, 'empty.jsonl'), 16)],
  ];
  for (const [what, call] of calls) {
    const [plain, got] = [await outcome(() => call(nodeFileAccess)), await outcome(() => call(syncFileAccess))];
    assert.equal(got.threw, false, `${what}: thrown, not rejected`);
    assert.deepEqual(got, plain, what);
  }
  assert.deepEqual(await linesOf(syncFileAccess, file, 16), ['a'.repeat(70), 'short', '', 'é'.repeat(40), 'last']);
});

test('takeNextJob: every index once, in order, from a counter the threads share', () => {
  const counter = new Int32Array(new SharedArrayBuffer(4));
  assert.deepEqual([takeNextJob(counter), takeNextJob(counter), takeNextJob(counter)], [0, 1, 2]);
  assert.equal(counter[0], 3);
});

test('summarize --jobs 2: a path with nothing to read exits 2 once its workers (started first) are stopped', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'empty'));
  for (const path of ['empty', 'missing']) {
    const r = runCli(['summarize', '--jobs', '2', path], dir);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, path === 'empty' ? /no \*\.jsonl or \*\.ndjson files in empty/ : /missing/);
  }
});
