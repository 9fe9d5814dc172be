// A full garbage collection between the files of a run folder. A finished file's analysis leaves
// tens of megabytes of dead typed arrays and promoted objects that V8 would collect only seconds
// later, while the next file is already growing its own (BENCHMARKS.md, "Scale with the number of
// samples"): collected at the file boundary, the peak stays that of one file. `gc` is exposed for
// this process on first use (`--expose-gc` set at run time is honoured for new contexts).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;

/** Runs a full collection; does nothing where `gc` cannot be had. */
export function collectGarbage(): void {
  if (gc === undefined) {
    try {
      if (typeof globalThis.gc === 'function') gc = globalThis.gc as () => void;
      else {
        setFlagsFromString('--expose-gc');
        gc = runInNewContext('gc') as () => void;
      }
    } catch {
      gc = null;
    }
  }
  gc?.();
}
