// A deflate thread that fails (for test/unit/reader/deflateThread.test.ts): it says it is ready,
// takes tails until `STALL_AFTER` are published, and then crashes without compressing any, as a
// thread that runs out of memory would.
import { isMainThread, workerData } from 'node:worker_threads';

import { PUBLISHED, READY, ringOf, STARTING, STATE } from '../../server/src/node/deflateShared';

export const STALL_AFTER = 3;

// (The test imports STALL_AFTER from this module on its own thread.)
if (!isMainThread) {
  const c = ringOf(workerData as SharedArrayBuffer).counters;
  Atomics.compareExchange(c, STATE, STARTING, READY);
  Atomics.notify(c, STATE);
  while (Atomics.load(c, PUBLISHED) < STALL_AFTER) Atomics.wait(c, PUBLISHED, Atomics.load(c, PUBLISHED));
  throw new Error('deflate thread crashed');
}
