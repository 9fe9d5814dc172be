// A file's rollout prompt rows as the summary reader keeps them (summaryDecode.ts): 20 bytes a row
// (its id's span and hash, state, passes), the other figures read from the summary's bytes when
// asked.
import { isSpace, MINUS, NINE, ZERO } from './jsonBytes';
import { asciiText, fitsTable, type IdSource, PromptTable, type PromptTableParts } from './promptTable';

const NO_INTS = new Int32Array(0);
const NO_FLOATS = new Float64Array(0);

/**
 * Field `k` of a row (1: state … 6: tokens) read from its bytes, `from` just after its id's closing
 * quote; the row was checked when it was read, so its fields are JSON numbers.
 */
function fieldAt(bytes: Uint8Array, from: number, k: number): number {
  let i = from;
  for (let f = 1; ; f++) {
    while (isSpace(bytes[i])) i++;
    i++; // the comma
    while (isSpace(bytes[i])) i++;
    const start = i;
    let value = 0;
    let c = bytes[i];
    for (; c >= ZERO && c <= NINE; c = bytes[++i]) value = value * 10 + (c - ZERO);
    let whole = i - start <= 15;
    if (c === MINUS || c === 0x2e || c === 0x65 || c === 0x45) {
      whole = false;
      for (; c === MINUS || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45 || (c >= ZERO && c <= NINE); c = bytes[++i]);
    }
    if (f === k) return whole ? value : Number(asciiText(bytes, start, i));
  }
}

/**
 * A file's rows read from a summary's bytes: per row its id's span and hash, state and passes;
 * samples, reward sum, line and tokens read from the bytes when asked (a diff reads them only for
 * the flips it lists), so a row costs 20 bytes and the summary's bytes are the only other copy.
 */
export class SummaryRows extends PromptTable {
  constructor(
    ids: IdSource,
    private readonly bytes: Uint8Array,
    /** Per row: state, passes. */
    private readonly statePasses: Int32Array,
  ) {
    super(ids, NO_INTS, NO_FLOATS, NO_FLOATS);
  }
  override get length(): number {
    return this.statePasses.length >> 1;
  }
  override state(row: number): number {
    return this.statePasses[row * 2];
  }
  override passes(row: number): number {
    return this.statePasses[row * 2 + 1];
  }
  override samples(row: number): number {
    return this.field(row, 2);
  }
  override rewardSum(row: number): number {
    return this.field(row, 4);
  }
  override line(row: number): number {
    return this.field(row, 5);
  }
  override tokens(row: number): number {
    return this.field(row, 6);
  }
  override parts(): PromptTableParts {
    return this.partsByRow();
  }
  private field(row: number, k: number): number {
    // The span ends at the closing quote.
    return fieldAt(this.bytes, this.ids.spans[row * 2 + 1] + 1, k);
  }
}

/** Collects rows for SummaryRows: buffers made once for all the summary's rows, each file's table a view of its part. */
export class RowsBuilder {
  private length = 0;
  private start = 0;
  private readonly spans: Int32Array;
  private readonly hashes: Uint32Array;
  private readonly statePasses: Int32Array;
  private decoded = new Map<number, string>();

  /** `rowsAtMost`: a bound on all the tables' rows together (memory is only taken as rows are written). */
  constructor(
    private readonly bytes: Uint8Array,
    rowsAtMost: number,
  ) {
    this.spans = new Int32Array(rowsAtMost * 2);
    this.hashes = new Uint32Array(rowsAtMost);
    this.statePasses = new Int32Array(rowsAtMost * 2);
  }

  /** A row whose id's content is bytes `idStart` to `idEnd` (ASCII, unless `decodedId` gives it); false: a count does not fit. */
  push(idStart: number, idEnd: number, decodedId: string | null, hash: number, state: number, passes: number): boolean {
    if (!(fitsTable(state) && fitsTable(passes))) return false;
    const r = this.length++;
    if (r === this.hashes.length) return false;
    this.spans[r * 2] = idStart;
    this.spans[r * 2 + 1] = idEnd;
    this.hashes[r] = hash;
    if (decodedId !== null) this.decoded.set(r - this.start, decodedId);
    this.statePasses[r * 2] = state;
    this.statePasses[r * 2 + 1] = passes;
    return true;
  }

  finish(): SummaryRows {
    const [from, to] = [this.start, this.length];
    const ids: IdSource = { text: this.bytes, spans: this.spans.subarray(from * 2, to * 2), decoded: this.decoded, hashes: this.hashes.subarray(from, to) };
    const table = new SummaryRows(ids, this.bytes, this.statePasses.subarray(from * 2, to * 2));
    this.start = this.length;
    this.decoded = new Map();
    return table;
  }
}
