// Shared helpers of the reader tests: real files in a fresh temp folder, read through Node's FileAccess.
import { readLines, type ReadLinesOptions } from '../../../server/src/core/reader/lineReader';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { tempDir as sharedTempDir, type AfterHook, writeIn } from '../../shared/tempDir';

export const tempDir = (t: AfterHook): string => sharedTempDir(t, 'rl-reader-');

export { writeIn as writeFile };

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
