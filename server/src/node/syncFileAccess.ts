// `FileAccess` on Node's file system with each call done on the calling thread (the synchronous
// calls, wrapped in settled promises): the CLI's (cli/fileAccess.ts) and that of the threads of
// `summarize --jobs` (node/summarizeJob.ts). The asynchronous calls hand every stat, open, read and
// close to libuv's I/O threads, shared by the whole process, and the caller waits for one of them
// to be scheduled: ~6 such waits a file. A thread whose only work is to read files one after the
// other gains nothing from waiting, and the waits add up (BENCHMARKS.md, "Design measurements").
import { closeSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';

import type { DirEntry, FileAccess, FileStat, OpenFile } from '../core/seams/fileAccess';

function statOf(st: import('node:fs').Stats): FileStat {
  return { size: st.size, mtimeMs: st.mtimeMs, isFile: st.isFile(), isDirectory: st.isDirectory(), id: `${st.dev}:${st.ino}` };
}

/** Runs `f` now; its value or its error as a settled promise, as the asynchronous call would give them. */
function settled<T>(f: () => T): Promise<T> {
  try {
    return Promise.resolve(f());
  } catch (err) {
    return Promise.reject(err as Error);
  }
}

export const syncFileAccess: FileAccess = {
  stat: (path) => settled(() => statOf(statSync(path))),
  open: (path) =>
    settled((): OpenFile => {
      const fd = openSync(path, 'r');
      return {
        read: (buffer, bufferOffset, length, position) => settled(() => readSync(fd, buffer, bufferOffset, length, position)),
        close: () => settled(() => closeSync(fd)),
      };
    }),
  readDir: (path) =>
    settled((): DirEntry[] =>
      readdirSync(path, { withFileTypes: true }).map((e) => ({
        name: e.name,
        isFile: e.isFile(),
        isDirectory: e.isDirectory(),
        isSymbolicLink: e.isSymbolicLink(),
      })),
    ),
  realPath: (path) => settled(() => realpathSync(path)),
};
