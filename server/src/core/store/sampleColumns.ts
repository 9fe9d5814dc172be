// The read side of the sample store (core/store/sampleStore.ts writes it): one file's samples in columns
// of typed arrays in fixed-size chunks, keys interned in string tables. Readers take one field of
// one row in place (the rollout analysis, the miles metrics, the run view) or a whole record (`at`);
// a field's own reader and `at` are written from the record columns (store/fieldColumns.ts).
import type { KeyedReward, SampleRecord } from '../vocabulary/types';
import { CHUNK, CHUNK_BITS, MASK } from './chunk';
import { FieldColumns } from './fieldColumns';
import * as Flag from './rowFlags';

export type { Extras, MilesRow } from './fieldRows';

/** `groupTally`'s counts, by group id (`groupKeys.size`: the rows without a group key). */
export interface GroupTally {
  sizes: Int32Array;
  /** Rewards `== 1` (a missing reward is not). */
  ones: Int32Array;
  /** The ids of the groups that have rows, in order of first appearance. */
  order: Int32Array;
}

/**
 * Samples of one file in append order, read by row: each field's reader and `at` (fieldColumns.ts),
 * and the readers of more than a field's value here. Group keys have their own table, so a group's
 * id is its first-appearance ordinal; prompt keys have one, datasets and causes share one.
 */
export abstract class SampleColumns extends FieldColumns {
  /** Rows with a `zeroStdReward` (eval files read with their own reward key). */
  protected zeroStdRewards = 0;

  /** The `weight_versions` list of id `id` (from `milesAt`), as first given. */
  weightVersionList(id: number): (string | number)[] {
    return this.lists[id];
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

  /** The cause a cause code (`causeCodeAt`) stands for; null: none. */
  causeOfCode(code: number): string | null {
    return this.labels.value(code - 1);
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
