// A deflate thread that fails (for test/unit/reader/deflateThread.test.ts): it takes the first
// `STALL_AFTER` tickets before any is published (so the scanning thread cannot take them back),
// says it is ready, waits until they are published, and then crashes without compressing any, as
// a thread that runs out of memory would.
import { isMainThread, workerData } from 'node:worker_threads';

import { CLAIMED, PUBLISHED, READY, ringOf, STARTING, STATE } from '../../server/src/node/deflateShared';

export const STALL_AFTER = 3;

// (The test imports STALL_AFTER from this module on its own thread.)
if (!isMainThread) {
  const c = ringOf(workerData as SharedArrayBuffer).counters;
  Atomics.store(c, CLAIMED, STALL_AFTER);
  Atomics.compareExchange(c, STATE, STARTING, READY);
  Atomics.notify(c, STATE);
  while (Atomics.load(c, PUBLISHED) < STALL_AFTER) Atomics.wait(c, PUBLISHED, Atomics.load(c, PUBLISHED));
  throw new Error('deflate thread crashed');
}
