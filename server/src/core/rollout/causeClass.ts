// A cause's class (`classifyCause`), remembered for the analysis of a file.
import type { RolloutLensSettings } from '../vocabulary/settings';
import { classifyCause } from '../vocabulary/causes';

/** Causes remembered at most: a file can hold a distinct exit status per sample (an error text with an id). */
const MAX_REMEMBERED = 4096;

/** Causes repeat across a file's samples; one analysis's settings stay the same: one per analysis. */
export class CauseClasses {
  private readonly remembered = new Map<string | null, ReturnType<typeof classifyCause>>();

  constructor(private readonly settings: RolloutLensSettings) {}

  of(cause: string | null): ReturnType<typeof classifyCause> {
    let cls = this.remembered.get(cause);
    if (cls === undefined) {
      cls = classifyCause(cause, this.settings);
      // Once full, the first causes met stay (the common ones come early) and the rest are classified
      // each time: clearing and refilling the map churned a million entries through the heap.
      if (this.remembered.size < MAX_REMEMBERED) this.remembered.set(cause, cls);
    }
    return cls;
  }
}
