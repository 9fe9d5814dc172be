// A small file's text read whole through FileAccess (so an open document's unsaved text is what is
// read): an eval config or settings file a quick fix edits, a run summary a comparison reads.
import type { FileAccess } from './seams/fileAccess';
import { readLineText } from './reader/lineReader';

/** The first `byteLength` bytes of `path` (its size, read whole) as UTF-8 text. */
export function readFileText(access: FileAccess, path: string, byteLength: number): Promise<string> {
  return readLineText(access, path, 0, byteLength);
}
