// The read side of the sample store (core/store/sampleStore.ts writes it): one file's samples in columns
// of typed arrays in fixed-size chunks, keys interned in string tables. Readers take one field of
// one row in place (the rollout analysis, the miles metrics, the run view) or a whole record (`at`).
import type { KeyedReward, MilesSampleFields, SampleRecord, SampleStatus } from '../vocabulary/types';
import { type Chunk, CHUNK, CHUNK_BITS, MASK, STATUS_OF_CODE } from './chunk';
import * as Flag from './rowFlags';
import { type IntField, IntOverflow } from './intOverflow';
import { StringTable } from './stringTable';

/** One row's miles fields as the sample metrics read them (filled by `SampleColumns.milesAt`). */
export interface MilesRow {
  effectiveLength: number | null;
  /** Id of the row's `weight_versions` list (`SampleColumns.weightVersionList`); -1: null. */
  weightVersions: number;
  cachedTokens: number;
  totalPromptTokens: number;
  repetition: boolean | null | string;
}

/** `groupTally`'s counts, by group id (`groupKeys.size`: the rows without a group key). */
export interface GroupTally {
  sizes: Int32Array;
  /** Rewards `== 1` (a missing reward is not). */
  ones: Int32Array;
  /** The ids of the groups that have rows, in order of first appearance. */
  order: Int32Array;
}

/** The optional record fields kept beside the columns, for the rows that have any. */
export type Extras = Pick<SampleRecord, 'vars' | 'session' | 'output' | 'zeroStdReward'>;

/**
 * Samples of one file in append order, read by row. Group keys have their own table, so a group's
 * id is its first-appearance ordinal; prompt keys have one, datasets and causes share one.
 */
export abstract class SampleColumns {
  protected chunks: Chunk[] = [];
  protected count = 0;
  /** Group keys by first appearance. */
  groupKeys: StringTable;
  /** Prompt keys. */
  strings: StringTable;
  /** Datasets and causes (few: their columns hold a byte while ids stay below 255). */
  labels: StringTable;
  /** Values an Int32 column cannot hold (null, fractions, beyond int32), by row. */
  protected overflow = new IntOverflow();
  /** Distinct `weight_versions` lists (rows mostly share one), by id. */
  protected versionLists: (string | number)[][] = [];
  /** miles `repetition` verdicts other than true/false (null, an exception), by row: rare. */
  protected repetitionOther = new Map<number, string | null>();
  /** The optional fields `vars`, `session`, `output` (verl), `zeroStdReward` (miles) of the rows that have any, as given. */
  protected vars = new Map<number, Extras>();
  /** Rows with a `zeroStdReward` (eval files read with their own reward key). */
  protected zeroStdRewards = 0;

  constructor(groupKeys = new StringTable(), strings = new StringTable(), labels = new StringTable()) {
    this.groupKeys = groupKeys;
    this.strings = strings;
    this.labels = labels;
  }

  get length(): number {
    return this.count;
  }

  /**
   * Row `i`'s miles fields into `out` (no record built); false when the row has none. Prompt-cache
   * counts and effective lengths beyond int32 come from the overflow maps.
   */
  milesAt(i: number, out: MilesRow): boolean {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    const flags = c.flags[j];
    if ((flags & Flag.MILES) === 0) return false;
    out.effectiveLength =
      flags & Flag.LEN_RESPONSE
        ? this.getInt(c.responseLength, j, i, 'responseLength')
        : flags & Flag.LEN_NULL
          ? null
          : this.getInt(c.effectiveLength as Int32Array, j, i, 'effectiveLength');
    out.weightVersions = c.weightVersions ? c.weightVersions[j] - 1 : -1;
    out.cachedTokens = c.cachedTokens ? (this.getInt(c.cachedTokens, j, i, 'cachedTokens') as number) : 0;
    out.totalPromptTokens = c.totalPromptTokens ? (this.getInt(c.totalPromptTokens, j, i, 'totalPromptTokens') as number) : 0;
    out.repetition = flags & Flag.REP_TRUE ? true : flags & Flag.REP_OTHER ? (this.repetitionOther.get(i) as string | null) : false;
    return true;
  }

  /** The `weight_versions` list of id `id` (from `milesAt`), as first given. */
  weightVersionList(id: number): (string | number)[] {
    return this.versionLists[id];
  }

  statusAt(i: number): SampleStatus | null {
    return STATUS_OF_CODE[this.chunks[i >>> CHUNK_BITS].status[i & MASK]];
  }

  rewardAt(i: number): number | null {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return (c.flags[j] & Flag.HAS_REWARD) !== 0 ? c.reward[j] : null;
  }

  /**
   * Whether rows `i` and `k` have equal rewards as Python's `==` has them: null equals null, NaN
   * equals nothing (not even itself), -0 equals 0. Read in place, without boxing the numbers.
   */
  sameReward(i: number, k: number): boolean {
    const a = this.chunks[i >>> CHUNK_BITS];
    const b = this.chunks[k >>> CHUNK_BITS];
    const ia = i & MASK;
    const kb = k & MASK;
    const fa = a.flags[ia] & Flag.HAS_REWARD;
    if (fa !== (b.flags[kb] & Flag.HAS_REWARD)) return false;
    return fa === 0 || a.reward[ia] === b.reward[kb];
  }

  rewardIsIntAt(i: number): boolean {
    return (this.chunks[i >>> CHUNK_BITS].flags[i & MASK] & Flag.REWARD_INT) !== 0;
  }

  /** Row `i`'s reward was a Python bool (it prints as `True` / `False`). */
  rewardIsBoolAt(i: number): boolean {
    return (this.chunks[i >>> CHUNK_BITS].flags[i & MASK] & Flag.REWARD_BOOL) !== 0;
  }

  abortedAt(i: number): boolean {
    return (this.chunks[i >>> CHUNK_BITS].flags[i & MASK] & Flag.ABORTED) !== 0;
  }

  /** The value of the Int32 code at `j` of `col`, column `field` of row `row`. */
  private getInt(col: Int32Array, j: number, row: number, field: IntField): number | null {
    return this.overflow.value(col[j], row, field);
  }

  private stepOf(c: Chunk, j: number, row: number): number | null {
    return this.overflow.value(c.step !== null ? c.step[j] : c.stepFirst, row, 'step');
  }

  offsetAt(i: number): number {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    if (c.wideOffset !== null) return c.wideOffset[j];
    return c.offsetBase + (c.offsetDelta === null ? j : c.offsetDelta[j]);
  }

  byteLengthAt(i: number): number {
    return this.chunks[i >>> CHUNK_BITS].byteLength[i & MASK];
  }

  /** Row `i`'s group key as text; null: none. */
  groupKeyAt(i: number): string | null {
    return this.groupKeys.value(this.groupId(i));
  }

  /** Row `i`'s prompt key as text; null: none. */
  promptKeyAt(i: number): string | null {
    return this.strings.value(this.promptIdAt(i));
  }

  /** Row `i`'s cause; null: none. */
  causeAt(i: number): string | null {
    return this.causeOfCode(this.causeCodeAt(i));
  }

  /** The cause a cause code (`causeCodeAt`) stands for; null: none. */
  causeOfCode(code: number): string | null {
    return this.labels.value(code - 1);
  }

  datasetAt(i: number): string | null {
    return this.labels.value(this.chunks[i >>> CHUNK_BITS].dataset[i & MASK] - 1);
  }

  responseLengthAt(i: number): number | null {
    return this.getInt(this.chunks[i >>> CHUNK_BITS].responseLength, i & MASK, i, 'responseLength');
  }

  /** Row `i`'s optional fields `vars`, `session`, `output` (verl), as given; undefined: none. */
  extrasAt(i: number): Extras | undefined {
    return this.vars.size === 0 ? undefined : this.vars.get(i);
  }

  /** Row `i`'s miles fields as a record holds them (`SampleRecord.miles`); undefined: none. */
  milesFieldsAt(i: number): MilesSampleFields | undefined {
    const m: MilesRow = { effectiveLength: null, weightVersions: -1, cachedTokens: 0, totalPromptTokens: 0, repetition: false };
    if (!this.milesAt(i, m)) return undefined;
    return {
      effectiveLength: m.effectiveLength,
      weightVersions: m.weightVersions < 0 ? null : this.versionLists[m.weightVersions],
      cachedTokens: m.cachedTokens,
      totalPromptTokens: m.totalPromptTokens,
      repetition: m.repetition,
    };
  }

  /** Row `i` as a fresh record (equal to the one pushed). */
  at(i: number): SampleRecord {
    if (i < 0 || i >= this.count) throw new RangeError(`sample ${i} of ${this.count}`);
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    const flags = c.flags[j];
    const out: SampleRecord = {
      line: this.lineAt(i),
      offset: this.offsetAt(i),
      byteLength: c.byteLength[j],
      groupKey: this.groupKeys.value(c.groupKey[j]),
      index: this.indexAt(i),
      dataset: this.datasetAt(i),
      promptKey: this.strings.value(c.promptKey[j]),
      status: STATUS_OF_CODE[c.status[j]],
      aborted: (flags & Flag.ABORTED) !== 0,
      reward: (flags & Flag.HAS_REWARD) !== 0 ? c.reward[j] : null,
      rewardIsInt: (flags & Flag.REWARD_INT) !== 0,
      cause: this.causeAt(i),
      responseLength: this.getInt(c.responseLength, j, i, 'responseLength'),
      step: this.stepOf(c, j, i),
    };
    const rolloutId = this.rolloutIdAt(i);
    if (rolloutId !== null) out.rolloutId = rolloutId;
    if ((flags & Flag.REWARD_BOOL) !== 0) out.rewardIsBool = true;
    const extras = this.vars.get(i);
    if (extras !== undefined) {
      if (extras.vars !== undefined) out.vars = extras.vars;
      if (extras.session !== undefined) out.session = extras.session;
      if (extras.output !== undefined) out.output = extras.output;
      if (extras.zeroStdReward !== undefined) out.zeroStdReward = extras.zeroStdReward;
    }
    if ((flags & Flag.MILES) !== 0) out.miles = this.milesFieldsAt(i);
    return out;
  }

  /** Group id of row `i` (its key's first-appearance ordinal); -1: no group key. */
  groupId(i: number): number {
    return this.chunks[i >>> CHUNK_BITS].groupKey[i & MASK];
  }

  /** Id of row `i`'s prompt key in `strings`; -1: none. */
  promptIdAt(i: number): number {
    return this.chunks[i >>> CHUNK_BITS].promptKey[i & MASK];
  }

  /** Row `i`'s cause as its id in `labels` + 1 (0: no cause). */
  causeCodeAt(i: number): number {
    return this.chunks[i >>> CHUNK_BITS].cause[i & MASK];
  }

  /** Whether any row has a `zeroStdReward`: the eval zero-std count reads them (eval/milesMetrics.ts). */
  get hasZeroStdRewards(): boolean {
    return this.zeroStdRewards > 0;
  }

  /** Row `i`'s reward as `get_reward_value` gives it under `rewardKey` (its `zeroStdReward`, else its reward). */
  zeroStdRewardAt(i: number): KeyedReward {
    const own = this.vars.size === 0 ? undefined : this.vars.get(i)?.zeroStdReward;
    return own ?? { reward: this.rewardAt(i), rewardIsInt: this.rewardIsIntAt(i), pyType: null, text: null };
  }

  /**
   * Each group's row count and count of rewards `== 1` (at index `groupKeys.size`: the rows without
   * a group key), and the groups in order of first appearance. One walk over the columns chunk by
   * chunk: miles' passrate of a million samples reads each row once, without a call per row.
   */
  groupTally(): GroupTally {
    const keyless = this.groupKeys.size;
    const sizes = new Int32Array(keyless + 1);
    const ones = new Int32Array(keyless + 1);
    const order = new Int32Array(keyless + 1);
    let groups = 0;
    for (let k = 0; k < this.chunks.length; k++) {
      const c = this.chunks[k];
      const end = Math.min(CHUNK, this.count - k * CHUNK);
      const groupKey = c.groupKey;
      const flags = c.flags;
      const reward = c.reward;
      for (let j = 0; j < end; j++) {
        const id = groupKey[j];
        const g = id < 0 ? keyless : id;
        if (sizes[g]++ === 0) order[groups++] = g;
        if ((flags[j] & Flag.HAS_REWARD) !== 0 && reward[j] === 1) ones[g]++;
      }
    }
    return { sizes, ones, order: order.subarray(0, groups) };
  }

  /** Whether row `i` has any of the optional fields `vars`, `session`, `output` (verl). */
  hasExtras(i: number): boolean {
    return this.vars.size !== 0 && this.vars.has(i);
  }

  indexAt(i: number): number | null {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return this.overflow.value(c.index === null ? c.indexFirst + j : c.index[j], i, 'index');
  }

  lineAt(i: number): number {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    return c.line === null ? c.lineFirst + j : c.line[j];
  }

  /** Row `i`'s `Sample.rollout_id` (null: none). */
  rolloutIdAt(i: number): number | null {
    const c = this.chunks[i >>> CHUNK_BITS];
    return c.rolloutId === null ? null : this.overflow.value(c.rolloutId[i & MASK], i, 'rolloutId');
  }

  /** Whether any row has a `Sample.rollout_id`. */
  get hasRolloutIds(): boolean {
    return this.chunks.some((c) => c.hasRolloutId);
  }

  stepAt(i: number): number | null {
    return this.stepOf(this.chunks[i >>> CHUNK_BITS], i & MASK, i);
  }

  /** Every record, materialised (for analyses of formats whose files are small, and editors). */
  toArray(): SampleRecord[] {
    const out = new Array<SampleRecord>(this.count);
    for (let i = 0; i < this.count; i++) out[i] = this.at(i);
    return out;
  }

  *[Symbol.iterator](): IterableIterator<SampleRecord> {
    for (let i = 0; i < this.count; i++) yield this.at(i);
  }
}
