// Decoding the literals a pickle writes: little-endian longs, protocol 0's quoted strings and
// raw-unicode-escape text, latin-1 bytes, and numpy scalars from their dtype and bytes. Pure
// functions of bytes, apart from the machine that interprets the opcodes (pickleMachine.ts).
import { NpDtype, PyBytes, pyFloat } from './values';

/** A malformed pickle: the machine stops and reports where. */
export class PickleError extends Error {}

/** Bytes 0-255 as the code points 0-255 (TextDecoder's 'latin1' is windows-1252). */
export function latin1Text(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length; i += 8192) out += String.fromCharCode(...b.subarray(i, i + 8192));
  return out;
}
export const latin1 = { decode: latin1Text };
const utf8 = new TextDecoder('utf-8');

/**
 * A pickled str's text. Python's pickle writes a str as UTF-8 with 'surrogatepass', so a lone
 * surrogate (U+D800-U+DFFF) is the 3 bytes ED A0..BF xx, which UTF-8 forbids; torch.load reads it
 * back as that lone surrogate, and so does this (a JS string holds it as one UTF-16 unit). Other
 * invalid bytes (which Python would refuse to load) become U+FFFD, as before.
 */
export function pickledUtf8(b: Uint8Array): string {
  let at = b.indexOf(0xed);
  if (at < 0) return utf8.decode(b);
  let out = '';
  let run = 0;
  for (; at >= 0; at = b.indexOf(0xed, at + 1)) {
    const c1 = b[at + 1];
    const c2 = b[at + 2];
    if (at + 2 >= b.length || c1 < 0xa0 || c1 > 0xbf || c2 < 0x80 || c2 > 0xbf) continue;
    out += utf8.decode(b.subarray(run, at)) + String.fromCharCode(0xd000 | ((c1 & 0x3f) << 6) | (c2 & 0x3f));
    run = at + 3;
    at += 2;
  }
  return out + utf8.decode(b.subarray(run));
}

/** Little-endian two's complement bytes → number (safe range) or bigint. */
export function decodeLong(b: Uint8Array): number | bigint {
  if (b.length === 0) return 0;
  let n = 0n;
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i]);
  if (b[b.length - 1] & 0x80) n -= 1n << BigInt(b.length * 8);
  return narrow(n);
}

export function narrow(n: bigint): number | bigint {
  return n >= -(2n ** 53n) && n <= 2n ** 53n ? Number(n) : n;
}

/** A numpy scalar (`numpy.core.multiarray.scalar(dtype, bytes)`) as a number where it is one. */
export function numpyScalar(dtype: unknown, data: unknown): unknown {
  if (!(dtype instanceof NpDtype) || !(data instanceof PyBytes)) return null;
  const b = data.bytes;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const le = dtype.order !== '>';
  try {
    switch (dtype.code) {
      case 'f8':
        return pyFloat(dv.getFloat64(0, le));
      case 'f4':
        return pyFloat(dv.getFloat32(0, le));
      case 'i8':
        return narrow(dv.getBigInt64(0, le));
      case 'u8':
        return narrow(dv.getBigUint64(0, le));
      case 'i4':
        return dv.getInt32(0, le);
      case 'u4':
        return dv.getUint32(0, le);
      case 'i2':
        return dv.getInt16(0, le);
      case 'u2':
        return dv.getUint16(0, le);
      case 'i1':
        return dv.getInt8(0);
      case 'u1':
        return dv.getUint8(0);
      case 'b1':
        return dv.getUint8(0) !== 0;
    }
  } catch {
    return null;
  }
  return data;
}

/** Python 2 `repr(str)` as protocol 0 STRING writes it: quoted, with backslash escapes. */
export function pyStringLiteral(text: string): string {
  const t = text.trim();
  const q = t[0];
  if ((q !== "'" && q !== '"') || t[t.length - 1] !== q || t.length < 2) throw new PickleError('STRING argument is not quoted');
  return t.slice(1, -1).replace(/\\(x[0-9a-fA-F]{2}|[0-7]{1,3}|.)/g, (_m, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ n: '\n', r: '\r', t: '\t', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', v: '\v' } as Record<string, string>)[e] ?? `\\${e}`;
  });
}

/** `raw-unicode-escape`: latin-1 bytes, with `\uXXXX` and `\UXXXXXXXX` escapes. */
export function rawUnicodeEscape(b: Uint8Array): string {
  const s = latin1.decode(b);
  return s.replace(/\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})/g, (_m, u: string | undefined, U: string | undefined) => {
    const cp = parseInt((u ?? U)!, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : _m;
  });
}
