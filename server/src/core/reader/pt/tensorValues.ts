// A tensor's values as `tensor.tolist()` gives them, written as JSON text (docs/pt.md#tensors):
// nested lists in the view's shape, each element read from its storage record (`<stem>/data/<key>`,
// stored in the zip, in the byte order its `byteorder` record names, little-endian without one) where the view's offset and strides put it. Floats are written
// as Python's repr of `float(x)` (a float32 widened to a double exactly, as tolist() does); int64
// past 2^53 exactly. Storages are read in pages on demand, never whole: a slice of a big storage
// reads only the pages it touches, and at most PAGES pages are held.
import type { OpenFile } from '../../seams/fileAccess';
import { pyFloatRepr } from '../../vocabulary/python';

import type { TensorPlaceholder, TensorView } from './tensorView';
import { ITEM_SIZES } from './tensorView';
import { entryData, type ZipEntry, ZipError } from './zip';

/** Bytes a page of a storage (a multiple of every item size, so no element straddles two). */
const PAGE = 1 << 20;
/** Pages held at once, over all storages (8 MiB). */
const PAGES = 8;
/** Text gathered before it is handed to `write`. */
const FLUSH = 1 << 16;

interface Page {
  record: string;
  index: number;
  view: DataView;
}

/** Python's json.dumps of a float: repr, with NaN and the infinities as Python's json writes them. */
function floatJson(x: number): string {
  // Where Python's repr is fixed-point (1e-4 ≤ |x| < 1e16) JavaScript's is too, with the same
  // shortest digits; only a whole number lacks Python's `.0`.
  const a = Math.abs(x);
  if (a >= 1e-4 && a < 1e16) return Number.isInteger(x) ? `${x}.0` : String(x);
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return pyFloatRepr(x);
}

/** IEEE half → double (exact). */
function half(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac === 0 ? sign * Infinity : NaN;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** bfloat16 → double (exact): a float32's upper half, computed from its fields (no scratch float32). */
export function bfloat16(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 7) & 0xff;
  const frac = bits & 0x7f;
  if (exp === 0) return sign * frac * 2 ** -133;
  if (exp === 0xff) return frac === 0 ? sign * Infinity : NaN;
  return sign * (1 + frac / 128) * 2 ** (exp - 127);
}

/** The JSON text of the element at byte `at` of `v`. */
function element(dtype: string, v: DataView, at: number, little: boolean): string {
  switch (dtype) {
    case 'float32':
      return floatJson(v.getFloat32(at, little));
    case 'float64':
      return floatJson(v.getFloat64(at, little));
    case 'float16':
      return floatJson(half(v.getUint16(at, little)));
    case 'bfloat16':
      return floatJson(bfloat16(v.getUint16(at, little)));
    case 'int64':
      return v.getBigInt64(at, little).toString();
    case 'int32':
      return String(v.getInt32(at, little));
    case 'int16':
      return String(v.getInt16(at, little));
    case 'int8':
      return String(v.getInt8(at));
    case 'uint8':
      return String(v.getUint8(at));
    case 'bool':
      return v.getUint8(at) !== 0 ? 'true' : 'false';
  }
  throw new Error(`no decoder for ${dtype}`);
}

/** The element at byte `at` of `v` as a number (int64 past 2^53 rounded, bool 0 or 1). */
function numberAt(dtype: string, v: DataView, at: number, little: boolean): number {
  switch (dtype) {
    case 'float32':
      return v.getFloat32(at, little);
    case 'float64':
      return v.getFloat64(at, little);
    case 'float16':
      return half(v.getUint16(at, little));
    case 'bfloat16':
      return bfloat16(v.getUint16(at, little));
    case 'int64':
      return Number(v.getBigInt64(at, little));
    case 'int32':
      return v.getInt32(at, little);
    case 'int16':
      return v.getInt16(at, little);
    case 'int8':
      return v.getInt8(at);
    case 'uint8':
    case 'bool':
      return v.getUint8(at);
  }
  throw new Error(`no decoder for ${dtype}`);
}

/** Dtypes a contiguous read widens with a typed array (float16 and bfloat16 go element by element). */
const FAST_DTYPES = new Set(['float32', 'float64', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool']);

/** Row-major contiguous strides for the shape (dimensions of size 1 have any stride). */
function isContiguous(shape: readonly number[], stride: readonly number[]): boolean {
  let expected = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    if (shape[d] !== 1 && stride[d] !== expected) return false;
    expected *= shape[d];
  }
  return true;
}

/** The storage records of one `.pt`, read on demand. */
export class StorageReader {
  private readonly pages: Page[] = [];
  private readonly located = new Map<string, ZipEntry>();

  constructor(
    private readonly file: OpenFile,
    private readonly size: number,
    /** Storage records by their name under the stem (`data/<key>`). */
    private readonly records: ReadonlyMap<string, ZipEntry>,
    /** False when the file's `byteorder` record says `big` (torch.load swaps such bytes). */
    private readonly littleEndian = true,
  ) {}

  /**
   * Finds a storage record's bytes (after its local header) and checks they lie in the file;
   * the problem when they do not, else null. Once found, reading its pages cannot come short.
   */
  async locate(record: string): Promise<string | null> {
    if (this.located.has(record)) return null;
    const listed = this.records.get(record);
    if (listed === undefined) return `the file holds no storage ${record}`;
    try {
      this.located.set(record, await entryData(this.file, this.size, listed));
      return null;
    } catch (err) {
      if (err instanceof ZipError) return err.message;
      throw err;
    }
  }

  private async page(record: string, index: number): Promise<DataView> {
    const pages = this.pages;
    for (let i = pages.length - 1; i >= 0; i--) {
      const p = pages[i];
      if (p.index === index && p.record === record) {
        if (i !== pages.length - 1) pages.push(pages.splice(i, 1)[0]);
        return p.view;
      }
    }
    const entry = this.located.get(record);
    if (entry === undefined) throw new Error(`storage ${record} was not located before it was read`);
    const start = index * PAGE;
    const length = Math.min(PAGE, entry.size - start);
    const buf = new Uint8Array(length);
    let got = 0;
    while (got < length) {
      const n = await this.file.read(buf, got, length - got, entry.dataOffset + start + got);
      if (n <= 0) throw new Error(`storage ${record} ends early: the file is truncated`);
      got += n;
    }
    if (pages.length >= PAGES) pages.shift();
    const view = new DataView(buf.buffer);
    pages.push({ record, index, view });
    return view;
  }

  /**
   * The elements of `t` in row-major order, as numbers (its record located first): what
   * `t.flatten().tolist()` gives, int64 past 2^53 rounded. For reading one sample's tensor at a time.
   */
  async readNumbers(t: TensorPlaceholder): Promise<Float64Array> {
    const view = t.view;
    if (view === null) throw new Error('a tensor without a sound view has no values to read');
    const shape = t.shape;
    let n = 1;
    for (const d of shape) n *= d;
    const out = new Float64Array(n);
    if (n === 0) return out;
    const item = ITEM_SIZES[view.dtype];
    if (this.littleEndian && FAST_DTYPES.has(view.dtype) && isContiguous(shape, view.stride)) return this.readContiguous(view, n, item, out);
    const idx = new Array<number>(shape.length).fill(0);
    const little = this.littleEndian;
    let current = -1;
    let dv: DataView | null = null;
    for (let k = 0; k < n; k++) {
      let index = view.offset;
      for (let d = 0; d < shape.length; d++) index += idx[d] * view.stride[d];
      const pos = index * item;
      const p = Math.floor(pos / PAGE);
      if (p !== current || dv === null) {
        dv = await this.page(view.record, p);
        current = p;
      }
      out[k] = numberAt(view.dtype, dv, pos - p * PAGE, little);
      for (let d = shape.length - 1; d >= 0; d--) {
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
    return out;
  }

  /**
   * A row-major contiguous view of a little-endian storage: its bytes read at once (one sample's
   * tensor: kilobytes) and widened by typed arrays, not element by element through pages.
   */
  private async readContiguous(view: TensorView, n: number, item: number, out: Float64Array): Promise<Float64Array> {
    const entry = this.located.get(view.record);
    if (entry === undefined) throw new Error(`storage ${view.record} was not located before it was read`);
    const buf = new Uint8Array(n * item);
    const at = entry.dataOffset + view.offset * item;
    let got = 0;
    while (got < buf.length) {
      const r = await this.file.read(buf, got, buf.length - got, at + got);
      if (r <= 0) throw new Error(`storage ${view.record} ends early: the file is truncated`);
      got += r;
    }
    const b = buf.buffer;
    switch (view.dtype) {
      case 'float32':
        out.set(new Float32Array(b, 0, n));
        break;
      case 'float64':
        out.set(new Float64Array(b, 0, n));
        break;
      case 'int32':
        out.set(new Int32Array(b, 0, n));
        break;
      case 'int16':
        out.set(new Int16Array(b, 0, n));
        break;
      case 'int8':
        out.set(new Int8Array(b, 0, n));
        break;
      case 'uint8':
      case 'bool':
        out.set(buf);
        break;
      case 'int64': {
        // Low word unsigned, high word signed: the value rounded as Number(BigInt) rounds it past 2^53.
        const w = new Int32Array(b, 0, 2 * n);
        for (let k = 0; k < n; k++) {
          const hi = w[2 * k + 1];
          const lo = w[2 * k] >>> 0;
          out[k] = hi === 0 || hi === -1 ? hi * 4294967296 + lo : Number((BigInt(hi) << 32n) | BigInt(lo));
        }
        break;
      }
    }
    return out;
  }

  /** Writes `tensor.tolist()` of `t` as JSON text through `write` (its record located first). */
  async writeValues(t: TensorPlaceholder, write: (text: string) => void): Promise<void> {
    const view = t.view;
    if (view === null) throw new Error('a tensor without a sound view has no values to write');
    const shape = t.shape;
    const n = shape.length;
    const item = ITEM_SIZES[view.dtype];
    let out = '';
    let current = -1;
    let dv: DataView | null = null;
    const little = this.littleEndian;
    const load = async (p: number, pos: number): Promise<string> => {
      dv = await this.page(view.record, p);
      current = p;
      return element(view.dtype, dv, pos - p * PAGE, little);
    };
    // Synchronous while the element's page is the one at hand: most elements of a row are.
    const at = (index: number): string | Promise<string> => {
      const pos = index * item;
      const p = Math.floor(pos / PAGE);
      return p === current && dv !== null ? element(view.dtype, dv, pos - p * PAGE, little) : load(p, pos);
    };
    if (n === 0) {
      write(await at(view.offset));
      return;
    }
    const put = (text: string): void => {
      out += text;
      if (out.length >= FLUSH) {
        write(out);
        out = '';
      }
    };
    // tolist() of a shape with a zero: the dimensions before the first zero, each holding `[]`.
    const zero = shape.indexOf(0);
    if (zero === 0) put('[]');
    else if (zero > 0) await this.walk({ ...view, offset: 0 }, shape.slice(0, zero), () => '[]', put);
    else await this.walk(view, shape, at, put);
    write(out);
  }

  /** Every element of a non-empty view of 1 or more dimensions, in row-major order, bracketed. */
  private async walk(view: TensorView, shape: readonly number[], at: (index: number) => string | Promise<string>, put: (text: string) => void): Promise<void> {
    const n = shape.length;
    const stride = view.stride;
    const inner = shape[n - 1];
    const innerStride = stride[n - 1];
    const idx = new Array<number>(n - 1).fill(0);
    put('['.repeat(n));
    for (;;) {
      let base = view.offset;
      for (let d = 0; d < n - 1; d++) base += idx[d] * stride[d];
      for (let j = 0; j < inner; j++) {
        let text = at(base + j * innerStride);
        if (typeof text !== 'string') text = await text;
        put(j === 0 ? text : `, ${text}`);
      }
      put(']');
      let d = n - 2;
      for (; d >= 0; d--) {
        if (++idx[d] < shape[d]) {
          put(`, ${'['.repeat(n - 1 - d)}`);
          break;
        }
        idx[d] = 0;
        put(']');
      }
      if (d < 0) return;
    }
  }
}
