// `FileAccess` on Node's file system (CLI and language server on disk).
import { promises as fs } from 'node:fs';

import type { DirEntry, FileAccess, FileStat, OpenFile } from '../core/seams/fileAccess';

export const nodeFileAccess: FileAccess = {
  async stat(path: string): Promise<FileStat> {
    const st = await fs.stat(path);
    return { size: st.size, mtimeMs: st.mtimeMs, isFile: st.isFile(), isDirectory: st.isDirectory(), id: `${st.dev}:${st.ino}` };
  },
  async open(path: string): Promise<OpenFile> {
    const handle = await fs.open(path, 'r');
    return {
      async read(buffer, bufferOffset, length, position) {
        const { bytesRead } = await handle.read(buffer, bufferOffset, length, position);
        return bytesRead;
      },
      close: () => handle.close(),
    };
  },
  async readDir(path: string): Promise<DirEntry[]> {
    const entries = await fs.readdir(path, { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, isFile: e.isFile(), isDirectory: e.isDirectory(), isSymbolicLink: e.isSymbolicLink() }));
  },
  realPath: (path: string) => fs.realpath(path),
};
