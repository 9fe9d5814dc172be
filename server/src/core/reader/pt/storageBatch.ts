// Many small storages at once (train_data: a few tensors per sample, each its own `data/<key>`
// record, docs/pt.md#tensors): the records a window of samples needs are read into one reused
// buffer, in file order, records lying side by side coalesced into one read and the others (the
// tokens, which no figure needs) seeked over, never read. Each tensor is then handed out as a
// typed-array view of its bytes: no read, copy or widening per tensor, and its elements are the
// numbers StorageReader.readNumbers gives (a float32 read into a double exactly). A tensor this
// does not hand out (strided, big-endian, a dtype without a typed array such as int64 or
// float16, a record whose local header is not where and what the central directory says) is left
// to StorageReader, which reads it or says why not, as it always did.
import type { OpenFile } from '../../seams/fileAccess';

import { TensorPlaceholder } from './tensorView';
import type { ZipEntry } from './zip';

/** A tensor's elements, row-major: what StorageReader.readNumbers gives, as a view. */
export type StorageNumbers = Float32Array | Float64Array | Int32Array | Int16Array | Int8Array | Uint8Array;

type ViewType =
  Float32ArrayConstructor | Float64ArrayConstructor | Int32ArrayConstructor | Int16ArrayConstructor | Int8ArrayConstructor | Uint8ArrayConstructor;

/** The dtypes whose little-endian bytes are their values as a typed array reads them. */
const VIEW_TYPES: Readonly<Record<string, ViewType>> = {
  float32: Float32Array,
  float64: Float64Array,
  int32: Int32Array,
  int16: Int16Array,
  int8: Int8Array,
  uint8: Uint8Array,
  bool: Uint8Array,
};

/** Bytes between two wanted records read through rather than seeked over: a local header and the alignment padding. */
const GAP = 4096;
/** Bytes read ahead of a record's data for its local header: 30, its name, an extra field (torch pads data to 64 bytes). */
const HEADER_SLACK = 30 + 160;
/** The buffer's size: what a window of samples reads at most (a bigger first sample gets a buffer of its own size). */
export const BATCH_BYTES = 16 << 20;

const LOCAL = 0x04034b50;

interface Wanted {
  tensor: TensorPlaceholder;
  entry: ZipEntry;
  type: ViewType;
  /** The record's local header, and the end of the bytes read for it (its data's end, or the file's). */
  from: number;
  to: number;
  /** Elements, and the byte of its first element from the record's data start. */
  n: number;
  skip: number;
}

/** The storage records of one `.pt`, read a window of tensors at a time. */
export class StorageBatch {
  private bytes = new ArrayBuffer(0);
  private buf = new Uint8Array(this.bytes);
  private readonly views = new Map<TensorPlaceholder, StorageNumbers>();

  constructor(
    private readonly file: OpenFile,
    private readonly size: number,
    /** Storage records by their name under the stem (`data/<key>`). */
    private readonly records: ReadonlyMap<string, ZipEntry>,
    private readonly littleEndian: boolean,
    private readonly capacity = BATCH_BYTES,
  ) {}

  /** What reading `t` here takes; null when it is StorageReader's to read. */
  private plan(t: unknown): Wanted | null {
    if (!(t instanceof TensorPlaceholder) || t.view === null || !this.littleEndian) return null;
    const view = t.view;
    const type = VIEW_TYPES[view.dtype];
    const entry = this.records.get(view.record);
    if (type === undefined || entry === undefined || entry.method !== 0) return null;
    const shape = t.shape;
    let n = 1;
    let expected = 1;
    for (let d = shape.length - 1; d >= 0; d--) {
      // Row-major contiguous (a dimension of size 1 has any stride).
      if (shape[d] !== 1 && view.stride[d] !== expected) return null;
      expected *= shape[d];
      n *= shape[d];
    }
    // At most 3 bytes of UTF-8 a UTF-16 unit: a header longer than read leaves the tensor to StorageReader.
    const name = 3 * entry.name.length;
    const skip = view.offset * type.BYTES_PER_ELEMENT;
    const from = entry.dataOffset;
    const to = Math.min(this.size, from + HEADER_SLACK + name + skip + n * type.BYTES_PER_ELEMENT);
    // A bigger tensor is StorageReader's to read, so that one sample's tensors cannot make the buffer huge.
    if (to - from > this.capacity / 4) return null;
    return { tensor: t, entry, type, from, to, n, skip };
  }

  /**
   * Reads the tensors `tensorsOf` gives for rows `from`, `from + 1`, … while they fit the buffer
   * (at least the first row): returns the row after the last one read. Views handed out before
   * are no longer valid.
   */
  async load(from: number, rows: number, tensorsOf: (row: number) => Iterable<unknown>): Promise<number> {
    this.views.clear();
    const wanted: Wanted[] = [];
    let bytes = 0;
    let row = from;
    for (; row < rows; row++) {
      const before = wanted.length;
      let rowBytes = 0;
      for (const t of tensorsOf(row)) {
        const w = this.plan(t);
        if (w === null) continue;
        wanted.push(w);
        rowBytes += w.to - w.from + GAP + 8;
      }
      if (row > from && bytes + rowBytes > this.capacity) {
        wanted.length = before;
        break;
      }
      bytes += rowBytes;
    }
    if (this.buf.length < bytes) {
      this.bytes = new ArrayBuffer(Math.max(bytes, Math.min(this.capacity, this.size + 8)));
      this.buf = new Uint8Array(this.bytes);
    }
    wanted.sort((a, b) => a.from - b.from);
    let cursor = 0;
    for (let i = 0; i < wanted.length;) {
      // A run: records no more than GAP apart, read at once.
      const start = wanted[i].from;
      let end = wanted[i].to;
      let j = i + 1;
      while (j < wanted.length && wanted[j].from <= end + GAP) end = Math.max(end, wanted[j++].to);
      // Placed at the file offset's residue mod 8, so that aligned data stays aligned for its view.
      const at = ((cursor + 7) & ~7) + (start & 7);
      const got = await this.readRun(at, start, end - start);
      for (let k = i; k < j; k++) this.handOut(wanted[k], at + wanted[k].from - start, at + got);
      cursor = at + (end - start);
      i = j;
    }
    return row;
  }

  private async readRun(at: number, position: number, length: number): Promise<number> {
    let got = 0;
    while (got < length) {
      const n = await this.file.read(this.buf, at + got, length - got, position + got);
      if (n <= 0) break;
      got += n;
    }
    return got;
  }

  /** The view of `w`, whose local header is at `header` of the buffer and whose bytes read end at `end`. */
  private handOut(w: Wanted, header: number, end: number): void {
    const b = this.buf;
    if (header + 30 > end) return;
    if ((b[header] | (b[header + 1] << 8) | (b[header + 2] << 16) | (b[header + 3] << 24)) >>> 0 !== LOCAL) return;
    const dataStart = 30 + (b[header + 26] | (b[header + 27] << 8)) + (b[header + 28] | (b[header + 29] << 8));
    // As zip.ts entryData checks it: the whole record within the file.
    if (w.from + dataStart + w.entry.size > this.size) return;
    const first = header + dataStart + w.skip;
    const length = w.n * w.type.BYTES_PER_ELEMENT;
    if (first + length > end) return;
    const view = first % w.type.BYTES_PER_ELEMENT === 0 ? new w.type(this.bytes, first, w.n) : new w.type(b.slice(first, first + length).buffer);
    this.views.set(w.tensor, view);
  }

  /** The elements of `t` when this window read it; undefined when StorageReader is to. */
  numbers(t: unknown): StorageNumbers | undefined {
    return t instanceof TensorPlaceholder ? this.views.get(t) : undefined;
  }
}
