// Runs of pickled numbers counted without pushing them (docs/pt.md): torch.save writes a list of
// token ids or log-probs as batches of `MARK`, up to 1 000 BININT1/BININT2/BININT/BINFLOAT
// opcodes, `APPENDS` (most of a dump's bytes); when summarising, a batch onto a list of numbers
// is counted in one pass.
import { isNumber, SUMMARIZE_AFTER } from './containerOpcodes';
import type { SampleHandOn } from './sampleHandOn';
import { NO_ITEMS, PyList } from './values';

/** How many numbers the last `skipPickledNumbers` passed over. */
let pickledNumberCount = 0;

/** BININT2 (3 bytes: 0x4d) and BININT (5 bytes: 0x4a): `3 + (opcode & 2)` is the width of either. */
const MIXED = new Uint8Array(256);
MIXED[0x4d] = 1;
MIXED[0x4a] = 1;

/**
 * Skips the run of BININT1/BININT2/BININT/BINFLOAT opcodes that starts at `q` (stopping before one
 * that does not end before `end`); returns where it stops and leaves the count in `pickledNumberCount`.
 * A small function of its own: inside `step`'s large switch the same loop ran slower
 * (BENCHMARKS.md, "Design measurements"). Runs of one opcode (log-probs all BINFLOAT, masks all
 * BININT1) are stepped over at their width; token ids mix BININT2 and BININT at random, so their
 * width is computed from the opcode rather than branched on (a mispredicted branch per number).
 */
function skipPickledNumbers(b: Uint8Array, q: number, end: number): number {
  let n = 0;
  // Before `last` every opcode ends before `end` (the widest is 9 bytes).
  const last = end - 9;
  while (q < last) {
    const o = b[q];
    let r = q;
    if (o === 0x47) {
      do r += 9;
      while (r < last && b[r] === 0x47);
      n += (r - q) / 9;
    } else if (o === 0x4b) {
      do r += 2;
      while (r < last && b[r] === 0x4b);
      n += (r - q) / 2;
    } else if (MIXED[o] === 1) {
      do {
        r += 3 + (b[r] & 2);
        n++;
      } while (r < last && MIXED[b[r]] === 1);
    } else break;
    q = r;
  }
  // The window's last bytes, one opcode at a time.
  for (;;) {
    const o = b[q];
    const w = o === 0x4b ? 2 : o === 0x4d ? 3 : o === 0x4a ? 5 : o === 0x47 ? 9 : 0;
    if (w === 0 || q + w >= end) break;
    q += w;
    n++;
  }
  pickledNumberCount = n;
  return q;
}

/**
 * At a MARK (`p`) when summarising: MARK, a run of numbers, APPENDS onto a list of numbers not yet
 * handed on is counted, nothing pushed, and reading goes on after the APPENDS (true). False: the
 * MARK is read as usual.
 */
export function countNumberBatch(m: SampleHandOn, b: Uint8Array, p: number): boolean {
  const input = m.input;
  const end = input.end;
  const q = skipPickledNumbers(b, p + 1, end);
  const n = pickledNumberCount;
  if (q < end && b[q] === 0x65 && n > SUMMARIZE_AFTER && m.stack.length > 0) {
    const target = m.stack[m.stack.length - 1];
    if (target instanceof PyList && target !== m.samplesList && !target.handed && (target.summarized || target.items.every(isNumber))) {
      target.summarized = true;
      target.items = NO_ITEMS;
      target.count += n;
      input.pos = q + 1;
      return true;
    }
  }
  return false;
}
