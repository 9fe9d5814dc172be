// BENCHMARKS.md is a reference others point into: every `BENCHMARKS.md, "<section>"` or
// `BENCHMARKS.md#<anchor>` in the sources, tests, benches and docs names a section it has, it stays
// short, and it names no issue of a tracker outside the repository.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { test } from 'node:test';
import { join } from 'node:path';

// out/test/unit/setup -> repository root
const root = join(__dirname, '../../../..');
const benchmarks = readFileSync(join(root, 'BENCHMARKS.md'), 'utf8');
const headings = [...benchmarks.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1].trim());
/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (h: string) =>
  h
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const SKIP = new Set(['node_modules', 'out', 'dist', '.cache', '.data', '.tmp', 'fixtures', '.git']);
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return /\.(ts|mjs|cjs|js|py|wat|md)$/.test(name) ? [p] : [];
  });
}
const sources = [
  ...['server', 'client', 'shared', 'webview', 'bench', 'test', 'docs', 'scripts'].flatMap((d) => files(join(root, d))),
  join(root, 'README.md'),
];

/** The file's text with comment line breaks joined, so a section name broken over two lines reads whole. */
const joined = (text: string) => text.replace(/\s*\n\s*(\/\/|\*|;;|#)?\s*/g, ' ');

test('every reference into BENCHMARKS.md names a section it has', () => {
  const broken: string[] = [];
  let seen = 0;
  for (const file of sources) {
    if (file.endsWith('benchmarkLinks.test.ts')) continue; // its header shows the forms
    const text = joined(readFileSync(file, 'utf8'));
    for (const m of text.matchAll(/BENCHMARKS\.md(?:, ([^"\s][^,;)]*|"[^"]+")|#([a-z0-9-]+))/g)) {
      seen++;
      const where = `${file.slice(root.length)}: ${m[0]}`;
      if (m[2] !== undefined) {
        if (!headings.some((h) => anchor(h) === m[2])) broken.push(where);
      } else if (!m[1].startsWith('"')) {
        // A bare word after the comma is a section named without quotes: say which, quoted.
        if (/^[A-Z]/.test(m[1]) || /measurements/.test(m[1])) broken.push(`${where} (quote the section's name)`);
      } else if (!headings.includes(m[1].slice(1, -1))) broken.push(where);
    }
  }
  assert.ok(seen >= 25, `found only ${seen} references: is the pattern still right?`);
  assert.deepEqual(broken, []);
});

test('BENCHMARKS.md stays a reference: at most 300 lines, no outside issue numbers', () => {
  assert.ok(benchmarks.split('\n').length <= 301, `${benchmarks.split('\n').length} lines`);
  assert.doesNotMatch(benchmarks, /\bissue \d+/i);
  for (const h of ['How to rerun', 'Targets', 'Design measurements']) assert.ok(headings.includes(h), h);
});
