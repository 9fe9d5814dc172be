// A cause's class (`classifyCause`), remembered for the analysis of a file.
import type { RolloutLensSettings } from '../vocabulary/settings';
import { classifyCause } from '../vocabulary/causes';

/** Causes remembered at most: a file can hold a distinct exit status per sample (an error text with an id). */
const MAX_REMEMBERED = 4096;

/** Causes repeat across a file's samples; settings stay the same for a whole analysis. */
let memoSettings: RolloutLensSettings | null = null;
const memoClass = new Map<string | null, ReturnType<typeof classifyCause>>();
export function classifyMemo(cause: string | null, settings: RolloutLensSettings): ReturnType<typeof classifyCause> {
  if (settings !== memoSettings) {
    memoSettings = settings;
    memoClass.clear();
  }
  let cls = memoClass.get(cause);
  if (cls === undefined) {
    cls = classifyCause(cause, settings);
    // Once full, the first causes met stay (the common ones come early) and the rest are classified
    // each time: clearing and refilling the map churned a million entries through the heap.
    if (memoClass.size < MAX_REMEMBERED) memoClass.set(cause, cls);
  }
  return cls;
}
