// Streams a file through `FileAccess` in fixed-size chunks and hands every line to a synchronous
// callback as a byte range. The file is never one JS string: a line is decoded (or scanned) only
// by whoever receives it. Lines inside a chunk are passed without copying; a line that spans chunks
// is gathered into a list of copies and joined once (linear, even for a 100 MB line).
import type { FileAccess, OpenFile } from '../fileAccess';

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

function hasBom(bytes: Uint8Array, n: number): boolean {
  return n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Reads lines from `path` and calls `onLine` for each complete line (ending in `\n`). A final
 * line without `\n` is returned as `pending` instead, because a file being written may still
 * complete it; the caller decides what it means.
 */
export async function readLines(
  access: FileAccess,
  path: string,
  options: ReadLinesOptions,
  onLine: (ref: LineRef) => void,
): Promise<ReadLinesResult> {
  const file = await access.open(path);
  try {
    return await readOpen(file, options, onLine);
  } finally {
    await file.close();
  }
}

async function readOpen(file: OpenFile, options: ReadLinesOptions, onLine: (ref: LineRef) => void): Promise<ReadLinesResult> {
  const chunkSize = Math.max(16, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const limit = options.endOffset ?? Infinity;
  const buf = new Uint8Array(chunkSize);
  const ref: LineRef = { bytes: buf, start: 0, end: 0, line: options.startLine ?? 1, offset: 0 };
  let position = options.startOffset ?? 0;
  let lineOffset = position; // file offset of the current line's first byte
  let carry: Uint8Array[] = []; // copies of the current line's earlier pieces
  let carryBytes = 0;
  let bomLength = 0;
  let cancelled = false;

  for (;;) {
    if (options.isCancelled?.()) {
      cancelled = true;
      break;
    }
    const want = Math.min(chunkSize, limit - position);
    if (want <= 0) break;
    const n = await file.read(buf, 0, want, position);
    if (n <= 0) break;
    let i = 0;
    if (position === 0 && hasBom(buf, n)) {
      i = 3;
      bomLength = 3;
      lineOffset = 3;
    }
    for (;;) {
      const nl = buf.indexOf(LF, i);
      if (nl < 0 || nl >= n) break;
      if (carry.length === 0) {
        ref.bytes = buf;
        ref.start = i;
        ref.end = contentEnd(buf, i, nl);
      } else {
        carry.push(buf.slice(i, nl));
        const joined = concat(carry, carryBytes + (nl - i));
        carry = [];
        carryBytes = 0;
        ref.bytes = joined;
        ref.start = 0;
        ref.end = contentEnd(joined, 0, joined.length);
      }
      ref.offset = lineOffset;
      onLine(ref);
      ref.line++;
      lineOffset = position + nl + 1;
      i = nl + 1;
    }
    if (i < n) {
      carry.push(buf.slice(i, n));
      carryBytes += n - i;
    }
    position += n;
    options.onChunk?.(position, limit === Infinity ? position : limit);
  }

  const pending = carryBytes > 0 ? { bytes: concat(carry, carryBytes), line: ref.line, offset: lineOffset } : null;
  return { endOffset: lineOffset, nextLine: ref.line, pending, bomLength, cancelled };
}

/** Reads `length` bytes at `offset` (one line, for hovers and details). */
export async function readRange(access: FileAccess, path: string, offset: number, length: number): Promise<Uint8Array> {
  const file = await access.open(path);
  try {
    const out = new Uint8Array(length);
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
