// A `ParallelScanner` on worker threads: a big file is cut into byte ranges at line boundaries,
// workers (`scanWorker.js`, next to the bundle) scan the ranges, and their lines are handed to the
// engine strictly in file order, so the result is the single-threaded one. Small files are not
// worth a worker's start-up and are scanned by the caller, and neither are files of short lines:
// a worker hands each line to the main thread as a scanned object, which costs the main thread more
// per line than the single-threaded path's whole work on a short line (it writes a miles sample's
// fields straight into the sample store), so workers pay only where the bytes of a line, not
// their number, are the work (BENCHMARKS.md, "Design measurements").
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';

import type { RolloutLensSettings } from '../../../shared/protocol';
import type { ParallelScanHooks, ParallelScanner, ParallelScanResult, ScannedLine } from '../core/seams/hostSeams';
import type { ScanJob, WorkerMessage } from './scanWorker';

export interface WorkerPoolOptions {
  /** The worker bundle (default: `scanWorker.js` beside this module's bundle). */
  script?: string;
  /** Files (or what is left of them) smaller than this are scanned by the caller (default 64 MiB). */
  threshold?: number;
  /**
   * Worker threads, always used for big files. Default: the cores (at most 4), used only as
   * `defaultWantsWorkers` decides.
   */
  workers?: number;
  /** Target range size (default: about 8 ranges per worker, at least 8 MiB each). */
  rangeBytes?: number;
  /**
   * Files whose lines are shorter than this on average (over the first MiB) are scanned by the
   * caller whatever the number of workers (default 16 KiB).
   */
  minMeanLineBytes?: number;
}

const DEFAULT_PARALLEL_THRESHOLD = 64 << 20;
export const DEFAULT_MIN_MEAN_LINE_BYTES = 16 << 10;
/** Bytes at the start of a file whose lines give the mean line length. */
const LINE_SAMPLE_BYTES = 1 << 20;
/** Cores below which the default is one thread. */
export const MIN_DEFAULT_WORKER_CORES = 4;

/**
 * Whether workers are used when nobody asked for a number of them: only on 4 cores or more, and
 * while a core is idle (1-minute load average at least one below the cores). On 2 cores, since the
 * numeric arrays are validated in WebAssembly, 2 workers are about as fast as one thread at more
 * CPU (BENCHMARKS.md, "Design measurements"); and on a busy machine a second thread gets no core
 * of its own and only adds work.
 */
export function defaultWantsWorkers(cores: number, load1: number): boolean {
  return cores >= MIN_DEFAULT_WORKER_CORES && cores - load1 >= 1;
}

/**
 * The mean length of the lines that end in the first MiB of `path` (the whole MiB when none ends
 * there: one line at least that long); 0 when the file cannot be read (the caller then reads it
 * itself and reports why).
 */
export function meanLineBytes(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return 0;
  }
  try {
    const buf = Buffer.allocUnsafe(LINE_SAMPLE_BYTES);
    const read = readSync(fd, buf, 0, buf.length, 0);
    let lines = 0;
    let lastEnd = 0;
    for (let at = buf.indexOf(0x0a); at >= 0 && at < read; at = buf.indexOf(0x0a, at + 1)) {
      lines++;
      lastEnd = at + 1;
    }
    return lines === 0 ? read : lastEnd / lines;
  } catch {
    return 0;
  } finally {
    closeSync(fd);
  }
}

type Done = Extract<WorkerMessage, { type: 'done' }>;
interface RangeState {
  start: number;
  end: number;
  batches: ScannedLine[][];
  done: Done | null;
}

/** Offsets that cut `[start, end)` into about `count` ranges, each cut just after a `\n`. */
export async function lineBoundaries(path: string, start: number, end: number, count: number): Promise<number[]> {
  const cuts = [start];
  const file = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(64 << 10);
    for (let k = 1; k < count; k++) {
      let at = Math.max(cuts[cuts.length - 1], start + Math.floor(((end - start) * k) / count) - 1);
      let cut = -1;
      // A line longer than a range moves the cut to its end (ranges merge), bounded by `end`.
      while (cut < 0 && at < end) {
        const { bytesRead } = await file.read(buf, 0, Math.min(buf.length, end - at), at);
        if (bytesRead <= 0) break;
        const nl = buf.subarray(0, bytesRead).indexOf(0x0a);
        if (nl >= 0) cut = at + nl + 1;
        at += bytesRead;
      }
      if (cut > cuts[cuts.length - 1] && cut < end) cuts.push(cut);
    }
  } finally {
    await file.close();
  }
  cuts.push(end);
  return cuts;
}

export class WorkerPool implements ParallelScanner {
  private readonly script: string;
  private readonly threshold: number;
  private readonly size: number;
  private readonly rangeBytes: number | undefined;
  private readonly minMeanLineBytes: number;
  private readonly adaptive: boolean;
  private readonly idle: Worker[] = [];
  private workers: Worker[] = [];
  private onMessage: ((w: Worker, m: WorkerMessage) => void) | null = null;
  private onFailure: ((err: Error) => void) | null = null;
  private busy = false;
  /** Ranges handed to workers so far (tests check that the parallel path really ran). */
  rangesScanned = 0;

  /** Live worker threads. */
  get threads(): number {
    return this.workers.length;
  }

  constructor(options: WorkerPoolOptions = {}) {
    this.script = options.script ?? join(__dirname, 'scanWorker.js');
    this.threshold = options.threshold ?? DEFAULT_PARALLEL_THRESHOLD;
    this.size = Math.max(1, options.workers ?? Math.min(4, availableParallelism()));
    this.adaptive = options.workers === undefined;
    this.rangeBytes = options.rangeBytes;
    this.minMeanLineBytes = options.minMeanLineBytes ?? DEFAULT_MIN_MEAN_LINE_BYTES;
  }

  wants(path: string, bytes: number): boolean {
    if (bytes < this.threshold || !existsSync(this.script)) return false;
    // (4 cores or more also means a default pool of at least 2 workers.)
    if (this.adaptive && !defaultWantsWorkers(availableParallelism(), loadavg()[0])) return false;
    return this.minMeanLineBytes <= 0 || meanLineBytes(path) >= this.minMeanLineBytes;
  }

  private spawn(): Worker {
    // Small heaps: a worker holds one read buffer and a batch of compact lines, never a file.
    // Required here, not at the top: most runs (fewer than 4 cores, small files) start no worker,
    // and loading the module is a cost of every start of the CLI (BENCHMARKS.md, "Design measurements").
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
    const w = new Worker(this.script, { resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 } });
    // Only the pool's current workers speak to the running scan (not ones closed or abandoned).
    const mine = () => this.workers.includes(w);
    w.on('message', (m: WorkerMessage) => {
      if (mine()) this.onMessage?.(w, m);
    });
    w.on('error', (err) => {
      if (mine()) this.onFailure?.(err);
    });
    w.on('exit', (code) => {
      if (!mine()) return;
      this.workers = this.workers.filter((x) => x !== w);
      if (this.idle.includes(w)) this.idle.splice(this.idle.indexOf(w), 1);
      this.onFailure?.(new Error(`scan worker exited (${code})`));
    });
    this.workers.push(w);
    return w;
  }

  /** Idle workers do not keep the process alive; `close` ends them. */
  async close(): Promise<void> {
    const all = this.workers;
    this.workers = [];
    this.idle.length = 0;
    this.onFailure = null;
    await Promise.all(all.map((w) => w.terminate()));
  }

  /**
   * After a failed scan the other workers are still busy with ranges nobody waits for: they are
   * dropped (their late messages are ignored) and told to stop, without waiting. Waiting is not
   * safe: terminating a worker in the middle of a range was seen to never emit its exit event
   * under load, which would hang the scan (and `terminate` refs the worker: unref'd again here).
   */
  private abandonWorkers(): void {
    const all = this.workers;
    this.workers = [];
    this.idle.length = 0;
    for (const w of all) {
      void w.terminate().catch(() => undefined);
      w.unref();
    }
  }

  async scan(path: string, start: number, end: number, fields: RolloutLensSettings['fields'], hooks: ParallelScanHooks): Promise<ParallelScanResult> {
    if (this.busy) throw new Error('WorkerPool.scan: one scan at a time');
    this.busy = true;
    try {
      const rangeBytes = this.rangeBytes ?? Math.max(8 << 20, Math.ceil((end - start) / (this.size * 8)));
      const cuts = await lineBoundaries(path, start, end, Math.max(1, Math.ceil((end - start) / rangeBytes)));
      const ranges: RangeState[] = cuts.slice(1).map((e, k) => ({ start: cuts[k], end: e, batches: [], done: null }));
      while (this.workers.length < Math.min(this.size, ranges.length)) this.idle.push(this.spawn());
      return await this.run(path, fields, ranges, hooks);
    } catch (err) {
      this.abandonWorkers();
      throw err;
    } finally {
      this.busy = false;
      this.onMessage = null;
      this.onFailure = null;
    }
  }

  private run(path: string, fields: RolloutLensSettings['fields'], ranges: RangeState[], hooks: ParallelScanHooks): Promise<ParallelScanResult> {
    return new Promise((resolve, reject) => {
      let nextJob = 0;
      let deliver = 0;
      let lines = 0;
      let inFlight = 0;
      let stopped = false;
      const finish = (result: ParallelScanResult | Error) => {
        if (stopped) return;
        stopped = true;
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const dispatch = () => {
        while (!stopped && nextJob < ranges.length && this.idle.length > 0) {
          const w = this.idle.pop() as Worker;
          w.ref();
          const r = ranges[nextJob];
          const job: ScanJob = { job: nextJob++, path, start: r.start, end: r.end, fields };
          inFlight++;
          this.rangesScanned++;
          w.postMessage(job);
        }
      };
      // Hands over every finished batch in file order; a range's lines wait until all before it are out.
      const flush = () => {
        while (!stopped && deliver < ranges.length) {
          const r = ranges[deliver];
          for (const batch of r.batches) {
            lines += batch.length;
            hooks.onLines(batch);
          }
          r.batches = [];
          if (r.done === null) return;
          const last = deliver === ranges.length - 1;
          if (!last && (r.done.pending !== null || r.done.endOffset !== r.end)) {
            finish(new Error('the file changed while it was read'));
            return;
          }
          hooks.onProgress?.(r.end);
          deliver++;
          if (last) {
            finish({ endOffset: r.done.endOffset, lines, pending: r.done.pending, cancelled: false });
            return;
          }
          if (hooks.isCancelled?.()) {
            nextJob = ranges.length; // dispatch no more; resolve once the running ranges are back
            if (inFlight === 0) finish({ endOffset: r.end, lines, pending: null, cancelled: true });
            stopped = inFlight === 0;
            if (inFlight > 0) cancelAfter = () => finish({ endOffset: r.end, lines, pending: null, cancelled: true });
            return;
          }
        }
      };
      let cancelAfter: (() => void) | null = null;
      this.onFailure = (err) => finish(err);
      this.onMessage = (w, m) => {
        if (m.type === 'error') {
          finish(new Error(m.message));
          return;
        }
        const r = ranges[m.job];
        if (m.type === 'lines') r.batches.push(m.lines);
        else {
          r.done = m;
          inFlight--;
          w.unref();
          this.idle.push(w);
          if (cancelAfter !== null) {
            if (inFlight === 0) cancelAfter();
            return;
          }
          dispatch();
        }
        if (m.job === deliver) flush();
      };
      dispatch();
    });
  }
}
