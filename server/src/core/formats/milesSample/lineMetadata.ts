// The `metadata` member of a miles sample line as the per-line path (milesSample/line.ts) reads
// it: `exit_status` (the cause), `dataset` and `dataset_name` (datasets, after the top-level one)
// and `instance_id` (the prompt key of a line without a prompt); other members are skipped there.
import { readNumber, type NumberRead, skipNumberAt } from '../../reader/jsonNumber';
import { skipString, skipValue } from '../../reader/jsonSkip';
import { KeyTable, RecentTexts } from '../../reader/keyTable';
import { stringText } from '../../reader/ruleParse';
import { DATASET_NAME, EXIT_STATUS, INSTANCE_ID, METADATA_DATASET, METADATA_MEMBERS, METADATA_REWARD } from '../members/miles';
import { MAX_STRING } from '../rule';

const QUOTE = 0x22;

/** The `metadata` members of one file's lines: the members of the line at hand, reset per line. */
export class MilesMetadataReader {
  /** The metadata keys read (learns the file's key order). */
  readonly keys = new KeyTable(METADATA_MEMBERS);
  /** Short string values by field: few distinct ones. */
  private readonly recent = Array.from({ length: METADATA_MEMBERS.length }, () => new RecentTexts());
  private readonly facts: NumberRead = { isInt: false, literal: null, value: 0 };
  /** The fields read on this line, a bit each. */
  private seen = 0;
  exitStatus: string | null = null;
  dataset: string | null = null;
  datasetName: string | null = null;
  instance: string | null = null;

  /** Forgets the last line's members. */
  reset(): void {
    this.seen = 0;
    this.exitStatus = this.dataset = this.datasetName = this.instance = null;
  }

  /** The value of member `field` (of `keys`) at `i`: the index after it, or -1 to fall back. */
  member(field: number, b: Uint8Array, i: number, e: number): number {
    // Only the full scan builds it (`metadata.reward`).
    if (field === METADATA_REWARD) return skipValue(b, i, e);
    // A repeated key: Python's json keeps the last one; the full path decides.
    const bit = 1 << field;
    if ((this.seen & bit) !== 0) return -1;
    this.seen |= bit;
    const c = b[i];
    if (c === 0x6e) return skipValue(b, i, e);
    if (field === INSTANCE_ID && c !== QUOTE) {
      const end = skipNumberAt(b, i, e);
      const v = readNumber(b, i, end, this.facts);
      if (!Number.isInteger(v)) return -1;
      this.instance = String(v);
      return end;
    }
    if (c !== QUOTE) return -1;
    const recent = this.recent[field];
    let text = field === INSTANCE_ID ? null : recent.repeated(b, i, e);
    let end = recent.end;
    if (text === null) {
      end = skipString(b, i, e);
      if (end - i - 2 > MAX_STRING) return -1;
      // Instance ids are mostly unique: not looked for among the recent ones.
      text = field === INSTANCE_ID ? stringText(b, i, end) : recent.text(b, i, end);
    }
    if (field === EXIT_STATUS) this.exitStatus = text;
    else if (field === METADATA_DATASET) this.dataset = text;
    else if (field === DATASET_NAME) this.datasetName = text;
    else this.instance = text;
    return end;
  }
}
