import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_SETTINGS } from '../../../shared/protocol';
import { CancelledError, scanFile, type ScanState } from '../../../server/src/core/engine';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';

import { tempDir } from './helpers';

const options = { access: nodeFileAccess, settings: DEFAULT_SETTINGS };

function sample(g: number, i: number, extra = ''): string {
  return `{"group_index": ${g}, "index": ${i}, "prompt": "p${g}", "tokens": [1, 2, 3], "response": "r", "status": "completed", "reward": 1.0${extra}}`;
}

function lines(s: ScanState): number[] {
  return s.samples.toArray().map((x) => x.line);
}

async function scan(path: string, previous?: ScanState) {
  return scanFile({ path, displayPath: 'log.jsonl' }, options, previous);
}

test('resume: appended lines are read from the previous end offset, nothing lost or counted twice', async (t) => {
  const path = join(tempDir(t), 'log.jsonl');
  writeFileSync(path, `${sample(0, 0)}\n${sample(0, 1)}\n`);
  const first = await scan(path);
  assert.deepEqual(lines(first), [1, 2]);
  appendFileSync(path, `${sample(1, 2)}\n${sample(1, 3)}\n`);
  const second = await scan(path, first);
  assert.equal(second.resumedFrom, first.endOffset);
  assert.deepEqual(lines(second), [1, 2, 3, 4]);
  assert.deepEqual(
    second.samples.toArray().map((x) => x.index),
    [0, 1, 2, 3],
  );
  assert.deepEqual(lines(first), [1, 2], 'the previous state is not changed');
});

test('resume: a partial last line is pending (truncated-line, information), then completed by the next write', async (t) => {
  const path = join(tempDir(t), 'log.jsonl');
  const full = sample(0, 1);
  writeFileSync(path, `${sample(0, 0)}\n${full.slice(0, 30)}`);
  const first = await scan(path);
  assert.deepEqual(lines(first), [1]);
  assert.equal(first.invalidLines, 0, 'a partial line is not an invalid line');
  assert.deepEqual(
    first.findings.map((f) => [f.code, f.severity, f.line]),
    [['truncated-line', 'information', 2]],
  );
  assert.deepEqual(first.pending, { line: 2, offset: sample(0, 0).length + 1, byteLength: 30 });
  appendFileSync(path, `${full.slice(30)}\n`);
  const second = await scan(path, first);
  assert.equal(second.resumedFrom, first.endOffset);
  assert.deepEqual(lines(second), [1, 2]);
  assert.deepEqual(second.findings, []);
  assert.equal(second.pending, null);
});

test('resume: a complete last line without newline counts as a record, and is not counted twice when the file grows', async (t) => {
  const path = join(tempDir(t), 'log.jsonl');
  writeFileSync(path, `${sample(0, 0)}\n${sample(0, 1)}`);
  const first = await scan(path);
  assert.deepEqual(lines(first), [1, 2]);
  assert.deepEqual(first.findings, []);
  appendFileSync(path, `\n${sample(1, 2)}\n`);
  const second = await scan(path, first);
  assert.deepEqual(lines(second), [1, 2, 3]);
  assert.equal(second.records, 3);
});

test('resume: a shrunk (truncated) file is read again from the start', async (t) => {
  const path = join(tempDir(t), 'log.jsonl');
  writeFileSync(path, `${sample(0, 0)}\n${sample(0, 1)}\n${sample(1, 2)}\n`);
  const first = await scan(path);
  truncateSync(path, sample(0, 0).length + 1);
  const second = await scan(path, first);
  assert.equal(second.resumedFrom, 0);
  assert.deepEqual(lines(second), [1]);
});

test('resume: a file replaced by a new one of the same name is read from the start', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'log.jsonl');
  writeFileSync(path, `${sample(0, 0)}\n`);
  const first = await scan(path);
  const other = join(dir, 'new.jsonl');
  writeFileSync(other, `${sample(5, 0)}\n${sample(5, 1)}\n${sample(5, 2)}\n`);
  renameSync(other, path);
  const second = await scan(path, first);
  assert.equal(second.resumedFrom, 0);
  assert.deepEqual(
    second.samples.toArray().map((x) => x.groupKey),
    ['5', '5', '5'],
  );
});

test('resume: rewritten in place with the same size or longer but different bytes → read from the start', async (t) => {
  const path = join(tempDir(t), 'log.jsonl');
  writeFileSync(path, `${sample(0, 0)}\n`);
  const first = await scan(path);
  writeFileSync(path, `${sample(7, 0)}\n${sample(7, 1)}\n`);
  const second = await scan(path, first);
  assert.equal(second.resumedFrom, 0);
  assert.deepEqual(
    second.samples.toArray().map((x) => x.groupKey),
    ['7', '7'],
  );
});

test('resume: findings and invalid lines carry over and new ones are added once', async (t) => {
  const path = join(tempDir(t), 'log.jsonl');
  writeFileSync(path, `${sample(0, 0)}\nnot json\n`);
  const first = await scan(path);
  appendFileSync(path, `also not json\n${sample(0, 1)}\n`);
  const second = await scan(path, first);
  assert.equal(second.invalidLines, 2);
  assert.deepEqual(
    second.findings.map((f) => [f.code, f.line]),
    [
      ['invalid-json', 2],
      ['invalid-json', 3],
    ],
  );
});

test('resume: detection still pending when the file started with invalid lines, then decided on growth', async (t) => {
  const path = join(tempDir(t), 'log.jsonl');
  writeFileSync(path, 'garbage\n');
  const first = await scan(path);
  assert.equal(first.format, 'unknown');
  appendFileSync(path, `${sample(0, 0)}\n`);
  const second = await scan(path, first);
  assert.equal(second.format, 'miles-sample');
  assert.deepEqual(
    second.findings.map((f) => f.code),
    ['invalid-json'],
  );
});

test('resume: other settings → read from the start (the records depend on them)', async (t) => {
  const path = join(tempDir(t), 'log.jsonl');
  writeFileSync(path, `${sample(0, 0)}\n`);
  const first = await scan(path);
  const second = await scanFile({ path, displayPath: 'log.jsonl' }, { ...options, settings: { ...DEFAULT_SETTINGS, rewardKey: 'x' } }, first);
  assert.equal(second.resumedFrom, 0);
});

test('scan: cancellation between chunks throws CancelledError', async (t) => {
  const path = join(tempDir(t), 'log.jsonl');
  writeFileSync(path, `${sample(0, 0)}\n`.repeat(200));
  let calls = 0;
  await assert.rejects(
    scanFile(
      { path, displayPath: 'x' },
      {
        ...options,
        chunkSize: 256,
        cancellation: {
          get isCancellationRequested() {
            return ++calls > 3;
          },
        },
      },
    ),
    CancelledError,
  );
});

test('scan: records + invalid lines + blank lines + pending account for every line', async (t) => {
  const path = join(tempDir(t), 'log.jsonl');
  writeFileSync(path, `${sample(0, 0)}\n\nbad\n  \r\n[1]\n${sample(0, 1)}\n{"partial`);
  const s = await scan(path);
  assert.equal(s.lines, 7);
  assert.equal(s.records + s.invalidLines + s.blankLines + (s.pending && s.findings.some((f) => f.code === 'truncated-line') ? 1 : 0), 7);
});

test('resume: a rewrite that changes only the start of the file (same size, same last bytes) → read from the start', async (t) => {
  const path = join(tempDir(t), 'log.jsonl');
  const tail = Array.from({ length: 20 }, (_, i) => sample(1, i + 1)).join('\n');
  writeFileSync(path, `${sample(0, 0)}\n${tail}\n`);
  const first = await scan(path);
  writeFileSync(path, `${sample(9, 0)}\n${tail}\n`);
  const second = await scan(path, first);
  assert.equal(second.resumedFrom, 0);
  assert.equal(second.samples.at(0).groupKey, '9');
});
