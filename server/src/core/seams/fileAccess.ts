// The engine reads files only through this interface, so the same engine runs in the CLI, the
// language server (disk files and open documents) and, later, a browser worker.

export interface FileStat {
  size: number;
  mtimeMs: number;
  isFile: boolean;
  isDirectory: boolean;
  /** Identity across renames/replacements where the platform has one (inode); null otherwise. */
  id: string | null;
}

/** One file version's stamp (size, mtime, identity): a cached analysis holds while it is unchanged. */
export function fileStamp(st: FileStat): string {
  return `${st.size}:${st.mtimeMs}:${st.id ?? ''}`;
}

export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

export interface OpenFile {
  /** Reads up to `length` bytes at `position` into `buffer` at `bufferOffset`; returns bytes read (0 at EOF). */
  read(buffer: Uint8Array, bufferOffset: number, length: number, position: number): Promise<number>;
  close(): Promise<void>;
}

export interface FileAccess {
  stat(path: string): Promise<FileStat>;
  open(path: string): Promise<OpenFile>;
  readDir(path: string): Promise<DirEntry[]>;
  /** Resolves symbolic links; used to break symlink loops when walking folders. */
  realPath(path: string): Promise<string>;
}
