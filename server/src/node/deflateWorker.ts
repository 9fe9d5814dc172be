// The deflate thread of the CLI and the language server (bundled as `dist/deflateWorker.js`):
// takes the tails the main thread publishes in the shared ring (deflateShared.ts) one by one, in
// ticket order, compresses each with the engine's own `ZlibSizer` (one for the thread), and sleeps
// while there are none. A ticket the main thread took first is skipped.
import { workerData } from 'node:worker_threads';

import { ZlibSizer } from '../core/reader/zlibLength';

import { claim, CLAIMED, DONE, PUBLISHED, READY, ringOf, slotBytes, SLOTS, STARTING, STATE, STOPPED } from './deflateShared';

const ring = ringOf(workerData as SharedArrayBuffer);
const c = ring.counters;
const sizer = new ZlibSizer();
// Not over STOPPED: the thread may be closed before it is ready.
Atomics.compareExchange(c, STATE, STARTING, READY);
Atomics.notify(c, STATE);
while (Atomics.load(c, STATE) !== STOPPED) {
  const next = Atomics.load(c, CLAIMED);
  const published = Atomics.load(c, PUBLISHED);
  if (next === published) {
    Atomics.wait(c, PUBLISHED, published);
    continue;
  }
  if (!claim(c, next)) continue;
  const slot = next % SLOTS;
  ring.lengths[slot] = sizer.length(slotBytes(ring, next), 9);
  Atomics.store(ring.doneTickets, slot, next);
  Atomics.add(c, DONE, 1);
  Atomics.notify(c, DONE);
}
