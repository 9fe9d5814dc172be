// The zip container of a PyTorch `.pt` (torch.save's format since 1.6, docs/pt.md): entries are
// stored, not deflated, so `<stem>/data.pkl` is a byte range of the file. Only the central
// directory is read (with zip64 for files past 4 GB); every offset and size it claims is checked
// against the file before anything is read.
import type { OpenFile } from '../../seams/fileAccess';

export interface ZipEntry {
  name: string;
  /** 0: stored. Anything else cannot be read as a byte range. */
  method: number;
  /** Where the entry's bytes start in the file, and how many there are. */
  dataOffset: number;
  size: number;
}

export class ZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipError';
  }
}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** Central directory entries read at most (a torch dump has a handful plus one per storage). */
const MAX_ENTRIES = 1_000_000;

async function readAt(file: OpenFile, position: number, length: number): Promise<Uint8Array> {
  const buf = new Uint8Array(length);
  let got = 0;
  while (got < length) {
    const n = await file.read(buf, got, length - got, position + got);
    if (n <= 0) break;
    got += n;
  }
  return got === length ? buf : buf.subarray(0, got);
}

function u16(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8);
}
function u32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}
function u64(b: Uint8Array, at: number): number {
  return u32(b, at) + u32(b, at + 4) * 0x1_0000_0000;
}

const utf8 = new TextDecoder('utf-8');

/** Reads the central directory of the zip at `path` (of `size` bytes). */
export async function readZipDirectory(file: OpenFile, size: number): Promise<ZipEntry[]> {
  if (size < 22) throw new ZipError('the file is too short to be a zip archive (truncated?)');
  const tailLength = Math.min(size, 22 + 0xffff + 20);
  const tailStart = size - tailLength;
  const tail = await readAt(file, tailStart, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (u32(tail, i) === EOCD && i + 22 + u16(tail, i + 20) <= tail.length) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('no zip end-of-central-directory record: the archive is truncated or not a zip');
  let count = u16(tail, eocd + 10);
  let cdSize = u32(tail, eocd + 12);
  let cdOffset = u32(tail, eocd + 16);
  if ((count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) && eocd >= 20 && u32(tail, eocd - 20) === EOCD64_LOCATOR) {
    const at = u64(tail, eocd - 20 + 8);
    if (at + 56 > size) throw new ZipError('the zip64 end-of-central-directory record lies past the end of the file (truncated?)');
    const rec = await readAt(file, at, 56);
    if (rec.length < 56 || u32(rec, 0) !== EOCD64) throw new ZipError('bad zip64 end-of-central-directory record');
    count = u64(rec, 32);
    cdSize = u64(rec, 40);
    cdOffset = u64(rec, 48);
  }
  if (count > MAX_ENTRIES) throw new ZipError(`the zip claims ${count} entries (more than ${MAX_ENTRIES})`);
  if (cdOffset + cdSize > size) throw new ZipError('the zip central directory lies past the end of the file (truncated?)');
  const cd = await readAt(file, cdOffset, cdSize);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cd.length || u32(cd, p) !== CENTRAL) throw new ZipError('bad zip central directory entry');
    const method = u16(cd, p + 10);
    let compressed = u32(cd, p + 20);
    let uncompressed = u32(cd, p + 24);
    const nameLength = u16(cd, p + 28);
    const extraLength = u16(cd, p + 30);
    const commentLength = u16(cd, p + 32);
    let localOffset = u32(cd, p + 42);
    const end = p + 46 + nameLength + extraLength + commentLength;
    if (end > cd.length) throw new ZipError('bad zip central directory entry');
    const name = utf8.decode(cd.subarray(p + 46, p + 46 + nameLength));
    // zip64 extra field: the 64-bit values of the fields that hold 0xffffffff, in this order.
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = u16(cd, e);
      const len = u16(cd, e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (uncompressed === 0xffffffff && q + 8 <= e + 4 + len) {
          uncompressed = u64(cd, q);
          q += 8;
        }
        if (compressed === 0xffffffff && q + 8 <= e + 4 + len) {
          compressed = u64(cd, q);
          q += 8;
        }
        if (localOffset === 0xffffffff && q + 8 <= e + 4 + len) localOffset = u64(cd, q);
      }
      e += 4 + len;
    }
    entries.push({ name, method, dataOffset: localOffset, size: method === 0 ? uncompressed : compressed });
    p = end;
  }
  return entries;
}

/** Resolves where an entry's bytes start (after its local header), checking it fits the file. */
export async function entryData(file: OpenFile, size: number, entry: ZipEntry): Promise<ZipEntry> {
  if (entry.dataOffset + 30 > size) throw new ZipError(`zip entry ${entry.name} lies past the end of the file (truncated?)`);
  const head = await readAt(file, entry.dataOffset, 30);
  if (head.length < 30 || u32(head, 0) !== LOCAL) throw new ZipError(`bad zip local header for ${entry.name}`);
  const start = entry.dataOffset + 30 + u16(head, 26) + u16(head, 28);
  if (start + entry.size > size) throw new ZipError(`zip entry ${entry.name} claims ${entry.size} bytes, past the end of the file (truncated?)`);
  return { ...entry, dataOffset: start };
}

/** `<stem>/data.pkl` (torch.save) or a top-level `data.pkl`. */
export function findDataPkl(entries: readonly ZipEntry[]): ZipEntry | null {
  return entries.find((e) => /^[^/]+\/data\.pkl$/.test(e.name)) ?? entries.find((e) => e.name === 'data.pkl') ?? null;
}
