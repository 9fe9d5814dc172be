// A miles sample's row straight from the pickled dict (docs/pt.md, "Records without lines"):
// the row the per-line path (formats/milesSample/line.ts) writes into the store from the sample's JSON
// line (serialize.ts `sampleLine`), without writing the line and scanning it again, and the same
// fields as a record. It reads the same members with the same rules, value by value: numbers with
// Python's int-vs-float reading as the line would show them, short strings, the prompt's hash over
// its JSON text, the line's byte length. Wherever the per-line path would hand the line to the
// full scan (a value of a type its fast validation refuses, an object reward, a member past the
// scanner's limits) or this reader is not sure to agree (big integers, long texts where short
// strings are wanted), it refuses the sample and the caller feeds the line as before. That fed
// line is its reference twin (scan/ptDumpScan.ts `feedLine`); test/unit/pt/direct.test.ts holds the
// paths equal. Which members it reads is MILES_SAMPLE (formats/members/miles.ts), each read by
// ptMembers.ts.
import { noteShape } from '../formats/fieldShape';
import { noPendingTail } from '../formats/offloadedVerdicts';
import { abortedByStatus } from '../formats/members/checks';
import type { MilesSampleFields, SampleRecord, SampleStatus } from '../vocabulary/types';
import type { SampleStore } from '../store/sampleStore';
import { emptyRow, setRowStatus } from '../store/row';
import type { DeflateJobs } from '../reader/deflateJobs';
import type { OffloadedVerdicts } from '../formats/offloadedVerdicts';
import { hashPair, hex64 } from '../reader/hash';
import { TailMeasure } from '../reader/textTail';

import { LineLengths } from '../reader/pt/lineLength';
import { stringify, toPlain } from '../reader/pt/serialize';
import { PyDict, PyText } from '../reader/pt/values';
import { datasetInOrder } from '../formats/context';
import {
  DATA_SOURCE,
  DATASET,
  DATASET_NAME,
  EXIT_STATUS,
  GROUP_INDEX,
  INDEX,
  INSTANCE_ID,
  LABEL,
  LOSS_MASK,
  METADATA,
  METADATA_DATASET,
  MILES_SAMPLE,
  PREFIX_CACHE_INFO,
  PROMPT,
  RESPONSE,
  RESPONSE_LENGTH,
  REWARD,
  ROLLOUT_ID,
  STATUS,
  WEIGHT_VERSIONS,
} from '../formats/members/miles';
import { cacheCount, PtMembers, textOfStr } from './ptMembers';

/**
 * The reader of one dump's miles samples (its state is the last sample's: one reader per scan).
 * `record` gives a sample's record as the per-line path reads its line, or null when the line
 * must be fed instead; `pushRow` pushes the same fields as a row.
 */
export class PtSampleReader {
  /** What `read` read of the last sample: the record's fields, its keys not yet strings or ids. */
  private readonly got = {
    /** `group_index` (NaN: none). */
    group: NaN,
    index: null as number | null,
    /** `Sample.rollout_id`: the rollout the sample came from (not the step: the root's `rollout_id` is). */
    rolloutId: null as number | null,
    responseLength: null as number | null,
    reward: null as number | null,
    rewardIsInt: false,
    status: null as SampleStatus | null,
    dataset: null as string | null,
    cause: null as string | null,
    /** Which member keys the prompt: its words in `promptWords`, or `instance`'s text, or none. */
    prompt: 'none' as 'hash' | 'instance' | 'none',
    instance: null as string | null,
    byteLength: 0,
    effectiveLength: null as number | null,
    weightVersions: null as (string | number)[] | null,
    /** `weight_versions` when it is present but of another shape than a list of str or int. */
    oddVersions: undefined as unknown,
    cachedTokens: 0,
    totalPromptTokens: 0,
    repetition: false as boolean | null | string,
  };
  private readonly promptWords = new Uint32Array(2);
  private readonly encoder = new TextEncoder();
  private hashBuffer = new Uint8Array(1 << 12);
  /** The last prompt (or label) hashed and its words: a group's samples read theirs back from the memo. */
  private lastHashed: unknown = undefined;
  private readonly lastHash = new Uint32Array(2);
  private readonly row = emptyRow();
  private readonly rowMiles: MilesSampleFields = { effectiveLength: null, weightVersions: null, cachedTokens: 0, totalPromptTokens: 0, repetition: false };
  /** A tail of the sample's response left to the scan's jobs. */
  private readonly pending = noPendingTail();
  private readonly lineLengths = new LineLengths();
  private readonly tails = new TailMeasure();
  /** The sample's members by their position in MILES_SAMPLE, read by their kinds. */
  private readonly top = new PtMembers(MILES_SAMPLE);
  /** Its `metadata` members (MILES_METADATA). */
  private readonly metadata = this.top.nested[METADATA] as PtMembers;

  /** The words of `hashBytes` over the JSON text of `v`, a member of `sample`, as the sample's line holds it. */
  private jsonHash(v: unknown, sample: PyDict, out: Uint32Array): void {
    const json = typeof v === 'string' ? JSON.stringify(v) : v instanceof PyText ? JSON.stringify(textOfStr(v)) : stringify(toPlain(v, 'line', sample));
    if (this.hashBuffer.length < json.length * 3) this.hashBuffer = new Uint8Array(json.length * 3);
    const { written } = this.encoder.encodeInto(json, this.hashBuffer);
    hashPair(this.hashBuffer, 0, written, out);
  }

  /** The prompt key's words of `v` into `out` (a prompt or label, as the line's JSON text). */
  private promptHash(v: unknown, sample: PyDict, out: Uint32Array): void {
    // Only immutable values: a text's bytes never change (a dict or list might, in a hostile pickle).
    const immutable = typeof v === 'string' || v instanceof PyText;
    if (immutable && v === this.lastHashed) {
      out.set(this.lastHash);
      return;
    }
    this.jsonHash(v, sample, out);
    if (immutable) {
      this.lastHashed = v;
      this.lastHash.set(out);
    }
  }

  /**
   * Reads sample `value` into `got` as the per-line path reads its line; false when the line must be
   * fed instead. With `jobs`, a long response's tail may be compressed elsewhere
   * (formats/offloadedVerdicts.ts `pendingTail`), for the collector to settle. The members are read
   * into `top`'s slots by their kinds; `got` is made from them by the format's rules, as
   * formats/milesSample/line.ts makes its record.
   */
  private read(value: unknown, jobs: DeflateJobs | null): boolean {
    const got = this.got;
    const top = this.top;
    const meta = this.metadata;
    if (!(value instanceof PyDict) || !top.read(value)) return false;
    got.group = (top.valued & (1 << GROUP_INDEX)) !== 0 ? top.numbers[GROUP_INDEX] : NaN;
    got.index = top.number(INDEX);
    got.rolloutId = top.number(ROLLOUT_ID);
    const responseLength = top.number(RESPONSE_LENGTH);
    got.responseLength = responseLength;
    got.reward = top.number(REWARD);
    got.rewardIsInt = (top.ints & (1 << REWARD)) !== 0;
    got.status = top.text(STATUS) as SampleStatus | null;
    got.dataset = datasetInOrder(top.text(DATASET), meta.text(METADATA_DATASET), meta.text(DATASET_NAME), top.text(DATA_SOURCE));
    const exitStatus = meta.text(EXIT_STATUS);
    got.cause = exitStatus === '' ? null : exitStatus;
    got.effectiveLength = (top.valued & (1 << LOSS_MASK)) !== 0 ? (top.values[LOSS_MASK] as number | null) : responseLength;
    const versions = (top.valued & (1 << WEIGHT_VERSIONS)) !== 0;
    got.weightVersions = versions ? (top.values[WEIGHT_VERSIONS] as (string | number)[] | null) : null;
    got.oddVersions = versions ? top.others[WEIGHT_VERSIONS] : undefined;
    const info = top.value(PREFIX_CACHE_INFO);
    got.cachedTokens = cacheCount(info, 'cached_tokens');
    got.totalPromptTokens = cacheCount(info, 'total_prompt_tokens');
    this.pending.ticket = -1;
    top.settleTails(jobs, this.pending, this.tails);
    got.repetition = (top.valued & (1 << RESPONSE)) !== 0 ? (top.values[RESPONSE] as boolean | null | string) : false;
    got.byteLength = this.lineLengths.of(value);
    // The prompt's key: `prompt`'s hash, else `metadata.instance_id`, else `label`'s hash.
    const instance = meta.text(INSTANCE_ID);
    got.instance = instance;
    if ((top.valued & (1 << PROMPT)) !== 0) {
      this.promptHash(top.values[PROMPT], value, this.promptWords);
      got.prompt = 'hash';
    } else if (instance !== null) got.prompt = 'instance';
    else if ((top.valued & (1 << LABEL)) !== 0) {
      this.promptHash(top.values[LABEL], value, this.promptWords);
      got.prompt = 'hash';
    } else got.prompt = 'none';
    return true;
  }

  /** The miles fields of `got` into `m`. */
  private milesOf(m: MilesSampleFields): MilesSampleFields {
    const got = this.got;
    m.effectiveLength = got.effectiveLength;
    m.weightVersions = got.weightVersions;
    m.cachedTokens = got.cachedTokens;
    m.totalPromptTokens = got.totalPromptTokens;
    m.repetition = got.repetition;
    return m;
  }

  /**
   * The record of sample `index` (line `index + 1`) as the per-line path reads its line, or null
   * when the line must be fed instead (`pushRow` writes the same fields as a row).
   */
  record(value: unknown, index: number, jobs: DeflateJobs | null = null): SampleRecord | null {
    if (!this.read(value, jobs)) return null;
    const got = this.got;
    const sample: SampleRecord = {
      line: index + 1,
      offset: index,
      byteLength: got.byteLength,
      groupKey: got.group === got.group ? String(got.group) : null,
      index: got.index,
      dataset: got.dataset,
      promptKey: got.prompt === 'hash' ? hex64(this.promptWords[0], this.promptWords[1]) : got.prompt === 'instance' ? got.instance : null,
      status: got.status,
      aborted: abortedByStatus(got.status),
      reward: got.reward,
      rewardIsInt: got.rewardIsInt,
      cause: got.cause,
      responseLength: got.responseLength,
      step: null,
    };
    if (got.rolloutId !== null) sample.rolloutId = got.rolloutId;
    sample.miles = this.milesOf({ effectiveLength: null, weightVersions: null, cachedTokens: 0, totalPromptTokens: 0, repetition: false });
    return sample;
  }

  /**
   * Sample `index` pushed to `store` as the row `ptSampleRecord`'s record would be (keys as ids,
   * no record and no key string made), as the per-line path pushes a line's; false when the line
   * must be fed instead. A tail `offloaded` took is noted for the collector to settle.
   */
  pushRow(value: unknown, index: number, store: SampleStore, offloaded: OffloadedVerdicts | null): boolean {
    if (!this.read(value, offloaded === null ? null : offloaded.jobs)) return false;
    const got = this.got;
    const r = this.row;
    r.line = index + 1;
    r.offset = index;
    r.byteLength = got.byteLength;
    r.groupId = got.group === got.group ? store.groupIdOfInt(got.group) : -1;
    r.promptId = got.prompt === 'hash' ? store.promptIdOfHash(this.promptWords) : got.prompt === 'instance' ? store.strings.id(got.instance as string) : -1;
    r.dataset = got.dataset;
    r.cause = got.cause;
    r.index = got.index;
    r.responseLength = got.responseLength;
    r.step = null;
    r.rolloutId = got.rolloutId;
    setRowStatus(r, got.status, abortedByStatus(got.status));
    r.reward = got.reward;
    r.rewardIsInt = got.rewardIsInt;
    r.miles = this.milesOf(this.rowMiles);
    if (got.weightVersions === null && got.oddVersions !== undefined) noteShape(store.shapes, 'weight_versions', got.oddVersions, r.line);
    store.pushRow(r);
    if (offloaded !== null) offloaded.notePending(store.length - 1, this.pending);
    return true;
  }
}
