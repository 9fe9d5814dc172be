// Shared helpers of the reader tests: real files in a fresh temp folder, read through Node's FileAccess.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { readLines, type ReadLinesOptions } from '../../../server/src/core/reader/lineReader';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';

export function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'rl-reader-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function writeFile(dir: string, name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

export interface SeenLine {
  text: string;
  line: number;
  offset: number;
}

/** All complete lines of a file, decoded, with the reader's result. */
export async function collectLines(path: string, options: ReadLinesOptions = {}) {
  const lines: SeenLine[] = [];
  const result = await readLines(nodeFileAccess, path, options, (ref) => {
    lines.push({ text: Buffer.from(ref.bytes.subarray(ref.start, ref.end)).toString('utf8'), line: ref.line, offset: ref.offset });
  });
  return { lines, result };
}
