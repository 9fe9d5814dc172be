// Runs of pickled numbers counted without pushing them (docs/pt.md): torch.save writes a list of
// token ids or log-probs as batches of `MARK`, up to 1 000 BININT1/BININT2/BININT/BINFLOAT
// opcodes, `APPENDS` (most of a dump's bytes); when summarising, a batch onto a list of numbers
// is counted in one pass.
import { isNumber, SUMMARIZE_AFTER } from './containerOpcodes';
import type { SampleHandOn } from './sampleHandOn';
import { PyList } from './values';

/** How many numbers the last `skipPickledNumbers` passed over. */
let pickledNumberCount = 0;

/**
 * Skips the run of BININT1/BININT2/BININT/BINFLOAT opcodes that starts at `q` (stopping before one
 * that does not end before `end`); returns where it stops and leaves the count in `pickledNumberCount`.
 * A small function of its own: inside `step`'s large switch the same loop ran slower
 * (BENCHMARKS.md, Design measurements).
 */
function skipPickledNumbers(b: Uint8Array, q: number, end: number): number {
  let n = 0;
  for (;;) {
    const o = b[q];
    const w = o === 0x4b ? 2 : o === 0x4d ? 3 : o === 0x4a ? 5 : o === 0x47 ? 9 : 0;
    if (w === 0 || q + w >= end) break;
    // Runs are mostly of one opcode (log-probs all BINFLOAT, masks all BININT1).
    let r = q + w;
    while (r + w < end && b[r] === o) r += w;
    n += (r - q) / w;
    q = r;
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
    if (target instanceof PyList && target !== m.samplesList && !m.handed.has(target) && (target.summarized || target.items.every(isNumber))) {
      target.summarized = true;
      target.items = [];
      target.count += n;
      input.pos = q + 1;
      return true;
    }
  }
  return false;
}
