// Opcodes that carry their value's bytes (docs/pt.md): str (BINUNICODE, SHORT_BINUNICODE,
// BINUNICODE8; Python 2's BINSTRING, SHORT_BINSTRING), bytes (BINBYTES, SHORT_BINBYTES, BINBYTES8,
// BYTEARRAY8) and long integers (LONG1, LONG4). Each length is checked against the bytes the
// window holds before anything is read or allocated.
import { LIMITS } from './limits';
import { decodeLong, PickleError } from './pickleLiterals';
import { CONTINUE } from './pickleStack';
import type { SampleHandOn } from './sampleHandOn';
import { PyBytes } from './values';

/** Little-endian lengths (no DataView made per string). */
function int32(b: Uint8Array, i: number): number {
  return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
}

function uint32(b: Uint8Array, i: number): number {
  return int32(b, i) >>> 0;
}

/** An 8-byte length as a number (past 2^53 it is far beyond any window, and is refused as such). */
function uint64(b: Uint8Array, i: number): number {
  return uint32(b, i) + uint32(b, i + 4) * 2 ** 32;
}

/** One of these opcodes at `p` with `avail` bytes in the window: CONTINUE, or how many bytes it needs. */
export function literalOpcode(m: SampleHandOn, op: number, p: number, avail: number): number {
  const input = m.input;
  const b = input.buf;
  switch (op) {
    case 0x58: // BINUNICODE
    case 0x8c: // SHORT_BINUNICODE
    case 0x8d: {
      // BINUNICODE8
      const head = op === 0x8c ? 2 : op === 0x58 ? 5 : 9;
      if (avail < head) return head;
      const n = op === 0x8c ? b[p + 1] : op === 0x58 ? uint32(b, p + 1) : uint64(b, p + 1);
      if (avail < head + n) return head + n;
      input.pos = p + head + n;
      m.push(m.text(input.base + p + head, n, false));
      return CONTINUE;
    }
    case 0x54: // BINSTRING
    case 0x55: {
      // SHORT_BINSTRING (Python 2 str, read as Python 3 does by default: ASCII → here latin-1)
      const head = op === 0x55 ? 2 : 5;
      if (avail < head) return head;
      const n = op === 0x55 ? b[p + 1] : int32(b, p + 1);
      if (n < 0) throw new PickleError(`negative BINSTRING length at byte ${m.offset}`);
      if (avail < head + n) return head + n;
      input.pos = p + head + n;
      m.push(m.text(input.base + p + head, n, true));
      return CONTINUE;
    }
    case 0x8a: // LONG1
    case 0x8b: {
      // LONG4
      const head = op === 0x8a ? 2 : 5;
      if (avail < head) return head;
      const n = op === 0x8a ? b[p + 1] : int32(b, p + 1);
      if (n < 0) throw new PickleError(`negative LONG4 length at byte ${m.offset}`);
      if (n > LIMITS.longBytes) throw new PickleError(`an integer of ${n} bytes at byte ${m.offset} (more than ${LIMITS.longBytes})`);
      if (avail < head + n) return head + n;
      input.pos = p + head + n;
      m.push(decodeLong(b.subarray(p + head, p + head + n)));
      return CONTINUE;
    }
    default: {
      // BINBYTES, SHORT_BINBYTES, BINBYTES8, BYTEARRAY8
      const head = op === 0x43 ? 2 : op === 0x42 ? 5 : 9;
      if (avail < head) return head;
      const n = op === 0x43 ? b[p + 1] : op === 0x42 ? uint32(b, p + 1) : uint64(b, p + 1);
      if (avail < head + n) return head + n;
      input.pos = p + head + n;
      m.push(new PyBytes(b.slice(p + head, p + head + n)));
      return CONTINUE;
    }
  }
}
