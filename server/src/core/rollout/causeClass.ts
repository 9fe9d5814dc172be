// A cause's class (`classifyCause`), remembered for the analysis of a file.
import type { RolloutLensSettings } from '../settings';
import { classifyCause } from '../causes';

/** Causes repeat across a file's samples; settings stay the same for a whole analysis. */
let memoSettings: RolloutLensSettings | null = null;
const memoClass = new Map<string | null, ReturnType<typeof classifyCause>>();
export function classifyMemo(cause: string | null, settings: RolloutLensSettings): ReturnType<typeof classifyCause> {
  if (settings !== memoSettings || memoClass.size > 4096) {
    memoSettings = settings;
    memoClass.clear();
  }
  let cls = memoClass.get(cause);
  if (cls === undefined) {
    cls = classifyCause(cause, settings);
    memoClass.set(cause, cls);
  }
  return cls;
}
