// The members of one member table (formats/members/miles.ts: MILES_SAMPLE, and MILES_METADATA under
// its `metadata`) as the per-line path (line.ts) reads them from a line's bytes: one reader per
// reading kind (`ReadKind`), each writing the member's value into its slot (by the member's
// position in the table). line.ts makes the record from the slots by the format's rules.
import type { DeflateJobs } from '../../reader/deflateJobs';
import type { Child, Rule } from '../../reader/jsonRule';
import { readNumber, readNumberAt, type NumberRead, skipNumberAt } from '../../reader/jsonNumber';
import { skipString, skipValue } from '../../reader/jsonSkip';
import { KeyTable, malformed, NO_LEAD, RecentTexts, skipWs, WS } from '../../reader/keyTable';
import { RepeatedValue } from '../../reader/repeatedValue';
import { MAX_BUILT_SCALARS, RuleParser, stringText } from '../../reader/ruleParse';
import { TailMeasure, textTail } from '../../reader/textTail';

import type { MemberTable, ReadKind } from '../members/checks';
import { SAMPLE_STATUSES } from '../members/checks';
import { noPendingTail, type PendingTail, tailVerdict } from '../offloadedVerdicts';
import { MAX_STRING } from '../rule';
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
} from '../members/readKinds';

const QUOTE = 0x22;

const STATUS_SET: ReadonlySet<string> = new Set<string>(SAMPLE_STATUSES);

/** The reading kinds this path has a reader for (test/unit/formats/memberTables.test.ts holds every table member to them). */
export const LINE_READERS: Readonly<Partial<Record<ReadKind, number>>> = {
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

/** Where a long response's tail goes (shared by a line's tables): the scan's jobs, or null (here). */
export interface LineTails {
  jobs: DeflateJobs | null;
  readonly pending: PendingTail;
  /** What measuring a tail here keeps between calls. */
  readonly measure: TailMeasure;
}

export function lineTails(): LineTails {
  return { jobs: null, pending: noPendingTail(), measure: new TailMeasure() };
}

/**
 * The members of `table` on the line at hand (one per table per file: its key table learns the
 * file's key order). A slot holds its member's value while the member's bit is set in `valued`
 * (present and not null, but for 'promptHash' and 'tail', where null is a value too):
 * - `numbers`: 'groupKey' (when its literal is not kept), 'integer', 'reward';
 * - `texts`: 'groupKey' (the int literal's text), 'status', 'shortText', 'id';
 * - `starts`/`ends`: 'promptHash' (the value's bytes, hashed only if it keys the prompt);
 * - `values`: 'sum', 'list', 'scalars' (as the full scan builds them), 'tail' (the repetition verdict).
 */
export class LineMembers {
  readonly keys: KeyTable;
  /** The reading kind's code of each member. */
  private readonly kinds: Uint8Array;
  /** The members seen on this line, a bit each (a repeated one goes to the full path). */
  private seen = 0;
  valued = 0;
  /** 'reward' members written as an int, a bit each. */
  ints = 0;
  readonly numbers: Float64Array;
  readonly texts: (string | null)[];
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly values: unknown[];
  /** Short string values by member: few distinct ones. */
  private readonly recent: RecentTexts[];
  /** The last value read whole by member ('list', 'scalars'), with its bytes. */
  private readonly repeated: RepeatedValue[];
  /** The scan's rule for each member ('sum', 'list', 'scalars'). */
  private readonly rules: (Child | undefined)[];
  /** The members of a 'table' member's table, by position. */
  readonly nested: (LineMembers | null)[];
  /** The same, without the other members. */
  private readonly tables: LineMembers[];
  private readonly facts: NumberRead = { isInt: false, literal: null, value: 0 };
  constructor(
    table: MemberTable,
    rule: Rule | undefined,
    private readonly tails: LineTails,
    /** Builds the members the full scan builds ('sum', 'list', 'scalars'), as it builds them; a nested table's members share their line's. */
    private readonly parser = new RuleParser(),
  ) {
    const names = table.members.map((m) => m.name);
    const n = names.length;
    if (n > 30) throw new Error(`${table.name}: more members than a line's bits`);
    this.keys = new KeyTable(names);
    this.kinds = Uint8Array.from(table.members, (m) => {
      const code = m.read === undefined ? undefined : LINE_READERS[m.read];
      if (code === undefined) throw new Error(`${table.name}.${m.name}: no per-line reader of kind ${m.read}`);
      return code;
    });
    this.numbers = new Float64Array(n);
    this.texts = new Array<string | null>(n).fill(null);
    this.starts = new Int32Array(n);
    this.ends = new Int32Array(n);
    this.values = new Array<unknown>(n).fill(null);
    this.recent = Array.from({ length: n }, () => new RecentTexts());
    this.repeated = Array.from({ length: n }, () => new RepeatedValue());
    this.rules = names.map((name) => rule?.children?.get(name));
    this.nested = table.members.map((m, k) => {
      if (m.check === null || typeof m.check !== 'object') return null;
      const child = this.rules[k];
      return new LineMembers(m.check, typeof child === 'object' ? child : undefined, tails, parser);
    });
    this.tables = this.nested.filter((t) => t !== null);
  }

  /** Forgets the last line's members (and those of its nested tables). */
  reset(): void {
    this.seen = 0;
    this.valued = 0;
    this.ints = 0;
    const tables = this.tables;
    for (let t = 0; t < tables.length; t++) tables[t].reset();
  }

  /** The text in member `k`'s slot, or null. */
  text(k: number): string | null {
    return (this.valued & (1 << k)) !== 0 ? this.texts[k] : null;
  }

  /** The number in member `k`'s slot, or null. */
  number(k: number): number | null {
    return (this.valued & (1 << k)) !== 0 ? this.numbers[k] : null;
  }

  /** `i` at `{`: the index after the object, or -1 to fall back. */
  object(b: Uint8Array, i: number, e: number): number {
    const table = this.keys;
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
        // A repeated key: Python's json keeps the last one; the full path decides.
        const bit = 1 << field;
        if ((this.seen & bit) !== 0) return -1;
        this.seen |= bit;
        i = this.member(field, b, i, e);
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

  /** Member `k`'s value at `i` into its slot, by its reading kind: the index after it, or -1 to fall back. */
  private member(k: number, b: Uint8Array, i: number, e: number): number {
    const c = b[i];
    const bit = 1 << k;
    switch (this.kinds[k]) {
      case KIND_GROUP_KEY: {
        if (c === 0x6e) return skipValue(b, i, e);
        const facts = this.facts;
        const end = readNumberAt(b, i, e, facts);
        const v = facts.value;
        if (!Number.isInteger(v)) return -1;
        // `groupKeyText`: the int's literal (`-0` is Python's int 0), else the number's text, which the
        // store's key table takes as the number itself (`groupKeyText` makes it when needed).
        this.texts[k] = facts.isInt && facts.literal !== null ? (facts.literal === '-0' ? '0' : facts.literal) : null;
        this.numbers[k] = v;
        this.valued |= bit;
        return end;
      }
      case KIND_INTEGER: {
        if (c === 0x6e) return skipValue(b, i, e);
        const end = readNumberAt(b, i, e, this.facts);
        const v = this.facts.value;
        if (!Number.isInteger(v)) return -1;
        this.numbers[k] = v;
        this.valued |= bit;
        return end;
      }
      case KIND_REWARD: {
        if (c === 0x6e) return skipValue(b, i, e);
        const end = readNumberAt(b, i, e, this.facts);
        this.numbers[k] = this.facts.value;
        if (this.facts.isInt) this.ints |= bit;
        this.valued |= bit;
        return end;
      }
      case KIND_STATUS:
      case KIND_SHORT_TEXT: {
        const kind = this.kinds[k];
        if (c === 0x6e) return skipValue(b, i, e);
        if (c !== QUOTE) return -1;
        const recent = this.recent[k];
        let text = recent.repeated(b, i, e);
        let end = recent.end;
        if (text === null) {
          end = skipString(b, i, e);
          if (end - i - 2 > MAX_STRING) return -1;
          text = recent.text(b, i, end);
        }
        if (kind === KIND_STATUS && !STATUS_SET.has(text)) return -1;
        this.texts[k] = text;
        this.valued |= bit;
        return end;
      }
      case KIND_ID: {
        if (c === 0x6e) return skipValue(b, i, e);
        let end: number;
        if (c !== QUOTE) {
          end = skipNumberAt(b, i, e);
          const v = readNumber(b, i, end, this.facts);
          if (!Number.isInteger(v)) return -1;
          this.texts[k] = String(v);
        } else {
          end = skipString(b, i, e);
          if (end - i - 2 > MAX_STRING) return -1;
          // Ids are mostly unique: not looked for among the recent ones.
          this.texts[k] = stringText(b, i, end);
        }
        this.valued |= bit;
        return end;
      }
      case KIND_TABLE: {
        if (c === 0x6e) return skipValue(b, i, e);
        if (c !== 0x7b) return -1;
        this.valued |= bit;
        return (this.nested[k] as LineMembers).object(b, i, e);
      }
      case KIND_PROMPT_HASH: {
        const end = skipValue(b, i, e);
        this.starts[k] = i;
        this.ends[k] = end;
        this.valued |= bit;
        return end;
      }
      case KIND_SUM: {
        const end = this.built(k, b, i, e);
        if (this.values[k] !== null) this.valued |= bit;
        return end;
      }
      case KIND_LIST:
      case KIND_SCALARS: {
        // The same value handed on while its bytes repeat (`{}` on most lines; the store's
        // `listId` then knows a list at once).
        const repeated = this.repeated[k];
        let end = repeated.endIfSame(b, i, e);
        if (end >= 0) this.values[k] = repeated.value;
        else {
          end = this.built(k, b, i, e);
          const v = this.values[k];
          if (this.kinds[k] === KIND_SCALARS || Array.isArray(v)) repeated.keep(b, i, end, v);
        }
        if (this.values[k] !== null) this.valued |= bit;
        return end;
      }
      case KIND_TAIL: {
        // As `repetitionOf` reads the value the full scan builds under the 'tail' rule: a string
        // of up to MAX_STRING bytes has too few characters to be compressed (False); a longer one
        // keeps its tail; any other value is not text (null).
        this.valued |= bit;
        if (c !== QUOTE) {
          this.values[k] = null;
          return skipValue(b, i, e);
        }
        const end = skipString(b, i, e);
        this.values[k] = end - i - 2 <= MAX_STRING ? false : tailVerdict(textTail(b, i + 1, end - 1, this.tails.jobs, this.tails.measure), this.tails.pending);
        return end;
      }
      case KIND_SKIP:
        return skipValue(b, i, e);
      default:
        return -1;
    }
  }

  /** Member `k`'s value as the full scan builds it under its rule, into its slot: the index after it. */
  private built(k: number, b: Uint8Array, i: number, e: number): number {
    this.values[k] = this.parser.member(b, i, e, this.rules[k], MAX_STRING);
    return this.parser.end;
  }
}
