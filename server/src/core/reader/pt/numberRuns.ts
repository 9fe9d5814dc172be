// Runs of pickled numbers counted without pushing them (docs/pt.md): torch.save writes a list of
// token ids or log-probs as batches of `MARK`, up to 1 000 BININT1/BININT2/BININT/BINFLOAT
// opcodes, `APPENDS` (most of a dump's bytes); when summarising, a batch onto a list of numbers
// is counted in one pass, and summed when it is all ints (a loss mask's sum is its effective length).
import { isNumber, SUMMARIZE_AFTER } from './containerOpcodes';
import type { SampleHandOn } from './sampleHandOn';
import { addSums, intSum, NO_ITEMS, PyList } from './values';

/** Most numbers of one run whose sum is exact (each int below 2^31 in magnitude, the sum below 2^53). */
const EXACT_RUN = 2 ** 22;

/** What one `skipPickledNumbers` passed over; a machine keeps its own (`SampleHandOn.numberRun`). */
export class NumberRun {
  /** How many numbers. */
  count = 0;
  /**
   * Their sum when every one was an int (BININT1/BININT2/BININT), NaN once one was a float: a loss
   * mask's sum is the effective response length (docs/pt.md). Summed for every run of ints alike, so
   * a run counted here and one read number by number (cut by the read window) sum the same.
   */
  sum = 0;
}

/** BININT2 (3 bytes: 0x4d) and BININT (5 bytes: 0x4a): `3 + (opcode & 2)` is the width of either. */
const MIXED = new Uint8Array(256);
MIXED[0x4d] = 1;
MIXED[0x4a] = 1;

/**
 * Skips the run of BININT1/BININT2/BININT/BINFLOAT opcodes that starts at `q` (stopping before one
 * that does not end before `end`); returns where it stops, and leaves in the caller's `run` how many
 * numbers it passed over and their sum.
 * A small function of its own: inside `step`'s large switch the same loop ran slower
 * (BENCHMARKS.md, "Design measurements"). Runs of one opcode (log-probs all BINFLOAT, masks all
 * BININT1) are stepped over at their width; token ids mix BININT2 and BININT at random, so their
 * width is computed from the opcode rather than branched on (a mispredicted branch per number).
 */
function skipPickledNumbers(b: Uint8Array, q: number, end: number, run: NumberRun): number {
  let n = 0;
  let sum = 0;
  // Before `last` every opcode ends before `end` (the widest is 9 bytes).
  const last = end - 9;
  while (q < last) {
    const o = b[q];
    let r = q;
    if (o === 0x47) {
      do r += 9;
      while (r < last && b[r] === 0x47);
      n += (r - q) / 9;
      sum = NaN;
    } else if (o === 0x4b) {
      do {
        sum += b[r + 1];
        r += 2;
      } while (r < last && b[r] === 0x4b);
      n += (r - q) / 2;
    } else if (MIXED[o] === 1) {
      do {
        // BININT2's two bytes, or BININT's four (signed): its upper two masked off for BININT2.
        const upper = -((b[r] >> 1) & 1);
        sum += b[r + 1] | (b[r + 2] << 8) | (((b[r + 3] << 16) | (b[r + 4] << 24)) & upper);
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
    if (w === 9) sum = NaN;
    else sum += w === 2 ? b[q + 1] : w === 3 ? b[q + 1] | (b[q + 2] << 8) : b[q + 1] | (b[q + 2] << 8) | (b[q + 3] << 16) | (b[q + 4] << 24);
    q += w;
    n++;
  }
  run.count = n;
  run.sum = sum;
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
  const q = skipPickledNumbers(b, p + 1, end, m.numberRun);
  const n = m.numberRun.count;
  if (q < end && b[q] === 0x65 && n > SUMMARIZE_AFTER && m.stack.length > 0) {
    const target = m.stack[m.stack.length - 1];
    if (target instanceof PyList && target !== m.samplesList && !target.handed && (target.summarized || target.items.every(isNumber))) {
      // The items kept until now are summed before they are dropped (a summarised list's are none).
      // Ints below 2^31 in one run of at most 2^22 add exactly in a double (below 2^53).
      const run = n <= EXACT_RUN ? m.numberRun.sum : NaN;
      target.sum = addSums(target.summarized ? target.sum : intSum(target.items), run);
      target.summarized = true;
      target.items = NO_ITEMS;
      target.count += n;
      input.pos = q + 1;
      return true;
    }
  }
  return false;
}
