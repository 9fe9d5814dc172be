// The opcodes that push a constant or only move the stack, and the protocol's header and frame
// hints (docs/pt.md): out of the read loop (pickleMachine.ts), which keeps inline the opcodes a
// sample is made of many times over.
import { PickleError } from './pickleLiterals';
import { CONTINUE } from './pickleStack';
import type { SampleHandOn } from './sampleHandOn';
import { PyTuple } from './values';

/** `op` at `p`, `avail` bytes from it in the window: CONTINUE, or how many bytes it needs. */
export function stackOpcode(m: SampleHandOn, op: number, p: number, avail: number): number {
  const input = m.input;
  switch (op) {
    case 0x80: // PROTO
      if (avail < 2) return 2;
      if (input.buf[p + 1] > 5) throw new PickleError(`pickle protocol ${input.buf[p + 1]} is not supported (this reader knows protocols 0 to 5)`);
      input.pos = p + 2;
      return CONTINUE;
    case 0x95: // FRAME: only a read-ahead hint; the bytes follow as usual.
      if (avail < 9) return 9;
      input.pos = p + 9;
      return CONTINUE;
  }
  input.pos = p + 1;
  switch (op) {
    case 0x29: // EMPTY_TUPLE
      m.push(new PyTuple([], 1));
      break;
    case 0x4e: // NONE
      m.push(null);
      break;
    case 0x88: // NEWTRUE
      m.push(true);
      break;
    case 0x89: // NEWFALSE
      m.push(false);
      break;
    case 0x30: // POP
      if (m.stack.length > 0 && !(m.marks.length > 0 && m.stack.length <= m.marks[m.marks.length - 1])) m.pop();
      else m.popMark();
      break;
    case 0x31: // POP_MARK
      m.popMark();
      break;
    case 0x32: // DUP
      m.push(m.top());
      break;
  }
  return CONTINUE;
}
