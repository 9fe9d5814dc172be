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
// paths equal. Which members it reads is MILES_SAMPLE (formats/members/miles.ts).
import { noteShape } from '../formats/fieldShape';
import { noPendingTail, tailVerdict } from '../formats/offloadedVerdicts';
import { MAX_STRING } from '../formats/rule';
import { abortedByStatus, SAMPLE_STATUSES } from '../formats/members/checks';
import type { MilesSampleFields, SampleRecord, SampleStatus } from '../vocabulary/types';
import type { SampleStore } from '../store/sampleStore';
import { emptyRow, setRowStatus } from '../store/row';
import type { DeflateJobs } from '../reader/deflateJobs';
import type { OffloadedVerdicts } from '../formats/offloadedVerdicts';
import { hashPair, hex64 } from '../reader/hash';
import { stringTail, TailMeasure } from '../reader/textTail';
import { MAX_BUILT_SCALARS } from '../reader/ruleParse';
import { MAX_LIST_ITEMS } from '../reader/jsonRule';

import { jsonStringLength, LineLengths } from '../reader/pt/lineLength';
import { stringify, toPlain } from '../reader/pt/serialize';
import { countedSum, PyDict, PyFloat, PyList, PyText, PyTuple } from '../reader/pt/values';
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
import type { MemberTable, ReadKind } from '../formats/members/checks';
import type { PendingTail } from '../formats/offloadedVerdicts';

const STATUS_SET: ReadonlySet<string> = new Set<string>(SAMPLE_STATUSES);

/** Not read here: the caller feeds the sample's line instead. */
const GIVE_UP = Symbol('give up');

/**
 * A number as its line shows it, read back: the value, or GIVE_UP for what the line would not
 * show as a plain number here (big integers, and every non-number).
 */
function numberOf(v: unknown): number | typeof GIVE_UP {
  if (typeof v === 'number') return v;
  if (v instanceof PyFloat) return v.value;
  return GIVE_UP;
}

/** Whether Python reads the line's literal of number `v` as an int (`numberOf(v)` is a number). */
function intText(v: unknown): boolean {
  // Integral plain numbers are Python ints (integral floats are PyFloat): written as digits.
  return typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 1e21;
}

/** A str the scanner builds as text: at most MAX_STRING bytes of JSON between its quotes. */
function isShort(s: string): boolean {
  return s.length <= MAX_STRING / 6 || jsonStringLength(s) - 2 <= MAX_STRING;
}

/** A short str as the line's string (null for None); GIVE_UP for a long text or another type. */
function shortText(v: unknown): string | null | typeof GIVE_UP {
  if (v === null) return null;
  if (typeof v === 'string' && isShort(v)) return v;
  return GIVE_UP;
}

/** `loss_mask` under the 'sum' rule (present, not None), as `effectiveLength` reads it. */
function maskSum(mask: unknown): number | null | typeof GIVE_UP {
  if (mask instanceof PyList || mask instanceof PyTuple) {
    // A summarised list is `{"$numbers": n, "$sum": s}` in the line (no `$sum` when not known).
    if (mask instanceof PyList && mask.summarized) return countedSum(mask);
    let sum = 0;
    for (const x of mask.items) {
      if (typeof x === 'bigint') return GIVE_UP;
      const n = numberOf(x);
      if (n === GIVE_UP) return null;
      sum += n;
    }
    return sum;
  }
  if (typeof mask === 'bigint') return GIVE_UP;
  const n = numberOf(mask);
  return n === GIVE_UP ? null : n;
}

/** `weight_versions` under the 'list' rule, as the record keeps it. */
function weightVersionsOf(wv: unknown): (string | number)[] | null | typeof GIVE_UP {
  if (!(wv instanceof PyList || wv instanceof PyTuple) || (wv instanceof PyList && wv.summarized) || wv.items.length > MAX_LIST_ITEMS) return null;
  // Sized at once: a push onto an empty array reserves room for 17.
  const items = wv.items;
  const out = new Array<string | number>(items.length);
  for (let i = 0; i < items.length; i++) {
    const x = items[i];
    if (typeof x === 'string') {
      if (!isShort(x)) return null;
      out[i] = x;
    } else if (typeof x === 'bigint' || x instanceof PyText) return GIVE_UP;
    else {
      const n = numberOf(x);
      if (n === GIVE_UP) return null;
      out[i] = n;
    }
  }
  return out;
}

/** A member of `prefix_cache_info` (a dict `PtMembers` took) under the scalars rule, as `num` reads it. */
function cacheCount(info: unknown, key: string): number {
  if (!(info instanceof PyDict)) return 0;
  const n = numberOf(info.map.get(key));
  return n === GIVE_UP ? 0 : n;
}

// The codes of the reading kinds `PtMembers.member` switches on (0: no reader here).
const GROUP_KEY = 1;
const INTEGER = 2;
const REWARD_NUMBER = 3;
const STATUS_TEXT = 4;
const SHORT_TEXT = 5;
const ID = 6;
const TABLE = 7;
const PROMPT_HASH = 8;
const SUM = 9;
const LIST = 10;
const SCALARS = 11;
const TAIL = 12;
const SKIP = 13;

/** The reading kinds this path has a reader for (test/unit/formats/memberTables.test.ts holds every table member to them). */
export const PT_READERS: Readonly<Partial<Record<ReadKind, number>>> = {
  groupKey: GROUP_KEY,
  integer: INTEGER,
  reward: REWARD_NUMBER,
  status: STATUS_TEXT,
  shortText: SHORT_TEXT,
  id: ID,
  table: TABLE,
  promptHash: PROMPT_HASH,
  sum: SUM,
  list: LIST,
  scalars: SCALARS,
  tail: TAIL,
  skip: SKIP,
};

/**
 * The members of `table` in the pickled dict at hand, as the per-line path reads them from the
 * dict's line (formats/milesSample/lineMembers.ts): one reader per reading kind, each writing its
 * member's value into its slot by the member's position. A slot holds its value while the
 * member's bit is set in `valued` (present and not None; 'promptHash' and 'tail': present):
 * `numbers` ('groupKey', 'integer', 'reward'), `texts` ('status', 'shortText', 'id'), `values`
 * ('promptHash': the value; 'sum': the sum or null; 'list': the list or null, `others` the value
 * of another shape; 'scalars': the dict; 'tail': the value, then its verdict, `settleTails`).
 */
export class PtMembers {
  private readonly names: readonly string[];
  private readonly kinds: Uint8Array;
  valued = 0;
  /** 'reward' members written as an int, a bit each. */
  ints = 0;
  readonly numbers: Float64Array;
  readonly texts: (string | null)[];
  readonly values: unknown[];
  readonly others: unknown[];
  /** The members of a 'table' member's table, by position. */
  readonly nested: (PtMembers | null)[];
  /** The 'tail' members, a bit each. */
  private readonly tails: number;

  constructor(table: MemberTable) {
    this.names = table.members.map((m) => m.name);
    const n = this.names.length;
    if (n > 30) throw new Error(`${table.name}: more members than a sample's bits`);
    this.kinds = Uint8Array.from(table.members, (m) => {
      const code = m.read === undefined ? undefined : PT_READERS[m.read];
      if (code === undefined) throw new Error(`${table.name}.${m.name}: no .pt reader of kind ${m.read}`);
      return code;
    });
    this.numbers = new Float64Array(n);
    this.texts = new Array<string | null>(n).fill(null);
    this.values = new Array<unknown>(n).fill(null);
    this.others = new Array<unknown>(n).fill(undefined);
    this.nested = table.members.map((m) => (m.check !== null && typeof m.check === 'object' ? new PtMembers(m.check) : null));
    this.tails = table.members.reduce((bits, m, k) => (m.read === 'tail' ? bits | (1 << k) : bits), 0);
  }

  /** The text in member `k`'s slot, or null. */
  text(k: number): string | null {
    return (this.valued & (1 << k)) !== 0 ? this.texts[k] : null;
  }

  /** The number in member `k`'s slot, or null. */
  number(k: number): number | null {
    return (this.valued & (1 << k)) !== 0 ? this.numbers[k] : null;
  }

  /** The value in member `k`'s slot, or undefined. */
  value(k: number): unknown {
    return (this.valued & (1 << k)) !== 0 ? this.values[k] : undefined;
  }

  /** No member read (a table member absent or None). */
  clear(): void {
    this.valued = 0;
    this.ints = 0;
  }

  /** `dict`'s members into their slots; false when the line must be fed instead. */
  read(dict: PyDict): boolean {
    this.clear();
    const m = dict.map;
    if (m.size >= MAX_BUILT_SCALARS) return false;
    // A dump's samples share their keys: the members are found once for all of them.
    const at = m.positionsOf(this.names);
    for (let k = 0; k < at.length; k++) if (!this.member(k, m.valueAt(at[k]))) return false;
    return true;
  }

  /**
   * The 'tail' members' verdicts, once every member is read (so a tail handed to `jobs` is never
   * given up): a str is text (a short one has too few characters to be compressed), anything else
   * is not. A tail `jobs` took is false until the scan settles it.
   */
  settleTails(jobs: DeflateJobs | null, pending: PendingTail, measure: TailMeasure): void {
    const tails = this.tails & this.valued;
    if (tails === 0) return;
    for (let k = 0; k < this.kinds.length; k++) {
      if ((tails & (1 << k)) === 0) continue;
      const v = this.values[k];
      this.values[k] = typeof v === 'string' || v instanceof PyText ? tailVerdict(stringTail(textOfStr(v), jobs, measure), pending) : null;
    }
  }

  /** Member `k`'s value `v` (undefined: absent) into its slot, by its reading kind; false to give up. */
  private member(k: number, v: unknown): boolean {
    const bit = 1 << k;
    switch (this.kinds[k]) {
      case GROUP_KEY:
      case INTEGER: {
        if (v === undefined || v === null) return true;
        const n = numberOf(v);
        if (n === GIVE_UP || !Number.isInteger(n)) return false;
        this.numbers[k] = n;
        break;
      }
      case REWARD_NUMBER: {
        if (v === undefined || v === null) return true;
        const n = numberOf(v);
        if (n === GIVE_UP) return false;
        this.numbers[k] = n;
        if (intText(v)) this.ints |= bit;
        break;
      }
      case STATUS_TEXT:
      case SHORT_TEXT: {
        const text = shortText(v ?? null);
        if (text === GIVE_UP) return false;
        if (text === null) return true;
        if (this.kinds[k] === STATUS_TEXT && !STATUS_SET.has(text)) return false;
        this.texts[k] = text;
        break;
      }
      case ID: {
        if (v === undefined || v === null) return true;
        if (typeof v === 'string') {
          if (!isShort(v)) return false;
          this.texts[k] = v;
        } else {
          const n = numberOf(v);
          if (n === GIVE_UP || !Number.isInteger(n)) return false;
          this.texts[k] = String(n);
        }
        break;
      }
      case TABLE: {
        const nested = this.nested[k] as PtMembers;
        nested.clear();
        if (v === undefined || v === null) return true;
        if (!(v instanceof PyDict) || !nested.read(v)) return false;
        break;
      }
      case PROMPT_HASH:
      case TAIL:
        if (v === undefined) return true;
        this.values[k] = v;
        break;
      case SUM: {
        if (v === undefined || v === null) return true;
        const sum = maskSum(v);
        if (sum === GIVE_UP) return false;
        this.values[k] = sum;
        break;
      }
      case LIST: {
        if (v === undefined || v === null) return true;
        const list = weightVersionsOf(v);
        if (list === GIVE_UP) return false;
        this.values[k] = list;
        // Kept only when it is of another shape (formats/fieldShape.ts): the rare path.
        this.others[k] = list === null ? (v instanceof PyText ? '' : v) : undefined;
        break;
      }
      case SCALARS: {
        if (!(v instanceof PyDict)) return true;
        if (v.map.size >= MAX_BUILT_SCALARS) return false;
        // A big integer among its members: the line decides (the full scan keeps its literal).
        const items = v.map.valueList;
        for (let j = 0; j < items.length; j++) if (typeof items[j] === 'bigint') return false;
        this.values[k] = v;
        break;
      }
      case SKIP:
        return true;
      default:
        return false;
    }
    this.valued |= bit;
    return true;
  }
}

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

function textOfStr(v: string | PyText): string {
  if (typeof v === 'string') return v;
  if (v.text === null) throw new Error('a released text was asked for after its sample was handed on');
  return v.text;
}
