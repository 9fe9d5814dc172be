// The memory the deflate thread (CLI and language server) shares with the main thread
// (deflateThread.ts, deflateWorker.ts): a ring of slots, each one tail's bytes and, once
// compressed, its length, and four counters. Tickets count every tail ever handed over; ticket t
// lives in slot t % SLOTS. The main thread writes a slot and then advances PUBLISHED. Either thread
// takes the next published ticket by advancing CLAIMED from it (compare-and-exchange, so each
// ticket is taken once): the worker in its loop, the main thread when a scan ends with tickets the
// worker has not taken, which it compresses itself rather than wait. The worker writes a length,
// then the ticket into its slot's `doneTickets` entry, then counts it in DONE. A slot is written
// again only once its last ticket's length has been collected.
import { MAX_MATCH_INPUT } from '../core/reader/zlibMatches';

/** Tails handed over and not yet compressed, at most. */
export const SLOTS = 32;
/** A slot's bytes: the longest tail the WebAssembly matches take (a longer one is compressed by its reader). */
export const SLOT_BYTES = MAX_MATCH_INPUT;

/** Index in `counters`: tickets published. */
export const PUBLISHED = 0;
/** Index in `counters`: tickets the worker compressed (it notifies on each). */
export const DONE = 1;
/** Index in `counters`: the worker's state (STARTING, READY, STOPPED). */
export const STATE = 2;
/** Index in `counters`: tickets taken, by either thread. */
export const CLAIMED = 3;
export const STARTING = 0;
export const READY = 1;
export const STOPPED = 2;

export interface SharedRing {
  counters: Int32Array;
  /** Bytes in each slot. */
  sizes: Int32Array;
  /** zlib's length of each slot's bytes, once done. */
  lengths: Int32Array;
  /** By slot: the last ticket the worker compressed there (-1: none). */
  doneTickets: Int32Array;
  /** The slots' bytes, SLOT_BYTES each. */
  data: Uint8Array;
}

export function ringOf(buffer: SharedArrayBuffer): SharedRing {
  return {
    counters: new Int32Array(buffer, 0, 4),
    sizes: new Int32Array(buffer, 16, SLOTS),
    lengths: new Int32Array(buffer, 16 + 4 * SLOTS, SLOTS),
    doneTickets: new Int32Array(buffer, 16 + 8 * SLOTS, SLOTS),
    data: new Uint8Array(buffer, 16 + 12 * SLOTS, SLOTS * SLOT_BYTES),
  };
}

export function newRingBuffer(): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(16 + 12 * SLOTS + SLOTS * SLOT_BYTES);
  ringOf(buffer).doneTickets.fill(-1);
  return buffer;
}

/** The bytes of ticket `ticket`'s slot. */
export function slotBytes(ring: SharedRing, ticket: number): Uint8Array {
  const slot = ticket % SLOTS;
  return ring.data.subarray(slot * SLOT_BYTES, slot * SLOT_BYTES + ring.sizes[slot]);
}

/** Takes ticket `ticket` when it is the next one to take (and published): false when another thread took it first. */
export function claim(counters: Int32Array, ticket: number): boolean {
  return Atomics.compareExchange(counters, CLAIMED, ticket, ticket + 1) === ticket;
}
