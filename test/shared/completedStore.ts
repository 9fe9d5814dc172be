// A store of completed samples from a few fields per row, for tests of the per-step re-runs that
// read the store's columns (passrate, the reward normalisation). Row k is line k + 1.
import { SampleStore } from '../../server/src/core/store/sampleStore';

export interface CompletedRow {
  group: number | null;
  /** Defaults to the row's position. */
  index?: number | null;
  rolloutId?: number | null;
  reward: number | null;
}

export function completedStore(rows: readonly CompletedRow[]): SampleStore {
  const store = new SampleStore();
  rows.forEach((r, k) =>
    store.push({
      line: k + 1,
      offset: k,
      byteLength: 1,
      groupKey: r.group === null ? null : String(r.group),
      index: r.index === undefined ? k : r.index,
      dataset: null,
      promptKey: null,
      status: 'completed',
      aborted: false,
      reward: r.reward,
      rewardIsInt: false,
      cause: null,
      responseLength: null,
      step: null,
      ...(r.rolloutId === undefined ? {} : { rolloutId: r.rolloutId }),
    }),
  );
  return store;
}
