// The damaged-file cases of the reliability ring share one clean log: every bad line must get a
// finding on its own line, and the rest of the file must still be analysed (its groups and drop
// metrics equal those of the same file without the bad lines).
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';

import { check, groupLines, write } from './helpers';

export const GOOD = groupLines(0, 6); // 24 samples, 6 groups, groups 1 and 4 dropped (aborted)

/** What the clean file says: the baseline every damaged variant must still reach. */
export async function baseline(dir: string) {
  const clean = await check(write(dir, 'clean.jsonl', `${GOOD.join('\n')}\n`));
  return { groups: clean.file.groups, metrics: clean.file.metrics };
}

/** Good lines with `bad` (raw bytes) inserted before the good line at each position. */
export function withBadLines(bad: { at: number; bytes: Buffer }[]): { bytes: Buffer; badLines: number[] } {
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

/** The damaged file at `path`: one finding on each of `badLines` (matching `reason`), the rest as `base`. */
export async function assertRestAnalysed(path: string, badLines: number[], base: Awaited<ReturnType<typeof baseline>>, reason?: RegExp) {
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
