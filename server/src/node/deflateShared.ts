// The memory the deflate thread (CLI and language server) shares with the main thread
// (deflateThread.ts, deflateWorker.ts): a ring of slots, each one tail's bytes and, once
// compressed, its length, and three counters. Tickets count every tail ever handed over; ticket t
// lives in slot t % SLOTS. The main thread writes a slot and then advances PUBLISHED; the worker
// compresses in ticket order and advances DONE after writing the length. At most SLOTS tickets are
// published and not done, so a slot is only written again once its last ticket is done.
import { MAX_MATCH_INPUT } from '../core/reader/zlibMatches';

/** Tails handed over and not yet compressed, at most. */
export const SLOTS = 32;
/** A slot's bytes: the longest tail the WebAssembly matches take (a longer one is compressed by its reader). */
export const SLOT_BYTES = MAX_MATCH_INPUT;

/** Index in `counters`: tickets published. */
export const PUBLISHED = 0;
/** Index in `counters`: tickets compressed. */
export const DONE = 1;
/** Index in `counters`: the worker's state (STARTING, READY, STOPPED). */
export const STATE = 2;
export const STARTING = 0;
export const READY = 1;
export const STOPPED = 2;

export interface SharedRing {
  counters: Int32Array;
  /** Bytes in each slot. */
  sizes: Int32Array;
  /** zlib's length of each slot's bytes, once done. */
  lengths: Int32Array;
  /** The slots' bytes, SLOT_BYTES each. */
  data: Uint8Array;
}

export function ringOf(buffer: SharedArrayBuffer): SharedRing {
  return {
    counters: new Int32Array(buffer, 0, 4),
    sizes: new Int32Array(buffer, 16, SLOTS),
    lengths: new Int32Array(buffer, 16 + 4 * SLOTS, SLOTS),
    data: new Uint8Array(buffer, 16 + 8 * SLOTS, SLOTS * SLOT_BYTES),
  };
}

export function newRingBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(16 + 8 * SLOTS + SLOTS * SLOT_BYTES);
}

/** The bytes of ticket `ticket`'s slot. */
export function slotBytes(ring: SharedRing, ticket: number): Uint8Array {
  const slot = ticket % SLOTS;
  return ring.data.subarray(slot * SLOT_BYTES, slot * SLOT_BYTES + ring.sizes[slot]);
}
