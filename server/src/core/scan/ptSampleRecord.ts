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
  METADATA_MEMBERS,
  PREFIX_CACHE_INFO,
  PROMPT,
  RESPONSE,
  RESPONSE_LENGTH,
  REWARD,
  ROLLOUT_ID,
  SAMPLE_MEMBERS,
  STATUS,
  WEIGHT_VERSIONS,
} from '../formats/members/miles';

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

/** An integer member (`index`, `rollout_id`, `response_length`): null for None or absent. */
function integerOf(v: unknown): number | null | typeof GIVE_UP {
  if (v === undefined || v === null) return null;
  const n = numberOf(v);
  return n === GIVE_UP || !Number.isInteger(n) ? GIVE_UP : n;
}

/** A short str as the line's string (null for None); GIVE_UP for a long text or another type. */
function shortText(v: unknown): string | null | typeof GIVE_UP {
  if (v === null) return null;
  if (typeof v === 'string' && isShort(v)) return v;
  return GIVE_UP;
}

/** `loss_mask` under the 'sum' rule, as `effectiveLength` reads it. */
function effectiveLength(mask: unknown, responseLength: number | null): number | null | typeof GIVE_UP {
  if (mask === undefined || mask === null) return responseLength;
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

/** A member of `prefix_cache_info` under the scalars rule, as `num` reads it. */
function cacheCount(info: unknown, key: string): number | typeof GIVE_UP {
  if (!(info instanceof PyDict)) return 0;
  if (info.map.size >= MAX_BUILT_SCALARS) return GIVE_UP;
  const v = info.map.get(key);
  if (typeof v === 'bigint') return GIVE_UP;
  const n = numberOf(v);
  return n === GIVE_UP ? 0 : n;
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
   * (formats/offloadedVerdicts.ts `pendingTail`), for the collector to settle.
   */
  private read(value: unknown, jobs: DeflateJobs | null): boolean {
    const got = this.got;
    if (!(value instanceof PyDict) || value.map.size >= MAX_BUILT_SCALARS) return false;
    const m = value.map;
    // A dump's samples share their keys: the members are found once for all of them.
    const at = m.positionsOf(SAMPLE_MEMBERS);
    got.group = NaN;
    const g = m.valueAt(at[GROUP_INDEX]);
    if (g !== undefined && g !== null) {
      const n = numberOf(g);
      if (n === GIVE_UP || !Number.isInteger(n)) return false;
      got.group = n;
    }
    const sampleIndex = integerOf(m.valueAt(at[INDEX]));
    const rolloutId = integerOf(m.valueAt(at[ROLLOUT_ID]));
    const responseLength = integerOf(m.valueAt(at[RESPONSE_LENGTH]));
    if (sampleIndex === GIVE_UP || rolloutId === GIVE_UP || responseLength === GIVE_UP) return false;
    got.index = sampleIndex;
    got.rolloutId = rolloutId;
    got.responseLength = responseLength;
    got.reward = null;
    got.rewardIsInt = false;
    const r = m.valueAt(at[REWARD]);
    if (r !== undefined && r !== null) {
      const n = numberOf(r);
      if (n === GIVE_UP) return false;
      got.reward = n;
      got.rewardIsInt = intText(r);
    }
    const status = shortText(m.valueAt(at[STATUS]) ?? null);
    if (status === GIVE_UP || (status !== null && !STATUS_SET.has(status))) return false;
    got.status = status as SampleStatus | null;
    const dataset = shortText(m.valueAt(at[DATASET]) ?? null);
    const dataSource = shortText(m.valueAt(at[DATA_SOURCE]) ?? null);
    if (dataset === GIVE_UP || dataSource === GIVE_UP) return false;
    let exitStatus: string | null = null;
    let metaDataset: string | null = null;
    let metaDatasetName: string | null = null;
    let instance: string | null = null;
    const meta = m.valueAt(at[METADATA]);
    if (meta !== undefined && meta !== null) {
      if (!(meta instanceof PyDict) || meta.map.size >= MAX_BUILT_SCALARS) return false;
      const metaAt = meta.map.positionsOf(METADATA_MEMBERS);
      const e = shortText(meta.map.valueAt(metaAt[EXIT_STATUS]) ?? null);
      const d = shortText(meta.map.valueAt(metaAt[METADATA_DATASET]) ?? null);
      const dn = shortText(meta.map.valueAt(metaAt[DATASET_NAME]) ?? null);
      if (e === GIVE_UP || d === GIVE_UP || dn === GIVE_UP) return false;
      exitStatus = e;
      metaDataset = d;
      metaDatasetName = dn;
      const id = meta.map.valueAt(metaAt[INSTANCE_ID]);
      if (id !== undefined && id !== null) {
        if (typeof id === 'string') {
          if (!isShort(id)) return false;
          instance = id;
        } else {
          const n = numberOf(id);
          if (n === GIVE_UP || !Number.isInteger(n)) return false;
          instance = String(n);
        }
      }
    }
    got.dataset = datasetInOrder(dataset, metaDataset, metaDatasetName, dataSource);
    got.cause = exitStatus === '' ? null : exitStatus;
    const prompt = m.valueAt(at[PROMPT]);
    const label = m.valueAt(at[LABEL]);
    const mask = effectiveLength(m.valueAt(at[LOSS_MASK]), responseLength);
    const wvValue = at[WEIGHT_VERSIONS] >= 0 ? m.valueAt(at[WEIGHT_VERSIONS]) : undefined;
    const wv = wvValue !== undefined ? weightVersionsOf(wvValue) : null;
    // Kept only when it is of another shape (formats/fieldShape.ts): the rare path.
    got.oddVersions = wv === null && wvValue !== undefined && wvValue !== null ? (wvValue instanceof PyText ? '' : wvValue) : undefined;
    const info = m.valueAt(at[PREFIX_CACHE_INFO]);
    const cached = cacheCount(info, 'cached_tokens');
    const total = cacheCount(info, 'total_prompt_tokens');
    if (mask === GIVE_UP || wv === GIVE_UP || cached === GIVE_UP || total === GIVE_UP) return false;
    got.effectiveLength = mask;
    got.weightVersions = wv;
    got.cachedTokens = cached;
    got.totalPromptTokens = total;
    const response = m.valueAt(at[RESPONSE]);
    // As the per-line path reads the line: a str is text (a short one has too few characters to be
    // compressed), anything else is not. A tail `jobs` took is false until the scan settles it.
    this.pending.ticket = -1;
    got.repetition =
      response === undefined
        ? false
        : typeof response === 'string' || response instanceof PyText
          ? tailVerdict(stringTail(textOfStr(response), jobs, this.tails), this.pending)
          : null;
    got.byteLength = this.lineLengths.of(value);
    got.instance = instance;
    if (prompt !== undefined) {
      this.promptHash(prompt, value, this.promptWords);
      got.prompt = 'hash';
    } else if (instance !== null) got.prompt = 'instance';
    else if (label !== undefined) {
      this.promptHash(label, value, this.promptWords);
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
