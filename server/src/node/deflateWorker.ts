// The deflate thread of the CLI and the language server (bundled as `dist/deflateWorker.js`):
// compresses the tails the main thread publishes in the shared ring (deflateShared.ts), in ticket
// order, with the engine's own `ZlibSizer` (one for the thread), and sleeps while there are none.
import { workerData } from 'node:worker_threads';

import { ZlibSizer } from '../core/reader/zlibLength';

import { DONE, PUBLISHED, READY, ringOf, slotBytes, SLOTS, STARTING, STATE, STOPPED } from './deflateShared';

const ring = ringOf(workerData as SharedArrayBuffer);
const c = ring.counters;
const sizer = new ZlibSizer();
let next = Atomics.load(c, DONE);
// Not over STOPPED: the thread may be closed before it is ready.
Atomics.compareExchange(c, STATE, STARTING, READY);
Atomics.notify(c, STATE);
while (Atomics.load(c, STATE) !== STOPPED) {
  const published = Atomics.load(c, PUBLISHED);
  if (next === published) {
    Atomics.wait(c, PUBLISHED, published);
    continue;
  }
  ring.lengths[next % SLOTS] = sizer.length(slotBytes(ring, next), 9);
  next++;
  Atomics.store(c, DONE, next);
  Atomics.notify(c, DONE);
}
