// An opened file over bytes in memory, for pickles built by a test (no file on disk).
import type { OpenFile } from '../../server/src/core/seams/fileAccess';

/** `bytes` as an `OpenFile`: reads past the end read nothing. */
export function memoryFile(bytes: Uint8Array): OpenFile {
  return {
    read: async (buf, off, len, pos) => {
      const n = Math.max(0, Math.min(len, bytes.length - pos));
      buf.set(bytes.subarray(pos, pos + n), off);
      return n;
    },
    close: async () => {},
  };
}
