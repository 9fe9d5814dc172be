// Facts about a log file taken from its name and records: whether it is a log at all (the shared
// predicate), its stem, and which step it belongs to. One owner, so the run views, the eval
// analysis and the metric comparison agree.
import { SampleColumns } from '../store/sampleColumns';
import type { SampleRecord } from './types';

import { runFileStem } from '../../../../shared/logFiles';

export { isLogFileName, isPtDumpName, runFileStem } from '../../../../shared/logFiles';

/** `dir/eval_100.jsonl` → `eval_100`. */
export function fileStem(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return runFileStem(base) || base.replace(/\.json$/i, '') || base;
}

/** Most common record step; else the last number in the file name (`eval_100.jsonl` → 100). */
export function fileStep(file: string, samples: readonly SampleRecord[] | SampleColumns): number | null {
  const counts = new Map<number, number>();
  const n = samples.length;
  for (let i = 0; i < n; i++) {
    const step = samples instanceof SampleColumns ? samples.stepAt(i) : samples[i].step;
    if (step !== null) counts.set(step, (counts.get(step) ?? 0) + 1);
  }
  let best: number | null = null;
  for (const [step, c] of counts) if (best === null || c > counts.get(best)!) best = step;
  if (best !== null) return best;
  const m = /(\d+)(?!.*\d)/.exec(fileStem(file));
  return m ? Number(m[1]) : null;
}
