// A miles sample's record straight from the pickled dict (docs/pt.md, "Records without lines"):
// the record the per-line path (formats/milesLine.ts) reads from the sample's JSON line
// (serialize.ts `sampleLine`), without writing the line and scanning it again. It reads the same
// members with the same rules, value by value: numbers with Python's int-vs-float reading as the
// line would show them, short strings, the prompt's hash over its JSON text, the line's byte
// length. Wherever the per-line path would hand the line to the full scan (a value of a type its
// fast validation refuses, an object reward, a member past the scanner's limits) or this reader
// is not sure to agree (big integers, long texts where short strings are wanted), it returns null
// and the caller feeds the line as before; test/unit/pt/direct.test.ts holds the two paths equal.
import { pendingTail, tailVerdict } from '../../formats/offloadedVerdicts';
import { MAX_STRING } from '../../formats/rule';
import { STATUSES } from '../../formats/schemas';
import type { SampleRecord, SampleStatus } from '../../types';
import type { DeflateJobs } from '../deflateJobs';
import { hashBytes } from '../hash';
import { stringTail } from '../textTail';
import { MAX_BUILT_SCALARS } from '../scanJson';
import { MAX_LIST_ITEMS } from '../jsonRule';

import { jsonStringLength, sampleLineLength } from './lineLength';
import { stringify, toPlain } from './serialize';
import { PyDict, PyFloat, PyList, PyText, PyTuple } from './values';
import { datasetInOrder } from '../../formats/context';
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
} from '../../formats/milesMembers';

const STATUS_SET: ReadonlySet<string> = new Set<string>(STATUSES);

/** Not read here: the caller feeds the sample's line instead. */
const GIVE_UP = Symbol('give up');

/**
 * A number as its line shows it, read back: the value, or GIVE_UP for what the line would not
 * show as a plain number here (big integers, and every non-number). `intText`: whether Python
 * reads the line's literal as an int.
 */
let intText = false;
function numberOf(v: unknown): number | typeof GIVE_UP {
  if (typeof v === 'number') {
    // Integral plain numbers are Python ints (integral floats are PyFloat): written as digits.
    intText = Number.isInteger(v) && Math.abs(v) < 1e21;
    return v;
  }
  if (v instanceof PyFloat) {
    intText = false;
    return v.value;
  }
  return GIVE_UP;
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

const encoder = new TextEncoder();
let hashBuffer = new Uint8Array(1 << 12);

/** `hashBytes` over the JSON text of `v`, a member of `sample`, as the sample's line holds it. */
function jsonHash(v: unknown, sample: PyDict): string {
  const json = typeof v === 'string' ? JSON.stringify(v) : v instanceof PyText ? JSON.stringify(textOfStr(v)) : stringify(toPlain(v, 'line', sample));
  if (hashBuffer.length < json.length * 3) hashBuffer = new Uint8Array(json.length * 3);
  const { written } = encoder.encodeInto(json, hashBuffer);
  return hashBytes(hashBuffer, 0, written);
}

/** The last prompt (or label) hashed: a group's samples read theirs back from the memo. */
let lastHashed: unknown = undefined;
let lastHash = '';

function promptHash(v: unknown, sample: PyDict): string {
  // Only immutable values: a text's bytes never change (a dict or list might, in a hostile pickle).
  const immutable = typeof v === 'string' || v instanceof PyText;
  if (immutable && v === lastHashed) return lastHash;
  const h = jsonHash(v, sample);
  if (immutable) {
    lastHashed = v;
    lastHash = h;
  }
  return h;
}

/** `loss_mask` under the 'sum' rule, as `effectiveLength` reads it. */
function effectiveLength(mask: unknown, responseLength: number | null): number | null | typeof GIVE_UP {
  if (mask === undefined || mask === null) return responseLength;
  if (mask instanceof PyList || mask instanceof PyTuple) {
    // A summarised list is `{"$numbers": n}` in the line: not an array, so not summed.
    if (mask instanceof PyList && mask.summarized) return null;
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
 * The record of sample `index` (line `index + 1`) as the per-line path reads its line, or null
 * when the line must be fed instead. With `jobs`, a long response's tail may be compressed
 * elsewhere (formats/offloadedVerdicts.ts `pendingTail`), for the collector to settle.
 */
export function ptSampleRecord(value: unknown, index: number, jobs: DeflateJobs | null = null): SampleRecord | null {
  if (!(value instanceof PyDict) || value.map.size >= MAX_BUILT_SCALARS) return null;
  const m = value.map;
  // A dump's samples share their keys: the members are found once for all of them.
  const at = m.positionsOf(SAMPLE_MEMBERS);
  let groupKey: string | null = null;
  const g = m.valueAt(at[GROUP_INDEX]);
  if (g !== undefined && g !== null) {
    const n = numberOf(g);
    if (n === GIVE_UP || !Number.isInteger(n)) return null;
    groupKey = String(n);
  }
  const sampleIndex = integerOf(m.valueAt(at[INDEX]));
  const step = integerOf(m.valueAt(at[ROLLOUT_ID]));
  const responseLength = integerOf(m.valueAt(at[RESPONSE_LENGTH]));
  if (sampleIndex === GIVE_UP || step === GIVE_UP || responseLength === GIVE_UP) return null;
  let reward: number | null = null;
  let rewardIsInt = false;
  const r = m.valueAt(at[REWARD]);
  if (r !== undefined && r !== null) {
    const n = numberOf(r);
    if (n === GIVE_UP) return null;
    reward = n;
    rewardIsInt = intText;
  }
  const status = shortText(m.valueAt(at[STATUS]) ?? null);
  if (status === GIVE_UP || (status !== null && !STATUS_SET.has(status))) return null;
  const dataset = shortText(m.valueAt(at[DATASET]) ?? null);
  const dataSource = shortText(m.valueAt(at[DATA_SOURCE]) ?? null);
  if (dataset === GIVE_UP || dataSource === GIVE_UP) return null;
  let exitStatus: string | null = null;
  let metaDataset: string | null = null;
  let metaDatasetName: string | null = null;
  let instance: string | null = null;
  const meta = m.valueAt(at[METADATA]);
  if (meta !== undefined && meta !== null) {
    if (!(meta instanceof PyDict) || meta.map.size >= MAX_BUILT_SCALARS) return null;
    const metaAt = meta.map.positionsOf(METADATA_MEMBERS);
    const e = shortText(meta.map.valueAt(metaAt[EXIT_STATUS]) ?? null);
    const d = shortText(meta.map.valueAt(metaAt[METADATA_DATASET]) ?? null);
    const dn = shortText(meta.map.valueAt(metaAt[DATASET_NAME]) ?? null);
    if (e === GIVE_UP || d === GIVE_UP || dn === GIVE_UP) return null;
    exitStatus = e;
    metaDataset = d;
    metaDatasetName = dn;
    const id = meta.map.valueAt(metaAt[INSTANCE_ID]);
    if (id !== undefined && id !== null) {
      if (typeof id === 'string') {
        if (!isShort(id)) return null;
        instance = id;
      } else {
        const n = numberOf(id);
        if (n === GIVE_UP || !Number.isInteger(n)) return null;
        instance = String(n);
      }
    }
  }
  const prompt = m.valueAt(at[PROMPT]);
  const label = m.valueAt(at[LABEL]);
  const mask = effectiveLength(m.valueAt(at[LOSS_MASK]), responseLength);
  const wv = at[WEIGHT_VERSIONS] >= 0 ? weightVersionsOf(m.valueAt(at[WEIGHT_VERSIONS])) : null;
  const info = m.valueAt(at[PREFIX_CACHE_INFO]);
  const cached = cacheCount(info, 'cached_tokens');
  const total = cacheCount(info, 'total_prompt_tokens');
  if (mask === GIVE_UP || wv === GIVE_UP || cached === GIVE_UP || total === GIVE_UP) return null;
  const response = m.valueAt(at[RESPONSE]);
  // As the per-line path reads the line: a str is text (a short one has too few characters to be
  // compressed), anything else is not. A tail `jobs` took is false until the scan settles it.
  pendingTail.ticket = -1;
  const repetition =
    response === undefined ? false : typeof response === 'string' || response instanceof PyText ? tailVerdict(stringTail(textOfStr(response), jobs)) : null;
  const sample: SampleRecord = {
    line: index + 1,
    offset: index,
    byteLength: sampleLineLength(value),
    groupKey,
    index: sampleIndex,
    dataset: datasetInOrder(dataset, metaDataset, metaDatasetName, dataSource),
    promptKey: prompt !== undefined ? promptHash(prompt, value) : (instance ?? (label !== undefined ? promptHash(label, value) : null)),
    status: status as SampleStatus | null,
    aborted: status === 'aborted',
    reward,
    rewardIsInt,
    cause: exitStatus === '' ? null : exitStatus,
    responseLength,
    step,
  };
  sample.miles = {
    effectiveLength: mask,
    weightVersions: wv,
    cachedTokens: cached,
    totalPromptTokens: total,
    repetition,
  };
  return sample;
}

function textOfStr(v: string | PyText): string {
  if (typeof v === 'string') return v;
  if (v.text === null) throw new Error('a released text was asked for after its sample was handed on');
  return v.text;
}
