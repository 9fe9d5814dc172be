// Streams a file through `FileAccess` in fixed-size chunks and hands every line to a synchronous
// callback as a byte range. The file is never one JS string: a line is decoded (or scanned) only
// by whoever receives it. Chunks are read straight into the scan buffers and lines are passed
// without copying: only a chunk's unfinished last line is copied, in front of the next chunk, so
// every line is contiguous; a line longer than the chunk grows a buffer of its own by doubling
// (linear in the line, even for 100 MB).
import type { FileAccess, OpenFile } from '../seams/fileAccess';

import { allocBytes, lineBuffer } from './lineBuffers';

export const DEFAULT_CHUNK_SIZE = 1 << 20;
/** Chunks of a big file (at least `BIG_FILE` bytes still to read): a quarter as many reads. */
const BIG_CHUNK_SIZE = 4 << 20;
const BIG_FILE = 64 << 20;

/**
 * The chunk size for reading `bytes` bytes of a file. Each chunk is one read on the I/O thread and
 * one wait for it: on a big file 4 MiB chunks take less time than 1 MiB ones (BENCHMARKS.md,
 * "Design measurements"), for scan buffers four times as large, which a small file would not repay.
 */
export function chunkSizeFor(bytes: number): number {
  return bytes >= BIG_FILE ? BIG_CHUNK_SIZE : DEFAULT_CHUNK_SIZE;
}

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

/**
 * Scan buffers of finished reads, kept for the next read of a file: a new buffer is fresh memory
 * (a page fault per 4 KiB touched, ~12 µs each on a shared VM), and `summarize` of 200 files of
 * ~1.4 MB made two per file (BENCHMARKS.md, "Comparing runs: summarize and diff"). One pair is
 * kept: reads one after the other share it; reads at once make their own. A big file's pair
 * (`BIG_CHUNK_SIZE`, 16 MiB) is not kept: its scan repays the fresh memory many times over, and
 * kept it would sit beside the file's samples through the analysis that follows the read.
 */
const spareBuffers: Uint8Array[] = [];
const SPARE_BUFFERS = 2;

function takeBuffer(size: number): Uint8Array {
  const at = spareBuffers.findIndex((b) => b.length === size);
  return at < 0 ? lineBuffer(size) : spareBuffers.splice(at, 1)[0];
}

function giveBack(buffers: readonly Uint8Array[]): void {
  for (const b of buffers) {
    if (b.length > 2 * DEFAULT_CHUNK_SIZE) continue;
    if (spareBuffers.length >= SPARE_BUFFERS) spareBuffers.shift();
    spareBuffers.push(b);
  }
}

interface Chunk {
  bytes: Uint8Array;
  n: number;
  want: number;
}

async function readOpen(file: OpenFile, options: ReadLinesOptions, onLine: (ref: LineRef) => void): Promise<ReadLinesResult> {
  const chunkSize = Math.max(16, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  // Two scan buffers alternate: the next chunk is read (on the I/O thread) straight into one while
  // the other's lines are scanned, so no chunk is copied. Each keeps `head` bytes in front of its
  // chunk for the unfinished line carried over from the other (a line's start, copied once).
  const head = chunkSize;
  const buffers = [takeBuffer(head + chunkSize), takeBuffer(head + chunkSize)];
  try {
    return await readInto(file, options, onLine, buffers, chunkSize);
  } finally {
    giveBack(buffers);
  }
}

async function readInto(
  file: OpenFile,
  options: ReadLinesOptions,
  onLine: (ref: LineRef) => void,
  buffers: readonly Uint8Array[],
  chunkSize: number,
): Promise<ReadLinesResult> {
  const limit = options.endOffset ?? Infinity;
  const head = chunkSize;
  let flip = 0;
  let readAt = options.startOffset ?? 0;
  let nextBytes = null as Uint8Array | null;
  const startRead = (): Promise<Chunk> | null => {
    const want = Math.min(chunkSize, limit - readAt);
    if (want <= 0) return null;
    const bytes = buffers[flip];
    flip ^= 1;
    const at = readAt;
    readAt += want;
    nextBytes = bytes;
    return file.read(bytes, head, want, at).then((n) => ({ bytes, n, want }));
  };

  const ref: LineRef = { bytes: buffers[0], start: 0, end: 0, line: options.startLine ?? 1, offset: 0 };
  let position = options.startOffset ?? 0; // file offset just after the bytes read so far
  // The unfinished line: tail[tailStart, tailStart + filled) (no newline in it). It sits in front of
  // the next chunk's buffer, or in `big` while it is longer than `head`.
  let tail: Uint8Array = buffers[0];
  let tailStart = head;
  let filled = 0;
  let big: Uint8Array | null = null;
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
    let data = chunk.bytes;
    let start = head - filled;
    if (filled > 0 && tail !== data) {
      // A line longer than `head` grows in `big` (doubling: linear in the line), the chunk behind it.
      if (big === null || big.length < filled + n) {
        const bigger = lineBuffer(Math.max(big === null ? 0 : big.length * 2, filled + n));
        bigger.set(tail.subarray(tailStart, tailStart + filled));
        big = bigger;
      }
      big.set(chunk.bytes.subarray(head, head + n), filled);
      data = big;
      start = 0;
    }
    const end = start + filled + n;
    let lineStart = start;
    let search = start + filled; // the carried bytes hold no newline
    if (position === 0 && filled === 0 && hasBom(data.subarray(start), n)) {
      lineStart = search = start + 3;
      bomLength = 3;
    }
    const lineOffset0 = position - filled - start; // file offset of data[0]
    ref.bytes = data;
    for (;;) {
      const nl = findLF(data, search, end);
      if (nl < 0) break;
      ref.start = lineStart;
      ref.end = contentEnd(data, lineStart, nl);
      ref.offset = lineOffset0 + lineStart;
      onLine(ref);
      ref.line++;
      lineStart = search = nl + 1;
    }
    filled = end - lineStart;
    position += n;
    // The unfinished line moves out of this buffer before it is read into again: in front of the
    // chunk being read, or into `big` while it is longer than `head`; at the end it stays.
    if (next === null || nextBytes === null) {
      tail = data;
      tailStart = lineStart;
    } else if (filled <= head) {
      if (filled > 0) nextBytes.set(data.subarray(lineStart, end), head - filled);
      tail = nextBytes;
      tailStart = head - filled;
      // A huge line's buffer is given back once that line is done.
      big = null;
    } else {
      if (data === big) big.copyWithin(0, lineStart, end);
      else {
        if (big === null || big.length < filled + chunkSize) big = lineBuffer(Math.max(4 * chunkSize, 2 * filled));
        big.set(data.subarray(lineStart, end));
      }
      tail = big;
      tailStart = 0;
    }
    options.onChunk?.(position, limit === Infinity ? position : limit);
  }
  // A read still in flight must finish before the file is closed.
  if (next !== null) await (next as Promise<Chunk>).catch(() => undefined);

  const lineOffset = position - filled;
  // Copied out: the scan buffers go to the next read.
  const pending = filled > 0 ? { bytes: allocBytes(filled), line: ref.line, offset: lineOffset } : null;
  pending?.bytes.set(tail.subarray(tailStart, tailStart + filled));
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
