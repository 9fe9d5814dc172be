// `.pt` files made in a test, in torch.save's layout (a stored zip of `t/data.pkl` and
// `t/data/<key>`): `{"x": _rebuild_tensor_v2(storage, offset, size, stride, False, OrderedDict())}`
// with the storage named by a persistent id, as torch.save writes it; and a FileAccess over bytes.
import type { FileAccess } from '../../../server/src/core/seams/fileAccess';

export interface TensorSpec {
  /** torch's storage class name: FloatStorage, LongStorage, … */
  dtype: string;
  numel: number;
  offset: number;
  size: number[];
  stride: number[];
  data: Uint8Array;
  /** The key the persistent id names (default '0'); the record is always `data/0`. */
  key?: string;
  /** The `byteorder` record's text (none by default). */
  byteorder?: string;
}

const enc = new TextEncoder();

function cat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function le(n: number, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[i] = Math.floor(n / 2 ** (8 * i)) & 0xff;
  return out;
}

/** A pickle int: BININT for 32-bit values, else LONG1. */
function int(n: number): Uint8Array {
  if (n >= -(2 ** 31) && n < 2 ** 31) return cat([Uint8Array.of(0x4a), le(n >>> 0, 4)]);
  let b = BigInt(n);
  const bytes: number[] = [];
  for (let i = 0; i < 9; i++) {
    bytes.push(Number(b & 0xffn));
    b >>= 8n;
  }
  return cat([Uint8Array.of(0x8a, bytes.length), Uint8Array.from(bytes)]);
}

function str(s: string): Uint8Array {
  const b = enc.encode(s);
  return cat([Uint8Array.of(0x58), le(b.length, 4), b]);
}

function tuple(items: Uint8Array[]): Uint8Array {
  return cat([Uint8Array.of(0x28), ...items, Uint8Array.of(0x74)]);
}

/** The pickle ops that push the tensor `spec` describes. */
export function tensorCall(spec: TensorSpec): Uint8Array {
  const g = (m: string, n: string) => enc.encode(`c${m}\n${n}\n`);
  const storage = cat([tuple([str('storage'), g('torch', spec.dtype), str(spec.key ?? '0'), str('cuda:0'), int(spec.numel)]), Uint8Array.of(0x51)]);
  const args = tuple([
    storage,
    int(spec.offset),
    tuple(spec.size.map(int)),
    tuple(spec.stride.map(int)),
    Uint8Array.of(0x89),
    cat([g('collections', 'OrderedDict'), Uint8Array.of(0x29, 0x52)]),
  ]);
  return cat([g('torch._utils', '_rebuild_tensor_v2'), args, Uint8Array.of(0x52)]);
}

/** `{"x": tensor}`, protocol 2. */
export function tensorPickle(spec: TensorSpec): Uint8Array {
  return cat([Uint8Array.of(0x80, 2, 0x7d), str('x'), tensorCall(spec), Uint8Array.of(0x73, 0x2e)]);
}

/** `{"samples": [{"a": 1}, {"t": tensor}, {"b": 2}]}`, the samples appended in one batch. */
export function samplesPickle(spec: TensorSpec): Uint8Array {
  const one = (key: string, value: Uint8Array) => cat([Uint8Array.of(0x7d), str(key), value, Uint8Array.of(0x73)]);
  return cat([
    Uint8Array.of(0x80, 2, 0x7d),
    str('samples'),
    Uint8Array.of(0x5d, 0x28),
    one('a', Uint8Array.of(0x4b, 1)),
    one('t', tensorCall(spec)),
    one('b', Uint8Array.of(0x4b, 2)),
    Uint8Array.of(0x65, 0x73, 0x2e),
  ]);
}

/** A stored zip of `entries` (no CRCs: the reader does not check them). */
export function storedZip(entries: [string, Uint8Array][]): Uint8Array {
  const locals: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let at = 0;
  for (const [name, data] of entries) {
    const n = enc.encode(name);
    const local = cat([
      le(0x04034b50, 4),
      le(20, 2),
      le(0, 2),
      le(0, 2),
      le(0, 4),
      le(0, 4),
      le(data.length, 4),
      le(data.length, 4),
      le(n.length, 2),
      le(0, 2),
      n,
      data,
    ]);
    central.push(
      cat([
        le(0x02014b50, 4),
        le(20, 2),
        le(20, 2),
        le(0, 2),
        le(0, 2),
        le(0, 4),
        le(0, 4),
        le(data.length, 4),
        le(data.length, 4),
        le(n.length, 2),
        le(0, 2),
        le(0, 2),
        le(0, 2),
        le(0, 2),
        le(0, 4),
        le(at, 4),
        n,
      ]),
    );
    locals.push(local);
    at += local.length;
  }
  const cd = cat(central);
  const end = cat([le(0x06054b50, 4), le(0, 2), le(0, 2), le(entries.length, 2), le(entries.length, 2), le(cd.length, 4), le(at, 4), le(0, 2)]);
  return cat([...locals, cd, end]);
}

export function tensorPt(spec: TensorSpec, pickle = tensorPickle(spec)): Uint8Array {
  return storedZip([
    ['t/data.pkl', pickle],
    ['t/data/0', spec.data],
    ['t/version', enc.encode('3\n')],
    ...(spec.byteorder === undefined ? [] : ([['t/byteorder', enc.encode(spec.byteorder)]] as [string, Uint8Array][])),
  ]);
}

/** A FileAccess holding one file. */
export function memoryAccess(path: string, bytes: Uint8Array): FileAccess {
  const missing = (p: string) => Promise.reject(new Error(`ENOENT: ${p}`));
  return {
    stat: async (p) => (p === path ? { size: bytes.length, mtimeMs: 0, isFile: true, isDirectory: false, id: null } : missing(p)),
    open: async (p) => {
      if (p !== path) return missing(p);
      return {
        read: async (buf, off, len, pos) => {
          const n = Math.max(0, Math.min(len, bytes.length - pos));
          buf.set(bytes.subarray(pos, pos + n), off);
          return n;
        },
        close: async () => {},
      };
    },
    readDir: async () => [],
    realPath: async (p) => p,
  };
}
