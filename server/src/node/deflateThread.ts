// A `DeflateOffload` on one worker thread (`deflateWorker.js`, next to the bundle), for files whose
// long responses make miles' `has_repetition` most of a scan's work (BENCHMARKS.md, "Design
// measurements"). The thread starts at the first long response (files without one pay nothing) and
// takes a tail only while it has room (deflateShared.ts): otherwise the scanning thread compresses
// that tail itself, so the two share the work. At a scan's end the scanning thread compresses the
// tails the thread has not taken yet, and waits only for the one it is compressing: a file's
// handful of tails would otherwise keep the scanning thread idle for most of them, file after
// file. If the thread fails, what it had not finished is compressed on the calling thread: nothing
// is lost.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';

import type { DeflateJobs, DeflateOffload } from '../core/reader/deflateJobs';
import { ZlibSizer } from '../core/reader/zlibLength';

import {
  claim,
  CLAIMED,
  DONE,
  newRingBuffer,
  PUBLISHED,
  READY,
  ringOf,
  type SharedRing,
  slotBytes,
  SLOT_BYTES,
  SLOTS,
  STARTING,
  STATE,
  STOPPED,
} from './deflateShared';

/** `Atomics.waitAsync` (ES2024; Node has it), typed here for the ES2022 library. */
const waitAsync = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number): { async: boolean; value: Promise<unknown> | string } }).waitAsync;

/** Whether a deflate thread is worth starting: only where it gets a core of its own. */
export function wantsDeflateThread(cores = availableParallelism()): boolean {
  return cores >= 2;
}

class ScanJobs implements DeflateJobs {
  lengths = new Int32Array(256);
  count = 0;
  /** The last ticket handed to the thread, in the thread's numbering (-1: none). */
  lastTicket = -1;

  constructor(private readonly thread: DeflateThread) {}

  offer(bytes: Uint8Array): number {
    return this.thread.offer(this, bytes);
  }

  finish(): Promise<Int32Array> {
    return this.thread.finish(this);
  }

  put(local: number, length: number): void {
    if (local >= this.lengths.length) {
      const wider = new Int32Array(2 * Math.max(local + 1, this.lengths.length));
      wider.set(this.lengths);
      this.lengths = wider;
    }
    this.lengths[local] = length;
  }
}

export class DeflateThread implements DeflateOffload {
  private readonly script: string;
  private ring: SharedRing | null = null;
  private worker: Worker | null = null;
  private failed = false;
  /** Sizes here the tails the thread never got to. */
  private sizer: ZlibSizer | null = null;
  /** Resolved when the thread fails: a wait for it must not hang on a wake-up that never comes. */
  private readonly failure: Promise<void>;
  private signalFailure: () => void = () => undefined;
  /** Waits (`finish`, `warmUp`) in progress: the thread keeps the process alive while there is one. */
  private waits = 0;
  /** Tickets published so far (the thread's numbering, across scans). */
  private published = 0;
  /** Tails handed over and then compressed here. */
  private takenBack = 0;
  /** By slot: the scan that owns its ticket, that ticket in the scan's numbering and in the thread's. */
  private readonly owner: (ScanJobs | null)[] = new Array<ScanJobs | null>(SLOTS).fill(null);
  private readonly ownerTicket = new Int32Array(SLOTS);
  private readonly threadTicket = new Int32Array(SLOTS);
  /** Tails the thread compressed (tests check that it really ran). */
  get compressed(): number {
    return this.ring === null ? 0 : Atomics.load(this.ring.counters, DONE);
  }
  /** Tails handed over and then compressed on this thread (taken back at a scan's end, or the thread failed). */
  get compressedHere(): number {
    return this.takenBack;
  }

  constructor(options: { script?: string } = {}) {
    this.script = options.script ?? join(__dirname, 'deflateWorker.js');
    this.failure = new Promise((resolve) => (this.signalFailure = resolve));
  }

  start(): DeflateJobs {
    return new ScanJobs(this);
  }

  /** `DeflateJobs.offer` of `jobs`. */
  offer(jobs: ScanJobs, bytes: Uint8Array): number {
    if (this.failed || bytes.length > SLOT_BYTES) return -1;
    const ring = this.ring;
    if (ring === null) {
      this.spawn();
      return -1;
    }
    const c = ring.counters;
    const t = this.published;
    const slot = t % SLOTS;
    if (Atomics.load(c, STATE) !== READY || !this.free(slot)) return -1;
    ring.data.set(bytes, slot * SLOT_BYTES);
    ring.sizes[slot] = bytes.length;
    const local = jobs.count++;
    this.owner[slot] = jobs;
    this.ownerTicket[slot] = local;
    this.threadTicket[slot] = t;
    jobs.lastTicket = t;
    this.published = t + 1;
    Atomics.store(c, PUBLISHED, t + 1);
    Atomics.notify(c, PUBLISHED);
    return local;
  }

  /**
   * `DeflateJobs.finish` of `jobs`: compresses here its tickets the thread has not taken (and any
   * other scan's before them), waits for those the thread is compressing, then collects its slots.
   */
  async finish(jobs: ScanJobs): Promise<Int32Array> {
    const ring = this.ring;
    if (ring !== null) {
      const c = ring.counters;
      for (let t = Atomics.load(c, CLAIMED); t <= jobs.lastTicket; t = Atomics.load(c, CLAIMED)) if (claim(c, t)) this.compressHere(t);
      this.hold();
      try {
        for (let done = Atomics.load(c, DONE); !this.failed && this.waitsFor(jobs); done = Atomics.load(c, DONE)) await this.change(c, DONE, done);
      } finally {
        this.release();
      }
      for (let slot = 0; slot < SLOTS; slot++) if (this.owner[slot] === jobs) this.collect(slot);
    }
    return jobs.lengths.subarray(0, jobs.count);
  }

  /** Whether a ticket of `jobs` is still the thread's to finish. */
  private waitsFor(jobs: ScanJobs): boolean {
    for (let slot = 0; slot < SLOTS; slot++) if (this.owner[slot] === jobs && !this.doneByThread(slot)) return true;
    return false;
  }

  /** Whether the thread has compressed the ticket in `slot`. */
  private doneByThread(slot: number): boolean {
    return Atomics.load(this.ring!.doneTickets, slot) === this.threadTicket[slot];
  }

  /** Whether `slot` may take a new ticket: its last one collected, or compressed by the thread (collected now). */
  private free(slot: number): boolean {
    if (this.owner[slot] === null) return true;
    if (!this.doneByThread(slot)) return false;
    this.collect(slot);
    return true;
  }

  /** Ticket `t`, taken from the thread, compressed here and handed to its scan. */
  private compressHere(t: number): void {
    const slot = t % SLOTS;
    const jobs = this.owner[slot]!;
    this.takenBack++;
    jobs.put(this.ownerTicket[slot], (this.sizer ??= new ZlibSizer()).length(slotBytes(this.ring!, t), 9));
    this.owner[slot] = null;
  }

  /** Starts the thread now, not at the first long response, and waits until it takes tails (or failed). */
  async warmUp(): Promise<void> {
    if (this.ring === null && !this.failed) this.spawn();
    const ring = this.ring;
    if (ring === null) return;
    this.hold();
    try {
      while (!this.failed && Atomics.load(ring.counters, STATE) === STARTING) await this.change(ring.counters, STATE, STARTING);
    } finally {
      this.release();
    }
  }

  /** Until `a[i]` is no longer `value`, or the thread failed. */
  private async change(a: Int32Array, i: number, value: number): Promise<void> {
    const wait = waitAsync(a, i, value);
    if (wait.async) await Promise.race([wait.value, this.failure]);
  }

  /**
   * A pending `waitAsync` does not keep Node's event loop alive, so the (unref'd) thread must while
   * anyone waits; `ref`/`unref` are not counted, hence the count (two scans may wait at once).
   */
  private hold(): void {
    if (this.waits++ === 0) this.worker?.ref();
  }

  private release(): void {
    if (--this.waits === 0) this.worker?.unref();
  }

  /** Ends the thread. */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w === null || this.ring === null) return;
    Atomics.store(this.ring.counters, STATE, STOPPED);
    Atomics.notify(this.ring.counters, PUBLISHED);
    await w.terminate();
  }

  /** Hands slot `slot`'s length to the scan that owns it: the thread's, or computed here when the thread failed before it. */
  private collect(slot: number): void {
    const jobs = this.owner[slot];
    if (jobs === null) return;
    if (!this.doneByThread(slot)) return this.compressHere(this.threadTicket[slot]);
    jobs.put(this.ownerTicket[slot], this.ring!.lengths[slot]);
    this.owner[slot] = null;
  }

  private spawn(): void {
    if (!existsSync(this.script)) {
      this.failed = true;
      return;
    }
    const buffer = newRingBuffer();
    const ring = ringOf(buffer);
    // Required here, not at the top: most runs meet no long response (BENCHMARKS.md, "Design measurements").
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
    const w = new Worker(this.script, { workerData: buffer, resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 } });
    const fail = () => {
      if (this.worker !== w) return;
      this.failed = true;
      // Ends a `finish` or `warmUp` waiting for the thread.
      this.signalFailure();
    };
    w.on('error', fail);
    w.on('exit', fail);
    // An idle thread does not keep the process alive; `close` ends it.
    w.unref();
    this.worker = w;
    this.ring = ring;
  }
}
