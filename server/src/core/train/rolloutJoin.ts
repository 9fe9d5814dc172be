// A rollout dump's samples by miles' `Sample.index`, for joining a step's train_data to it
// (train_data's `sample_indices` are those indices). Kept compact after the dump's scan is released:
// sorted typed arrays and a status code per sample, not an object or a string slot per sample. Built
// only for a dump a train_data step names (core/run/plan.ts `trainDataRollouts`).
import type { SampleColumns } from '../store/sampleColumns';

import type { RolloutJoin } from './trainStep';

export function rolloutJoin(file: string, samples: Pick<SampleColumns, 'length' | 'indexAt' | 'lineAt' | 'statusAt'>): RolloutJoin {
  const n = samples.length;
  const index = new Float64Array(n);
  const line = new Int32Array(n);
  const code = new Uint8Array(n);
  const names: (string | null)[] = [];
  const codeOf = new Map<string | null, number>();
  let m = 0;
  let sorted = true;
  for (let i = 0; i < n; i++) {
    const k = samples.indexAt(i);
    if (k === null) continue;
    const status = samples.statusAt(i);
    let c = codeOf.get(status);
    if (c === undefined) {
      c = names.length;
      codeOf.set(status, c);
      names.push(status);
    }
    if (m > 0 && k < index[m - 1]) sorted = false;
    index[m] = k;
    line[m] = samples.lineAt(i);
    code[m] = c;
    m++;
  }
  let keys = index.subarray(0, m);
  let lines = line.subarray(0, m);
  let codes = code.subarray(0, m);
  if (!sorted) {
    // A stable order by index (Array.prototype.sort is stable): equal indices keep the file's order.
    const order = Array.from({ length: m }, (_, p) => p).sort((a, b) => index[a] - index[b]);
    keys = Float64Array.from(order, (p) => index[p]);
    lines = Int32Array.from(order, (p) => line[p]);
    codes = Uint8Array.from(order, (p) => code[p]);
  }
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
      return k < 0 ? null : names[codes[k]];
    },
  };
}
