// A deflate thread that says it is ready and then takes no tail until it is stopped (for
// test/unit/reader/deflateThread.test.ts): as a thread the system does not schedule would.
import { isMainThread, workerData } from 'node:worker_threads';

import { READY, ringOf, STARTING, STATE, STOPPED } from '../../server/src/node/deflateShared';

if (!isMainThread) {
  const c = ringOf(workerData as SharedArrayBuffer).counters;
  Atomics.compareExchange(c, STATE, STARTING, READY);
  Atomics.notify(c, STATE);
  while (Atomics.load(c, STATE) !== STOPPED) Atomics.wait(c, STATE, READY);
}
