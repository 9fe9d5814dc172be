// The members of a pickled miles sample, read as the per-line path reads them from the sample's
// line (formats/milesSample/lineMembers.ts): one reader per reading kind of the member tables
// (formats/members/), each giving up (the caller feeds the line instead) wherever the line path
// would hand the line to the full scan or this reader is not sure to agree. PtSampleReader
// (ptSampleRecord.ts) builds the record and the store row from what these read.
import { tailVerdict } from '../formats/offloadedVerdicts';
import { MAX_STRING } from '../formats/rule';
import { SAMPLE_STATUSES } from '../formats/members/checks';
import type { DeflateJobs } from '../reader/deflateJobs';
import { stringTail, type TailMeasure } from '../reader/textTail';
import { MAX_BUILT_SCALARS } from '../reader/ruleParse';
import { MAX_LIST_ITEMS } from '../reader/jsonRule';

import { jsonStringLength } from '../reader/pt/lineLength';
import { countedSum, PyDict, PyFloat, PyList, PyText, PyTuple } from '../reader/pt/values';
import type { MemberTable, ReadKind } from '../formats/members/checks';
import type { PendingTail } from '../formats/offloadedVerdicts';
import {
  KIND_GROUP_KEY,
  KIND_ID,
  KIND_INTEGER,
  KIND_LIST,
  KIND_PROMPT_HASH,
  KIND_REWARD,
  KIND_SCALARS,
  KIND_SHORT_TEXT,
  KIND_SKIP,
  KIND_STATUS,
  KIND_SUM,
  KIND_TABLE,
  KIND_TAIL,
} from '../formats/members/readKinds';

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
export function cacheCount(info: unknown, key: string): number {
  if (!(info instanceof PyDict)) return 0;
  const n = numberOf(info.map.get(key));
  return n === GIVE_UP ? 0 : n;
}

/** The reading kinds this path has a reader for (test/unit/formats/memberTables.test.ts holds every table member to them). */
export const PT_READERS: Readonly<Partial<Record<ReadKind, number>>> = {
  groupKey: KIND_GROUP_KEY,
  integer: KIND_INTEGER,
  reward: KIND_REWARD,
  status: KIND_STATUS,
  shortText: KIND_SHORT_TEXT,
  id: KIND_ID,
  table: KIND_TABLE,
  promptHash: KIND_PROMPT_HASH,
  sum: KIND_SUM,
  list: KIND_LIST,
  scalars: KIND_SCALARS,
  tail: KIND_TAIL,
  skip: KIND_SKIP,
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
      case KIND_GROUP_KEY:
      case KIND_INTEGER: {
        if (v === undefined || v === null) return true;
        const n = numberOf(v);
        if (n === GIVE_UP || !Number.isInteger(n)) return false;
        this.numbers[k] = n;
        break;
      }
      case KIND_REWARD: {
        if (v === undefined || v === null) return true;
        const n = numberOf(v);
        if (n === GIVE_UP) return false;
        this.numbers[k] = n;
        if (intText(v)) this.ints |= bit;
        break;
      }
      case KIND_STATUS:
      case KIND_SHORT_TEXT: {
        const text = shortText(v ?? null);
        if (text === GIVE_UP) return false;
        if (text === null) return true;
        if (this.kinds[k] === KIND_STATUS && !STATUS_SET.has(text)) return false;
        this.texts[k] = text;
        break;
      }
      case KIND_ID: {
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
      case KIND_TABLE: {
        const nested = this.nested[k] as PtMembers;
        nested.clear();
        if (v === undefined || v === null) return true;
        if (!(v instanceof PyDict) || !nested.read(v)) return false;
        break;
      }
      case KIND_PROMPT_HASH:
      case KIND_TAIL:
        if (v === undefined) return true;
        this.values[k] = v;
        break;
      case KIND_SUM: {
        if (v === undefined || v === null) return true;
        const sum = maskSum(v);
        if (sum === GIVE_UP) return false;
        this.values[k] = sum;
        break;
      }
      case KIND_LIST: {
        if (v === undefined || v === null) return true;
        const list = weightVersionsOf(v);
        if (list === GIVE_UP) return false;
        this.values[k] = list;
        // Kept only when it is of another shape (formats/fieldShape.ts): the rare path.
        this.others[k] = list === null ? (v instanceof PyText ? '' : v) : undefined;
        break;
      }
      case KIND_SCALARS: {
        if (!(v instanceof PyDict)) return true;
        if (v.map.size >= MAX_BUILT_SCALARS) return false;
        // A big integer among its members: the line decides (the full scan keeps its literal).
        const items = v.map.valueList;
        for (let j = 0; j < items.length; j++) if (typeof items[j] === 'bigint') return false;
        this.values[k] = v;
        break;
      }
      case KIND_SKIP:
        return true;
      default:
        return false;
    }
    this.valued |= bit;
    return true;
  }
}

export function textOfStr(v: string | PyText): string {
  if (typeof v === 'string') return v;
  if (v.text === null) throw new Error('a released text was asked for after its sample was handed on');
  return v.text;
}
