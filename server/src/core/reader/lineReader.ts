// Streams a file through `FileAccess` in fixed-size chunks and hands every line to a synchronous
// callback as a byte range. The file is never one JS string: a line is decoded (or scanned) only
// by whoever receives it. Lines are passed without copying: the unfinished tail of a chunk is moved
// to the front of the buffer and the next chunk is read behind it, so every line is contiguous; a
// line longer than the buffer grows it by doubling (linear in the line, even for 100 MB).
import type { FileAccess, OpenFile } from '../fileAccess';

import { allocBytes, scanBytes } from './scanBytes';

export const DEFAULT_CHUNK_SIZE = 1 << 20;

/** One line: `bytes[start, end)` without its end-of-line (`\n` or `\r\n`). Valid only during the callback. */
export interface LineRef {
  bytes: Uint8Array;
  start: number;
  end: number;
  /** 1-based. */
  line: number;
  /** File offset of the line's first byte. */
  offset: number;
}

export interface ReadLinesOptions {
  /** Byte offset to start at: 0, or the first byte of a line (resume). */
  startOffset?: number;
  /** Line number of the line at `startOffset` (1 at the start of the file). */
  startLine?: number;
  chunkSize?: number;
  /** Checked between chunks; when it returns true the read stops and `cancelled` is set. */
  isCancelled?: () => boolean;
  /** After each chunk: bytes consumed so far (absolute offset) and the file's size when opened. */
  onChunk?: (position: number, size: number) => void;
  /** Stop after this offset (exclusive), e.g. the size seen by `stat`; default: read to EOF. */
  endOffset?: number;
}

export interface ReadLinesResult {
  /** Offset just after the last complete line (its `\n`). Resume here. */
  endOffset: number;
  /** Line number of the next line to read (the pending one, if any). */
  nextLine: number;
  /** A last line without `\n`, copied out; null when the file ends with a newline. */
  pending: { bytes: Uint8Array; line: number; offset: number } | null;
  /** Bytes of a UTF-8 BOM skipped at offset 0 (0 or 3). */
  bomLength: number;
  cancelled: boolean;
}

const LF = 0x0a;
const CR = 0x0d;

/** The end of the line's content: drops a `\r` that precedes the `\n`. */
function contentEnd(bytes: Uint8Array, start: number, end: number): number {
  return end > start && bytes[end - 1] === CR ? end - 1 : end;
}

/**
 * The next `\n` in `buf[from, end)`, or -1. `indexOf` has no end bound: past `end` lie stale bytes,
 * harmless in a normal buffer but many MB in one grown for a huge line, so that search is bounded.
 */
function findLF(buf: Uint8Array, from: number, end: number): number {
  if (buf.length - end > 1 << 22) {
    const at = buf.subarray(from, end).indexOf(LF);
    return at < 0 ? -1 : from + at;
  }
  const nl = buf.indexOf(LF, from);
  return nl >= from && nl < end ? nl : -1;
}

function hasBom(bytes: Uint8Array, n: number): boolean {
  return n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/**
 * Reads lines from `path` and calls `onLine` for each complete line (ending in `\n`). A final
 * line without `\n` is returned as `pending` instead, because a file being written may still
 * complete it; the caller decides what it means.
 */
export async function readLines(access: FileAccess, path: string, options: ReadLinesOptions, onLine: (ref: LineRef) => void): Promise<ReadLinesResult> {
  const file = await access.open(path);
  try {
    return await readOpen(file, options, onLine);
  } finally {
    await file.close();
  }
}

interface Chunk {
  bytes: Uint8Array;
  n: number;
  want: number;
}

async function readOpen(file: OpenFile, options: ReadLinesOptions, onLine: (ref: LineRef) => void): Promise<ReadLinesResult> {
  const chunkSize = Math.max(16, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const limit = options.endOffset ?? Infinity;
  // Two read buffers alternate: the next chunk is read (on the I/O thread) while this one is parsed.
  const incoming = [allocBytes(chunkSize), allocBytes(chunkSize)];
  let flip = 0;
  let readAt = options.startOffset ?? 0;
  const startRead = (): Promise<Chunk> | null => {
    const want = Math.min(chunkSize, limit - readAt);
    if (want <= 0) return null;
    const bytes = incoming[flip];
    flip ^= 1;
    const at = readAt;
    readAt += want;
    return file.read(bytes, 0, want, at).then((n) => ({ bytes, n, want }));
  };

  let buf = scanBytes(2 * chunkSize);
  const ref: LineRef = { bytes: buf, start: 0, end: 0, line: options.startLine ?? 1, offset: 0 };
  let position = options.startOffset ?? 0; // file offset just after the bytes in buf
  let filled = 0; // buf[0, filled): the unfinished line's start (no newline in it)
  let bomLength = 0;
  let cancelled = false;
  let next = startRead();

  while (next !== null) {
    const chunk = await next;
    next = null;
    if (chunk.n <= 0) break;
    if (options.isCancelled?.()) {
      cancelled = true;
      break;
    }
    // A short read is the end of the file (for now): nothing more is read ahead of it.
    if (chunk.n === chunk.want) next = startRead();
    const n = chunk.n;
    // Room behind the unfinished line; grows by doubling only while one line outgrows the buffer.
    if (buf.length - filled < n) {
      const bigger = scanBytes(Math.max(buf.length * 2, filled + n));
      bigger.set(buf.subarray(0, filled));
      buf = bigger;
    }
    buf.set(n === chunk.bytes.length ? chunk.bytes : chunk.bytes.subarray(0, n), filled);
    let lineStart = 0;
    let search = filled; // bytes before `filled` hold no newline
    if (position === 0 && filled === 0 && hasBom(buf, n)) {
      lineStart = search = bomLength = 3;
    }
    const lineOffset0 = position - filled; // file offset of buf[0]
    const end = filled + n;
    ref.bytes = buf;
    for (;;) {
      const nl = findLF(buf, search, end);
      if (nl < 0) break;
      ref.start = lineStart;
      ref.end = contentEnd(buf, lineStart, nl);
      ref.offset = lineOffset0 + lineStart;
      onLine(ref);
      ref.line++;
      lineStart = search = nl + 1;
    }
    // Keep the unfinished line at the front; give a huge buffer back once its line is done.
    const rest = end - lineStart;
    if (buf.length > 4 * chunkSize && rest <= chunkSize) {
      const small = scanBytes(2 * chunkSize);
      small.set(buf.subarray(lineStart, end));
      buf = small;
    } else if (lineStart > 0) {
      buf.copyWithin(0, lineStart, end);
    }
    filled = rest;
    position += n;
    options.onChunk?.(position, limit === Infinity ? position : limit);
  }
  // A read still in flight must finish before the file is closed.
  if (next !== null) await (next as Promise<Chunk>).catch(() => undefined);

  const lineOffset = position - filled;
  const pending = filled > 0 ? { bytes: buf.subarray(0, filled), line: ref.line, offset: lineOffset } : null;
  return { endOffset: lineOffset, nextLine: ref.line, pending, bomLength, cancelled };
}

/** Reads `length` bytes at `offset` (one line, for hovers and details). */
export async function readRange(access: FileAccess, path: string, offset: number, length: number): Promise<Uint8Array> {
  const file = await access.open(path);
  try {
    const out = allocBytes(length);
    let got = 0;
    while (got < length) {
      const n = await file.read(out, got, length - got, offset + got);
      if (n <= 0) break;
      got += n;
    }
    return got === length ? out : out.subarray(0, got);
  } finally {
    await file.close();
  }
}

/** One line's text by offset and byte length (UTF-8 decoded). */
export async function readLineText(access: FileAccess, path: string, offset: number, byteLength: number): Promise<string> {
  return new TextDecoder().decode(await readRange(access, path, offset, byteLength));
}
