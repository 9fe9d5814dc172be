// Files that move under the reader (truncated, deleted, replaced, appended, rewritten while being
// read), files that cannot be read (a FIFO, a folder named x.jsonl, /proc/self/mem, symlink loops,
// a dangling link) and a FileAccess whose reads fail. Real files on disk; the failing FileAccess
// is the interface under test. Nothing hangs, nothing crashes, the readable files are reported,
// and once the writer stops a re-scan equals a one-shot scan of the file as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, openSync, closeSync, renameSync, statSync, symlinkSync, truncateSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { scanFile, type ScanState } from '../../server/src/core/engine';
import type { FileAccess } from '../../server/src/core/seams/fileAccess';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';
import { DEFAULT_SETTINGS } from '../../shared/protocol';
import { parseContract } from './contract';
import { accounted, cliJson, groupLines, runCli, scan, tempDir, write } from './helpers';
import { readThrough } from '../shared/readThrough';

const CHUNK = 4096;

/** nodeFileAccess whose first read of `path` runs `act` once, right after it returns (the file moves mid-read). */
function movingAccess(path: string, act: () => void): FileAccess {
  let done = false;
  return readThrough(async (p, next) => {
    const n = await next();
    if (p === path && !done) {
      done = true;
      act();
    }
    return n;
  });
}

/** What a scan says, compactly: enough to compare a resumed scan with a fresh one. */
function summary(s: ScanState) {
  return {
    records: s.records,
    invalidLines: s.invalidLines,
    blankLines: s.blankLines,
    lines: s.lines,
    samples: s.samples.toArray().map((x) => [x.line, x.offset, x.groupKey, x.index, x.status]),
    findings: s.findings.map((f) => [f.code, f.line]),
  };
}

async function rescanEqualsFresh(path: string, previous: ScanState): Promise<void> {
  const again = await scanFile({ path, displayPath: path }, { access: nodeFileAccess, settings: DEFAULT_SETTINGS }, previous);
  const fresh = await scan(path);
  assert.deepEqual(summary(again), summary(fresh));
}

const TEXT = `${groupLines(0, 40).join('\n')}\n`; // ~75 KiB: many chunks of 4 KiB

test('file truncated, replaced, appended to, or rewritten in place while it is read: the scan completes with every line accounted for; a re-scan equals a fresh scan', async (t) => {
  const dir = tempDir(t);
  const moves: [string, (path: string) => void][] = [
    ['truncated to a third', (p) => truncateSync(p, Math.floor(statSync(p).size / 3))],
    ['truncated to nothing', (p) => truncateSync(p, 0)],
    ['replaced by rename', (p) => renameSync(write(dir, 'next.tmp', `${groupLines(100, 103).join('\n')}\n`), p)],
    ['appended to, last line split', (p) => appendFileSync(p, `${groupLines(40, 45).join('\n')}\n${groupLines(45, 46)[0].slice(0, 50)}`)],
    [
      'rewritten in place, same size',
      (p) => {
        const fd = openSync(p, 'r+');
        try {
          writeSync(fd, Buffer.from(TEXT.replace(/"completed"/g, '"truncated"').replace(/"reward": 1\.0/g, '"reward": 0.5')), 0, undefined, 0);
        } finally {
          closeSync(fd);
        }
      },
    ],
  ];
  for (const [name, move] of moves) {
    await t.test(name, async () => {
      const path = write(dir, `${name.replace(/\W+/g, '-')}.jsonl`, TEXT);
      const s = await scan(
        path,
        {},
        movingAccess(path, () => move(path)),
        CHUNK,
      );
      const a = accounted(s);
      assert.equal(a.counted, a.lines, 'records + invalid + blank (+ unfinished) = lines read');
      await rescanEqualsFresh(path, s);
    });
  }
});

test('file deleted while it is read: the open file is read to its end or the scan fails with ENOENT; never a hang or a crash', async (t) => {
  const dir = tempDir(t);
  const path = write(dir, 'deleted.jsonl', TEXT);
  const outcome = await scan(
    path,
    {},
    movingAccess(path, () => unlinkSync(path)),
    CHUNK,
  ).then(
    (s) => ({ ok: true as const, s }),
    (err: NodeJS.ErrnoException) => ({ ok: false as const, err }),
  );
  if (outcome.ok) {
    assert.equal(outcome.s.records, 160);
  } else {
    assert.equal(outcome.err.code, 'ENOENT');
  }
  await assert.rejects(scan(path), (e: NodeJS.ErrnoException) => e.code === 'ENOENT');
});

test('a FileAccess whose read fails (EIO on the 3rd chunk), whose open fails, or whose stat throws a non-Error: the scan rejects with that error, promptly', async (t) => {
  const dir = tempDir(t);
  const path = write(dir, 'eio.jsonl', TEXT);
  let reads = 0;
  const eio = readThrough(async (_path, next) => {
    if (++reads === 3) throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
    return next();
  });
  await assert.rejects(scan(path, {}, eio, CHUNK), /EIO/);
  const noOpen: FileAccess = { ...nodeFileAccess, open: async () => Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })) };
  await assert.rejects(scan(path, {}, noOpen), /EACCES/);
  const weird: FileAccess = { ...nodeFileAccess, stat: async () => Promise.reject('a string, not an Error') };
  await assert.rejects(scan(path, {}, weird), (e: unknown) => e === 'a string, not an Error');
});

/** A run folder with every kind of unreadable entry next to readable logs. */
function hostileFolder(dir: string): { readable: string[]; unreadable: string[] } {
  const run = join(dir, 'run');
  mkdirSync(join(run, 'steps.jsonl'), { recursive: true }); // a folder named like a log
  mkdirSync(join(run, 'deep/er'), { recursive: true });
  writeFileSync(join(run, 'rollout_1.jsonl'), TEXT);
  writeFileSync(join(run, 'steps.jsonl/rollout_2.jsonl'), `${groupLines(0, 3).join('\n')}\n`);
  writeFileSync(join(run, 'deep/er/rollout_3.jsonl'), `${groupLines(3, 6).join('\n')}\n`);
  execFileSync('mkfifo', [join(run, 'pipe.jsonl')]); // opening it would block until a writer comes
  symlinkSync('/proc/self/mem', join(run, 'mem.jsonl')); // a regular file whose read fails (EIO), even for root
  symlinkSync('self.jsonl', join(run, 'self.jsonl')); // ELOOP
  symlinkSync('ring-b.jsonl', join(run, 'ring-a.jsonl'));
  symlinkSync('ring-a.jsonl', join(run, 'ring-b.jsonl'));
  symlinkSync('..', join(run, 'deep/er/up')); // a folder loop
  symlinkSync('missing.jsonl', join(run, 'dangling.jsonl'));
  return {
    readable: ['run/deep/er/rollout_3.jsonl', 'run/rollout_1.jsonl', 'run/steps.jsonl/rollout_2.jsonl'],
    unreadable: ['mem.jsonl', 'self.jsonl', 'ring-a.jsonl', 'ring-b.jsonl', 'dangling.jsonl', 'pipe.jsonl'],
  };
}

test('unreadable files in a folder (FIFO, /proc/self/mem, symlink self-loop and ring, folder loop, dangling link, a folder named x.jsonl): the CLI ends, names each on stderr, exit 2, and reports every readable log', (t) => {
  const dir = tempDir(t);
  const { readable, unreadable } = hostileFolder(dir);
  const r = cliJson(['run'], dir);
  assert.equal(r.status, 2, 'unreadable input → exit 2');
  assert.deepEqual(r.doc.files.map((f) => f.path).sort(), readable);
  assert.deepEqual(
    r.doc.files.map((f) => f.records).sort((a, b) => a - b),
    [12, 12, 160],
  );
  for (const name of unreadable) assert.match(r.stderr, new RegExp(`cannot read run/${name.replace('.', '\\.')}: `), name);
  assert.match(r.stderr, /run\/mem\.jsonl: EIO/);
  assert.match(r.stderr, /run\/self\.jsonl: .*(symbolic link|symlink|ELOOP)/);
  assert.match(r.stderr, /run\/pipe\.jsonl: .*not a (regular )?file/);
});

test('unreadable paths given directly (FIFO, /proc/self/mem, symlink loop): the CLI ends with exit 2 and a reason, never blocks on the FIFO', (t) => {
  const dir = tempDir(t);
  hostileFolder(dir);
  for (const [name, reason] of [
    ['pipe.jsonl', /not a file or folder/],
    ['mem.jsonl', /EIO/],
    ['self.jsonl', /symbolic link|symlink|ELOOP/],
  ] as const) {
    const r = runCli(['check', '--format', 'json', join('run', name)], dir);
    assert.equal(r.status, 2, name);
    assert.match(r.stderr, reason, name);
    // With nothing to analyse there is no report; when there is one, it keeps the contract.
    if (r.stdout !== '') assert.equal(parseContract(r.stdout).files.length, 0, name);
  }
});
