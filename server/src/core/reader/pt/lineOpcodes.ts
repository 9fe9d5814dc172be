// Opcodes whose argument is a line of text (docs/pt.md): protocol 0's INT, LONG, FLOAT, STRING,
// UNICODE, GET and PUT (torch.save never writes them), and where such a line ends in the input
// window (GLOBAL, INST and PERSID name things in lines too: callOpcodes.ts).
import { LIMITS } from './limits';
import { latin1, narrow, PickleError, pyStringLiteral, rawUnicodeEscape } from './pickleLiterals';
import { CONTINUE, SERVICE } from './pickleStack';
import { NEED, type SampleHandOn } from './sampleHandOn';
import { pyFloat } from './values';

/** Index of the next `\n` from `from` (in the buffer), or -1 when not in the buffer. */
export function lineEnd(m: SampleHandOn, from: number): number {
  const input = m.input;
  const i = input.buf.subarray(from, input.end).indexOf(10);
  return i < 0 ? -1 : from + i;
}

/** How many bytes to ask for when a text line is not complete in the buffer. */
export function lineNeed(m: SampleHandOn, from: number): number {
  const input = m.input;
  const have = input.end - input.pos;
  if (input.unread === 0) throw new PickleError(`a text argument at byte ${input.base + from} has no end of line (the pickle is truncated)`);
  if (have > LIMITS.line) throw new PickleError(`a text argument longer than ${LIMITS.line} bytes at byte ${input.base + from}`);
  return have + Math.min(input.unread, Math.max(have, 1 << 16));
}

/**
 * INT (also TRUE / FALSE as I01 / I00), LONG, FLOAT, STRING, UNICODE, GET, PUT at `p`: CONTINUE,
 * SERVICE (a memo read waits for texts), or how many bytes the line needs.
 */
export function lineOpcode(m: SampleHandOn, op: number, p: number): number {
  const input = m.input;
  const b = input.buf;
  const e = lineEnd(m, p + 1);
  if (e < 0) return lineNeed(m, p + 1);
  if (op === 0x67) {
    const v = m.memoRead(parseIndex(m, latin1.decode(b.subarray(p + 1, e))));
    if (v === NEED) return SERVICE;
    input.pos = e + 1;
    m.push(v);
    return CONTINUE;
  }
  input.pos = e + 1;
  textOp(m, op, b.subarray(p + 1, e));
  return CONTINUE;
}

function textOp(m: SampleHandOn, op: number, arg: Uint8Array): void {
  const text = latin1.decode(arg);
  switch (op) {
    case 0x49:
      if (text === '01') return m.push(true);
      if (text === '00') return m.push(false);
      return m.push(parseInteger(m, text));
    case 0x4c:
      return m.push(parseInteger(m, text.endsWith('L') ? text.slice(0, -1) : text));
    case 0x46: {
      const t = text.trim().toLowerCase();
      const v = t === 'nan' ? NaN : t === 'inf' ? Infinity : t === '-inf' ? -Infinity : Number(t);
      if (Number.isNaN(v) && t !== 'nan') throw new PickleError(`bad FLOAT ${JSON.stringify(text.slice(0, 40))} at byte ${m.offset}`);
      return m.push(pyFloat(v));
    }
    case 0x53:
      return m.push(pyStringLiteral(text));
    case 0x56:
      return m.push(rawUnicodeEscape(arg));
    case 0x70:
      return m.memoPut(parseIndex(m, text));
  }
}

function parseInteger(m: SampleHandOn, text: string): number | bigint {
  const t = text.trim();
  if (!/^[+-]?\d+$/.test(t) || t.length > LIMITS.longBytes) throw new PickleError(`bad integer ${JSON.stringify(t.slice(0, 40))} at byte ${m.offset}`);
  return narrow(BigInt(t));
}

function parseIndex(m: SampleHandOn, text: string): number {
  const n = Number(text.trim());
  if (!Number.isInteger(n) || n < 0) throw new PickleError(`bad memo index ${JSON.stringify(text.slice(0, 40))} at byte ${m.offset}`);
  return n;
}
