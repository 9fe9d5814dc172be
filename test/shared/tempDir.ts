// A fresh folder under the OS temp dir for one test, removed when the test ends, and files written
// into it: what the unit, CLI and reliability tests share.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A test's context as far as these helpers need it (node:test's TestContext). */
export interface AfterHook {
  after: (fn: () => void) => void;
}

export function tempDir(t: AfterHook, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `content` to `dir/name`; returns its path. */
export function writeIn(dir: string, name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
