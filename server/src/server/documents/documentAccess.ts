// Open documents are analysed from the editor's text, not from disk (the buffer may be unsaved).
// The engine reads only through `FileAccess`, so an overlay serves open documents from memory as
// UTF-8 bytes (the engine's offsets are byte offsets, as on disk) and everything else from the
// fallback (disk). A document's bytes are encoded once per version and dropped on close.
import type { DirEntry, FileAccess, FileStat, OpenFile } from '../../core/seams/fileAccess';

interface Snapshot {
  version: number;
  bytes: Uint8Array;
  mtimeMs: number;
}

const encoder = new TextEncoder();

export class DocumentAccess implements FileAccess {
  private readonly docs = new Map<string, Snapshot>();
  /** Documents whose text is only known lazily (encoded on first read). */
  private readonly pending = new Map<string, { version: number; text: () => string }>();

  constructor(private readonly fallback: FileAccess) {}

  /** Registers (or updates) the text of an open document under its file-system path. */
  set(path: string, version: number, text: () => string): void {
    const current = this.docs.get(path);
    if (current && current.version === version) return;
    this.docs.delete(path);
    this.pending.set(path, { version, text });
  }

  delete(path: string): void {
    this.docs.delete(path);
    this.pending.delete(path);
  }

  has(path: string): boolean {
    return this.docs.has(path) || this.pending.has(path);
  }

  private snapshot(path: string): Snapshot | undefined {
    const lazy = this.pending.get(path);
    if (lazy) {
      this.pending.delete(path);
      this.docs.set(path, { version: lazy.version, bytes: encoder.encode(lazy.text()), mtimeMs: Date.now() });
    }
    return this.docs.get(path);
  }

  async stat(path: string): Promise<FileStat> {
    const snap = this.snapshot(path);
    if (!snap) return this.fallback.stat(path);
    return { size: snap.bytes.byteLength, mtimeMs: snap.mtimeMs, isFile: true, isDirectory: false, id: `doc:${path}:${snap.version}` };
  }

  async open(path: string): Promise<OpenFile> {
    const snap = this.snapshot(path);
    if (!snap) return this.fallback.open(path);
    const bytes = snap.bytes; // pinned: a later edit does not change what this reader sees
    return {
      async read(buffer, bufferOffset, length, position) {
        if (position >= bytes.byteLength) return 0;
        const n = Math.min(length, bytes.byteLength - position);
        buffer.set(bytes.subarray(position, position + n), bufferOffset);
        return n;
      },
      async close() {},
    };
  }

  readDir(path: string): Promise<DirEntry[]> {
    return this.fallback.readDir(path);
  }

  realPath(path: string): Promise<string> {
    return this.has(path) ? Promise.resolve(path) : this.fallback.realPath(path);
  }
}
