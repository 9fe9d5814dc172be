// The fast path for miles `Sample.to_dict()` lines once a file is known to hold them (its
// reference twin: `reference.ts` over the whole line's scan): the members `normalizeMilesSample` reads are found by the bytes of their keys and only their values
// are converted (numbers with Python's int-vs-float reading, short strings, the prompt's hash);
// every other member is validated and skipped, and no object is built for the line. The result is
// the record `parseByRule` + `normalizeMilesSample` give for the same line. Wherever this path cannot
// decide alone (a repeated key, which Python's json reads as the last one; a value of a type the
// fast validation would refuse; an object reward; any syntax error), it returns null and the line
// takes the full path, which gives the record, the `invalid-record` message or the syntax error.
import { noteShape } from '../fieldShape';
import type { DeflateJobs } from '../../reader/deflateJobs';
import type { Child, Rule } from '../../reader/jsonRule';
import { readNumberAt, type NumberRead } from '../../reader/jsonNumber';
import { skipString, skipValue } from '../../reader/jsonSkip';
import { hashBytes, hashPair } from '../../reader/hash';
import { KeyTable, malformed, NO_LEAD, RecentTexts, skipWs, WS } from '../../reader/keyTable';
import { RepeatedValue } from '../../reader/repeatedValue';
import { MAX_BUILT_SCALARS, RuleParser } from '../../reader/ruleParse';
import { TailMeasure, textTail } from '../../reader/textTail';
import type { SampleStore } from '../../store/sampleStore';
import { emptyRow, setRowStatus } from '../../store/row';
import type { MilesSampleFields, SampleRecord, SampleStatus } from '../../vocabulary/types';

import { datasetInOrder, type LineInfo } from '../context';
import {
  DATA_SOURCE,
  DATASET,
  GROUP_INDEX,
  INDEX,
  LABEL,
  LOSS_MASK,
  METADATA,
  PREFIX_CACHE_INFO,
  PROMPT,
  RESPONSE,
  RESPONSE_LENGTH,
  REWARD,
  ROLLOUT_ID,
  SAMPLE_MEMBERS,
  STATUS,
  WEIGHT_VERSIONS,
} from '../members/miles';
import { abortedByStatus, isPlainObject, SAMPLE_STATUSES } from '../members/checks';
import { noPendingTail, type OffloadedVerdicts, tailVerdict } from '../offloadedVerdicts';
import { MAX_STRING } from '../rule';

import { MilesMetadataReader } from './lineMetadata';

const QUOTE = 0x22;

const STATUS_SET: ReadonlySet<string> = new Set<string>(SAMPLE_STATUSES);

/** The miles-sample reader of one file (its key tables learn the file's key order). */
export class MilesLineReader {
  private readonly top = new KeyTable(SAMPLE_MEMBERS);
  /** Short string values by field: few distinct ones. */
  private readonly recent = Array.from({ length: SAMPLE_MEMBERS.length }, () => new RecentTexts());
  private readonly metadata = new MilesMetadataReader();
  private readonly members = new RuleParser();
  private readonly lossMaskRule: Child | undefined;
  private readonly weightVersionsRule: Child | undefined;
  private readonly prefixCacheRule: Child | undefined;
  /** The last `weight_versions` list and `prefix_cache_info` read whole, with their bytes. */
  private readonly versions = new RepeatedValue();
  private readonly prefix = new RepeatedValue();
  private readonly facts: NumberRead = { isInt: false, literal: null, value: 0 };
  /** The row `readInto` fills and pushes (one for every line: no allocation per line). */
  private readonly row = emptyRow();
  private readonly rowMiles: MilesSampleFields = { effectiveLength: null, weightVersions: null, cachedTokens: 0, totalPromptTokens: 0, repetition: false };
  private readonly hash = new Uint32Array(2);
  /** A tail of the line's response left to `jobs`. */
  private readonly pending = noPendingTail();

  // The line's top-level members, reset per line; its `metadata` members are kept by `metadata`.
  /** The members seen, a bit each (a repeated one goes to the full path). */
  private seen = 0;
  private groupKey: string | null = null;
  /** The group index when its key is `String(groupValue)` (`groupKey` is then not made): NaN otherwise. */
  private groupValue = NaN;
  private index: number | null = null;
  /** `Sample.rollout_id`: the rollout the sample came from (not the step). */
  private rolloutId: number | null = null;
  private status: SampleStatus | null = null;
  private reward: number | null = null;
  private rewardIsInt = false;
  private responseLength: number | null = null;
  private dataset: string | null = null;
  private dataSource: string | null = null;
  private promptStart = -1;
  private promptEnd = -1;
  private labelStart = -1;
  private labelEnd = -1;
  private lossMask: unknown = undefined;
  private weightVersions: unknown = undefined;
  private prefixCache: unknown = undefined;
  private repetition: boolean | null | string = false;
  /** Where a long response's tail goes to be compressed (the scan's jobs; null: here). */
  private jobs: DeflateJobs | null = null;
  /** Measures a long response's tail here. */
  private readonly tails = new TailMeasure();

  constructor(rule: Rule) {
    this.lossMaskRule = rule.children?.get('loss_mask');
    this.weightVersionsRule = rule.children?.get('weight_versions');
    this.prefixCacheRule = rule.children?.get('prefix_cache_info');
  }

  /** The record of the line `b[s, e)`, or null when the full path must read it. */
  read(b: Uint8Array, s: number, e: number, info: LineInfo): SampleRecord | null {
    this.jobs = null;
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
    this.jobs = offloaded === null ? null : offloaded.jobs;
    try {
      if (!this.scan(b, s, e)) return false;
    } catch {
      return false;
    }
    this.pushLine(b, line, offset, e - s, store);
    if (offloaded !== null) offloaded.notePending(store.length - 1, this.pending);
    return true;
  }

  private scan(b: Uint8Array, s: number, e: number): boolean {
    this.seen = 0;
    this.groupKey = null;
    this.groupValue = NaN;
    this.index = null;
    this.rolloutId = null;
    this.status = null;
    this.reward = null;
    this.rewardIsInt = false;
    this.responseLength = null;
    this.dataset = null;
    this.dataSource = null;
    this.promptStart = this.promptEnd = this.labelStart = this.labelEnd = -1;
    this.lossMask = this.weightVersions = this.prefixCache = undefined;
    this.repetition = false;
    this.pending.ticket = -1;
    this.metadata.reset();
    let i = skipWs(b, s, e);
    if (b[i] !== 0x7b || i >= e) return false;
    i = this.object(b, i, e, false);
    return i >= 0 && skipWs(b, i, e) === e;
  }

  /** `i` at `{`: the index after the object, or -1 to fall back. `nested`: the metadata object. */
  private object(b: Uint8Array, i: number, e: number, nested: boolean): number {
    const table = nested ? this.metadata.keys : this.top;
    i++;
    for (let position = 0; ; position++) {
      // Past this many members the full scan stops building scalars: let it decide what is read.
      if (position >= MAX_BUILT_SCALARS) return -1;
      // `i` after `{` or `,`: the member's key and separators, mostly the bytes of the last line's.
      let field = table.leadAt(b, i, e, position);
      if (field !== NO_LEAD) i = table.keyEnd;
      else {
        const lead = i;
        i = skipWs(b, i, e);
        if (position === 0 && b[i] === 0x7d && i < e) return i + 1;
        if (b[i] !== QUOTE || i >= e) malformed(i);
        field = table.fieldAt(b, i, e, position);
        i = skipWs(b, table.keyEnd, e);
        if (b[i] !== 0x3a || i >= e) malformed(i);
        i = skipWs(b, i + 1, e);
        if (i >= e) malformed(i);
        table.keepLead(b, lead, i, position, field);
      }
      if (field < 0) {
        i = skipValue(b, i, e);
      } else {
        if (nested) i = this.metadata.member(field, b, i, e);
        else {
          const bit = 1 << field;
          if ((this.seen & bit) !== 0) return -1;
          this.seen |= bit;
          i = this.member(field, b, i, e);
        }
        if (i < 0) return -1;
      }
      let c = b[i];
      if (WS[c] === 1) {
        i = skipWs(b, i, e);
        c = b[i];
      }
      if (i >= e) malformed(i);
      if (c === 0x2c) {
        i++;
        continue;
      }
      if (c === 0x7d) return i + 1;
      malformed(i);
    }
  }

  /** One top-level member's value at `i`: the index after it, or -1 to fall back. */
  private member(field: number, b: Uint8Array, i: number, e: number): number {
    const c = b[i];
    const facts = this.facts;
    switch (field) {
      case GROUP_INDEX: {
        if (c === 0x6e) return skipValue(b, i, e);
        const end = readNumberAt(b, i, e, facts);
        const v = facts.value;
        if (!Number.isInteger(v)) return -1;
        // `groupKeyText`: the int's literal (`-0` is Python's int 0), else the number's text, which the
        // store's key table takes as the number itself (`groupKeyText` makes it when needed).
        if (facts.isInt && facts.literal !== null) this.groupKey = facts.literal === '-0' ? '0' : facts.literal;
        else this.groupValue = v;
        return end;
      }
      case INDEX:
      case ROLLOUT_ID:
      case RESPONSE_LENGTH: {
        if (c === 0x6e) return skipValue(b, i, e);
        const end = readNumberAt(b, i, e, facts);
        const v = facts.value;
        if (!Number.isInteger(v)) return -1;
        if (field === INDEX) this.index = v;
        else if (field === ROLLOUT_ID) this.rolloutId = v;
        else this.responseLength = v;
        return end;
      }
      case REWARD: {
        if (c === 0x6e) return skipValue(b, i, e);
        const end = readNumberAt(b, i, e, facts);
        this.reward = facts.value;
        this.rewardIsInt = facts.isInt;
        return end;
      }
      case STATUS:
      case DATASET:
      case DATA_SOURCE: {
        if (c === 0x6e) return skipValue(b, i, e);
        if (c !== QUOTE) return -1;
        const recent = this.recent[field];
        let text = recent.repeated(b, i, e);
        let end = recent.end;
        if (text === null) {
          end = skipString(b, i, e);
          if (end - i - 2 > MAX_STRING) return -1;
          text = recent.text(b, i, end);
        }
        if (field === STATUS) {
          if (!STATUS_SET.has(text)) return -1;
          this.status = text as SampleStatus;
        } else if (field === DATASET) this.dataset = text;
        else this.dataSource = text;
        return end;
      }
      case METADATA:
        if (c === 0x6e) return skipValue(b, i, e);
        if (c !== 0x7b) return -1;
        return this.object(b, i, e, true);
      case PROMPT:
      case LABEL: {
        const end = skipValue(b, i, e);
        if (field === PROMPT) {
          this.promptStart = i;
          this.promptEnd = end;
        } else {
          this.labelStart = i;
          this.labelEnd = end;
        }
        return end;
      }
      case RESPONSE: {
        // As `repetitionOf` reads the value the full scan builds under the 'tail' rule: a string
        // of up to MAX_STRING bytes has too few characters to be compressed (False); a longer one
        // keeps its tail; any other value is not text (null).
        if (c !== QUOTE) {
          this.repetition = null;
          return skipValue(b, i, e);
        }
        const end = skipString(b, i, e);
        this.repetition = end - i - 2 <= MAX_STRING ? false : tailVerdict(textTail(b, i + 1, end - 1, this.jobs, this.tails), this.pending);
        return end;
      }
      case LOSS_MASK:
        this.lossMask = this.members.member(b, i, e, this.lossMaskRule, MAX_STRING);
        return this.members.end;
      case WEIGHT_VERSIONS: {
        // The same list handed on while its bytes repeat (the store's `versionId` then knows it at once).
        const same = this.versions.endIfSame(b, i, e);
        if (same >= 0) {
          this.weightVersions = this.versions.value;
          return same;
        }
        this.weightVersions = this.members.member(b, i, e, this.weightVersionsRule, MAX_STRING);
        const end = this.members.end;
        if (Array.isArray(this.weightVersions)) this.versions.keep(b, i, end, this.weightVersions);
        return end;
      }
      case PREFIX_CACHE_INFO: {
        // As `weight_versions` (`{}` on most lines).
        const same = this.prefix.endIfSame(b, i, e);
        if (same >= 0) {
          this.prefixCache = this.prefix.value;
          return same;
        }
        this.prefixCache = this.members.member(b, i, e, this.prefixCacheRule, MAX_STRING);
        const end = this.members.end;
        this.prefix.keep(b, i, end, this.prefixCache);
        return end;
      }
      default:
        return -1;
    }
  }

  private groupKeyText(): string | null {
    return this.groupKey ?? (this.groupValue === this.groupValue ? String(this.groupValue) : null);
  }

  /** The miles fields `normalizeMilesSample` gives for the members read, into `m`. */
  private milesFields(m: MilesSampleFields): MilesSampleFields {
    const wv = this.weightVersions;
    const lossMask = this.lossMask;
    m.effectiveLength = typeof lossMask === 'number' ? lossMask : lossMask === null || lossMask === undefined ? this.responseLength : null;
    m.weightVersions = Array.isArray(wv) && wv.every((v) => typeof v === 'string' || typeof v === 'number') ? (wv as (string | number)[]) : null;
    m.cachedTokens = num(this.prefixCache, 'cached_tokens');
    m.totalPromptTokens = num(this.prefixCache, 'total_prompt_tokens');
    m.repetition = this.repetition;
    return m;
  }

  /** The row of the members read, pushed to `store` (the columns `push` of `record`'s result writes). */
  private pushLine(b: Uint8Array, line: number, offset: number, byteLength: number, store: SampleStore): void {
    const r = this.row;
    const meta = this.metadata;
    r.line = line;
    r.offset = offset;
    r.byteLength = byteLength;
    r.groupId = this.groupKey !== null ? store.groupKeys.id(this.groupKey) : this.groupValue === this.groupValue ? store.groupIdOfInt(this.groupValue) : -1;
    if (this.promptEnd >= 0) {
      hashPair(b, this.promptStart, this.promptEnd, this.hash);
      r.promptId = store.promptIdOfHash(this.hash);
    } else if (meta.instance !== null) r.promptId = store.strings.id(meta.instance);
    else if (this.labelEnd >= 0) {
      hashPair(b, this.labelStart, this.labelEnd, this.hash);
      r.promptId = store.promptIdOfHash(this.hash);
    } else r.promptId = -1;
    r.dataset = datasetInOrder(this.dataset, meta.dataset, meta.datasetName, this.dataSource);
    r.cause = meta.exitStatus === '' ? null : meta.exitStatus;
    r.index = this.index;
    r.responseLength = this.responseLength;
    // A miles sample names no step: its file's name does (docs/framework-files.md#compact-rollouts).
    r.step = null;
    r.rolloutId = this.rolloutId;
    setRowStatus(r, this.status, abortedByStatus(this.status));
    r.reward = this.reward;
    r.rewardIsInt = this.rewardIsInt;
    r.miles = this.milesFields(this.rowMiles);
    const wv = this.weightVersions;
    if (this.rowMiles.weightVersions === null && wv !== undefined && wv !== null) noteShape(store.shapes, 'weight_versions', wv, line);
    store.pushRow(r);
  }

  /** The record `normalizeMilesSample` builds from the members read (field order as there). */
  private record(b: Uint8Array, info: LineInfo): SampleRecord {
    const meta = this.metadata;
    const sample: SampleRecord = {
      line: info.line,
      offset: info.offset,
      byteLength: info.byteLength,
      groupKey: this.groupKeyText(),
      index: this.index,
      dataset: datasetInOrder(this.dataset, meta.dataset, meta.datasetName, this.dataSource),
      promptKey:
        this.promptEnd >= 0
          ? hashBytes(b, this.promptStart, this.promptEnd)
          : (meta.instance ?? (this.labelEnd >= 0 ? hashBytes(b, this.labelStart, this.labelEnd) : null)),
      status: this.status,
      aborted: abortedByStatus(this.status),
      reward: this.reward,
      rewardIsInt: this.rewardIsInt,
      cause: meta.exitStatus === '' ? null : meta.exitStatus,
      responseLength: this.responseLength,
      step: null,
    };
    if (this.rolloutId !== null) sample.rolloutId = this.rolloutId;
    sample.miles = this.milesFields({ effectiveLength: null, weightVersions: null, cachedTokens: 0, totalPromptTokens: 0, repetition: false });
    return sample;
  }
}

function num(holder: unknown, key: string): number {
  const v = isPlainObject(holder) ? holder[key] : undefined;
  return typeof v === 'number' ? v : 0;
}
