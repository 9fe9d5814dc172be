// A rollout dump's samples by miles' `Sample.index`, for joining a step's train_data to it
// (train_data's `sample_indices` are those indices). Kept compact after the dump's scan is released:
// two sorted typed arrays, not an object per sample.
import type { SampleColumns } from '../store/sampleColumns';

import type { RolloutJoin } from './trainStep';

export function rolloutJoin(file: string, samples: Pick<SampleColumns, 'length' | 'indexAt' | 'lineAt' | 'statusAt'>): RolloutJoin {
  const n = samples.length;
  const order: number[] = [];
  const index = new Float64Array(n);
  const line = new Int32Array(n);
  const status: (string | null)[] = [];
  for (let i = 0; i < n; i++) {
    const k = samples.indexAt(i);
    if (k === null) continue;
    index[order.length] = k;
    line[order.length] = samples.lineAt(i);
    status.push(samples.statusAt(i));
    order.push(order.length);
  }
  const m = order.length;
  order.sort((a, b) => index[a] - index[b]);
  const keys = Float64Array.from(order, (i) => index[i]);
  const lines = Int32Array.from(order, (i) => line[i]);
  const statuses = order.map((i) => status[i]);
  const find = (sampleIndex: number): number => {
    let lo = 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keys[mid] < sampleIndex) lo = mid + 1;
      else hi = mid;
    }
    return lo < m && keys[lo] === sampleIndex ? lo : -1;
  };
  return {
    file,
    lineOf(sampleIndex: number): number | null {
      const k = find(sampleIndex);
      return k < 0 ? null : lines[k];
    },
    statusOf(sampleIndex: number): string | null {
      const k = find(sampleIndex);
      return k < 0 ? null : statuses[k];
    },
  };
}
