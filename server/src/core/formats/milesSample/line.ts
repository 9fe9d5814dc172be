// The fast path for miles `Sample.to_dict()` lines once a file is known to hold them (its
// reference twin: `reference.ts` over the whole line's scan): the members `normalizeMilesSample` reads are found by the bytes of their keys and only their values
// are converted (numbers with Python's int-vs-float reading, short strings, the prompt's hash);
// every other member is validated and skipped, and no object is built for the line. The result is
// the record `parseByRule` + `normalizeMilesSample` give for the same line. Wherever this path cannot
// decide alone (a repeated key, which Python's json reads as the last one; a value of a type the
// fast validation would refuse; an object reward; any syntax error), it returns null and the line
// takes the full path, which gives the record, the `invalid-record` message or the syntax error.
import { noteShape } from '../fieldShape';
import type { Rule } from '../../reader/jsonRule';
import { hashBytes, hashPair } from '../../reader/hash';
import { skipWs } from '../../reader/keyTable';
import type { SampleStore } from '../../store/sampleStore';
import { emptyRow, setRowStatus } from '../../store/row';
import type { MilesSampleFields, SampleRecord, SampleStatus } from '../../vocabulary/types';

import { datasetInOrder, type LineInfo } from '../context';
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
} from '../members/miles';
import { abortedByStatus, isPlainObject } from '../members/checks';
import type { OffloadedVerdicts } from '../offloadedVerdicts';

import { LineMembers, lineTails } from './lineMembers';

/** `promptSource`'s answer for a line whose `metadata.instance_id` keys the prompt. */
const BY_INSTANCE = -2;

/** The miles-sample reader of one file (its key tables learn the file's key order). */
export class MilesLineReader {
  /** Where a long response's tail goes, and the tail left to the scan's jobs. */
  private readonly tails = lineTails();
  /** The line's members by their position in MILES_SAMPLE (lineMembers.ts reads each by its kind). */
  private readonly top: LineMembers;
  /** Its `metadata` members (MILES_METADATA). */
  private readonly metadata: LineMembers;
  /** The row `readInto` fills and pushes (one for every line: no allocation per line). */
  private readonly row = emptyRow();
  private readonly rowMiles: MilesSampleFields = { effectiveLength: null, weightVersions: null, cachedTokens: 0, totalPromptTokens: 0, repetition: false };
  private readonly hash = new Uint32Array(2);

  constructor(rule: Rule) {
    this.top = new LineMembers(MILES_SAMPLE, rule, this.tails);
    this.metadata = this.top.nested[METADATA] as LineMembers;
  }

  /** The record of the line `b[s, e)`, or null when the full path must read it. */
  read(b: Uint8Array, s: number, e: number, info: LineInfo): SampleRecord | null {
    this.tails.jobs = null;
    try {
      return this.scan(b, s, e) ? this.record(b, info) : null;
    } catch {
      return null;
    }
  }

  /**
   * The line `b[s, e)` appended to `store` as its record would be (`SampleStore.pushRow`: keys as
   * table ids, no record or key string made); false when the full path must read it. With
   * `offloaded`, a long response's tail may be left to its jobs (the row noted there).
   */
  readInto(b: Uint8Array, s: number, e: number, line: number, offset: number, store: SampleStore, offloaded: OffloadedVerdicts | null = null): boolean {
    this.tails.jobs = offloaded === null ? null : offloaded.jobs;
    try {
      if (!this.scan(b, s, e)) return false;
    } catch {
      return false;
    }
    this.pushLine(b, line, offset, e - s, store);
    if (offloaded !== null) offloaded.notePending(store.length - 1, this.tails.pending);
    return true;
  }

  private scan(b: Uint8Array, s: number, e: number): boolean {
    this.top.reset();
    this.tails.pending.ticket = -1;
    let i = skipWs(b, s, e);
    if (b[i] !== 0x7b || i >= e) return false;
    i = this.top.object(b, i, e);
    return i >= 0 && skipWs(b, i, e) === e;
  }

  // The format's rules over the slots (as `normalizeMilesSample` over the validated record).

  private groupKeyText(): string | null {
    const top = this.top;
    return (top.valued & (1 << GROUP_INDEX)) === 0 ? null : (top.texts[GROUP_INDEX] ?? String(top.numbers[GROUP_INDEX]));
  }

  /** Which member keys the prompt: `prompt`'s hash, else `metadata.instance_id`, else `label`'s hash (a position of `top`, BY_INSTANCE, or -1: none). */
  private promptSource(): number {
    const valued = this.top.valued;
    if ((valued & (1 << PROMPT)) !== 0) return PROMPT;
    if ((this.metadata.valued & (1 << INSTANCE_ID)) !== 0) return BY_INSTANCE;
    return (valued & (1 << LABEL)) !== 0 ? LABEL : -1;
  }

  // The slots are read straight below (not through `LineMembers.text`): this runs for every line.

  private dataset(): string | null {
    const top = this.top.valued;
    const texts = this.top.texts;
    const meta = this.metadata.valued;
    const metaTexts = this.metadata.texts;
    return datasetInOrder(
      (top & (1 << DATASET)) !== 0 ? texts[DATASET] : null,
      (meta & (1 << METADATA_DATASET)) !== 0 ? metaTexts[METADATA_DATASET] : null,
      (meta & (1 << DATASET_NAME)) !== 0 ? metaTexts[DATASET_NAME] : null,
      (top & (1 << DATA_SOURCE)) !== 0 ? texts[DATA_SOURCE] : null,
    );
  }

  private cause(): string | null {
    const exitStatus = (this.metadata.valued & (1 << EXIT_STATUS)) !== 0 ? this.metadata.texts[EXIT_STATUS] : null;
    return exitStatus === '' ? null : exitStatus;
  }

  /** The value in slot `k` of `top` when one was read ('sum', 'list', 'scalars'), else undefined. */
  private value(k: number): unknown {
    return (this.top.valued & (1 << k)) !== 0 ? this.top.values[k] : undefined;
  }

  /** The miles fields `normalizeMilesSample` gives for the members read, into `m`. */
  private milesFields(m: MilesSampleFields): MilesSampleFields {
    const wv = this.value(WEIGHT_VERSIONS);
    const lossMask = this.value(LOSS_MASK);
    const prefixCache = this.value(PREFIX_CACHE_INFO);
    m.effectiveLength =
      typeof lossMask === 'number'
        ? lossMask
        : lossMask !== undefined
          ? null
          : (this.top.valued & (1 << RESPONSE_LENGTH)) !== 0
            ? this.top.numbers[RESPONSE_LENGTH]
            : null;
    m.weightVersions = Array.isArray(wv) && wv.every((v) => typeof v === 'string' || typeof v === 'number') ? (wv as (string | number)[]) : null;
    m.cachedTokens = num(prefixCache, 'cached_tokens');
    m.totalPromptTokens = num(prefixCache, 'total_prompt_tokens');
    m.repetition = (this.top.valued & (1 << RESPONSE)) !== 0 ? (this.top.values[RESPONSE] as boolean | null | string) : false;
    return m;
  }

  /** The row of the members read, pushed to `store` (the columns `push` of `record`'s result writes). */
  private pushLine(b: Uint8Array, line: number, offset: number, byteLength: number, store: SampleStore): void {
    const r = this.row;
    const top = this.top;
    // The slots are read straight here (not through `text`, `number`): this runs for every line.
    const valued = top.valued;
    const numbers = top.numbers;
    r.line = line;
    r.offset = offset;
    r.byteLength = byteLength;
    if ((valued & (1 << GROUP_INDEX)) === 0) r.groupId = -1;
    else {
      const literal = top.texts[GROUP_INDEX];
      r.groupId = literal !== null ? store.groupKeys.id(literal) : store.groupIdOfInt(numbers[GROUP_INDEX]);
    }
    const prompt = this.promptSource();
    if (prompt >= 0) {
      hashPair(b, top.starts[prompt], top.ends[prompt], this.hash);
      r.promptId = store.promptIdOfHash(this.hash);
    } else r.promptId = prompt === BY_INSTANCE ? store.strings.id(this.metadata.texts[INSTANCE_ID] as string) : -1;
    r.dataset = this.dataset();
    r.cause = this.cause();
    r.index = (valued & (1 << INDEX)) !== 0 ? numbers[INDEX] : null;
    r.responseLength = (valued & (1 << RESPONSE_LENGTH)) !== 0 ? numbers[RESPONSE_LENGTH] : null;
    // A miles sample names no step: its file's name does (docs/framework-files.md#compact-rollouts).
    r.step = null;
    r.rolloutId = (valued & (1 << ROLLOUT_ID)) !== 0 ? numbers[ROLLOUT_ID] : null;
    const status = ((valued & (1 << STATUS)) !== 0 ? top.texts[STATUS] : null) as SampleStatus | null;
    setRowStatus(r, status, abortedByStatus(status));
    r.reward = (valued & (1 << REWARD)) !== 0 ? numbers[REWARD] : null;
    r.rewardIsInt = (top.ints & (1 << REWARD)) !== 0;
    r.miles = this.milesFields(this.rowMiles);
    const wv = this.value(WEIGHT_VERSIONS);
    if (this.rowMiles.weightVersions === null && wv !== undefined) noteShape(store.shapes, 'weight_versions', wv, line);
    store.pushRow(r);
  }

  /** The record `normalizeMilesSample` builds from the members read (field order as there). */
  private record(b: Uint8Array, info: LineInfo): SampleRecord {
    const top = this.top;
    const prompt = this.promptSource();
    const status = top.text(STATUS) as SampleStatus | null;
    const sample: SampleRecord = {
      line: info.line,
      offset: info.offset,
      byteLength: info.byteLength,
      groupKey: this.groupKeyText(),
      index: top.number(INDEX),
      dataset: this.dataset(),
      promptKey: prompt >= 0 ? hashBytes(b, top.starts[prompt], top.ends[prompt], this.hash) : prompt === BY_INSTANCE ? this.metadata.texts[INSTANCE_ID] : null,
      status,
      aborted: abortedByStatus(status),
      reward: top.number(REWARD),
      rewardIsInt: (top.ints & (1 << REWARD)) !== 0,
      cause: this.cause(),
      responseLength: top.number(RESPONSE_LENGTH),
      step: null,
    };
    const rolloutId = top.number(ROLLOUT_ID);
    if (rolloutId !== null) sample.rolloutId = rolloutId;
    sample.miles = this.milesFields({ effectiveLength: null, weightVersions: null, cachedTokens: 0, totalPromptTokens: 0, repetition: false });
    return sample;
  }
}

function num(holder: unknown, key: string): number {
  const v = isPlainObject(holder) ? holder[key] : undefined;
  return typeof v === 'number' ? v : 0;
}
