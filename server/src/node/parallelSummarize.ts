// `summarize --jobs <n>`: a run's files summarised on n threads, this one and n − 1 workers
// (`summarizeWorker.js`, beside this module's bundle). The workers are started first, before this
// thread lists the run's folder, so that their own start (a Node environment each) overlaps it.
// Every thread takes the next file itself from a counter they share (no thread waits for another
// to hand it one), so all are busy until the last file is taken. This thread takes files too: a
// worker's start costs CPU of its own, and this thread would otherwise mostly wait. The results
// come back in the run's file order, so the summary built from them is the one this thread alone
// builds (docs/compare.md#summarising-on-several-cores).
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';

import { attachPromptTable } from '../core/compare/attachedRows';
import { PromptTable } from '../core/compare/promptTable';
import type { RunPlan } from '../core/run/plan';
import { summarizeJob, type SummarizeBatch, type SummarizedResult, type SummarizeJob, takeNextJob } from './summarizeJob';

/** Cores from which `summarize` uses worker threads unless told (`--jobs`). */
const MIN_SUMMARIZE_WORKER_CORES = 4;

/** `--jobs` when not given: every core on 4 cores or more, else the main thread alone. */
export function defaultSummarizeJobs(cores = availableParallelism()): number {
  return cores >= MIN_SUMMARIZE_WORKER_CORES ? cores : 1;
}

/** Whether the worker script is there (a bundle without it summarises on the main thread). */
export function summarizeWorkersAvailable(script = summarizeWorkerScript()): boolean {
  return existsSync(script);
}

/** The worker script beside this bundle (tests run the compiled module beside its source's place). */
function summarizeWorkerScript(): string {
  return join(__dirname, 'summarizeWorker.js');
}

/**
 * This thread and `threads` − 1 workers, started at once; `run` gives them a batch of files at a
 * time. The workers keep the process alive until `close`.
 */
export class SummarizePool {
  private readonly workers: Worker[] = [];
  /** The running batch's failure, or null between batches. */
  private failBatch: ((err: Error) => void) | null = null;
  /** The running batch's handler of a worker's result. */
  private takeResult: ((r: SummarizedResult) => void) | null = null;
  private closing = false;

  constructor(threads: number, script = summarizeWorkerScript()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
    for (let i = 0; i < threads - 1; i++) {
      const w = new Worker(script);
      this.workers.push(w);
      w.on('error', (err) => this.failBatch?.(err));
      w.on('exit', (code) => {
        if (!this.closing) this.failBatch?.(new Error(`a summarize worker exited (${code}) before its file was done`));
      });
      w.on('message', (r: SummarizedResult) => this.takeResult?.(r));
    }
  }

  /**
   * Summarises `jobs` on every thread; `onResult` gets each result in the jobs' order (a result
   * that comes early waits for those before it). Resolves once every job has its result.
   */
  async run(plan: RunPlan, jobs: readonly SummarizeJob[], onResult: (result: SummarizedResult) => void): Promise<void> {
    if (jobs.length === 0) return;
    const counter = new Int32Array(new SharedArrayBuffer(4));
    const waiting = new Map<number, SummarizedResult>();
    let delivered = 0;
    let failed = false;
    try {
      await new Promise<void>((resolve, reject) => {
        this.failBatch = (err) => {
          failed = true;
          reject(err);
        };
        /** A result in; every result now in order handed on. */
        const take = (r: SummarizedResult) => {
          waiting.set(r.index, r);
          for (let got = waiting.get(delivered); got; got = waiting.get(delivered)) {
            waiting.delete(delivered++);
            try {
              onResult(withTable(got));
            } catch (err) {
              return this.failBatch?.(err as Error);
            }
          }
          if (delivered === jobs.length) resolve();
        };
        this.takeResult = take;
        const batch: SummarizeBatch = { plan, jobs, counter };
        for (const w of this.workers) w.postMessage(batch);
        // This thread's share: the next file whenever it is done with one. Its reads do not wait
        // (node/syncFileAccess.ts), so it stops after each file for the workers' results that came
        // meanwhile: in order they are merged now, not all at the end.
        void (async () => {
          for (let next = takeNextJob(counter); next < jobs.length && !failed; next = takeNextJob(counter)) {
            take(await summarizeJob(jobs[next], plan));
            await new Promise(setImmediate);
          }
        })().catch((err: Error) => this.failBatch?.(err));
      });
    } finally {
      this.failBatch = null;
      this.takeResult = null;
    }
  }

  /**
   * Stops the workers without waiting for them to be gone: a worker takes tens of ms to tear its
   * environment down, which the summary's writing need not wait for (the process exits after both).
   */
  close(): void {
    this.closing = true;
    for (const w of this.workers) void w.terminate();
  }
}

/** A result's file given back its prompt table. */
function withTable(r: SummarizedResult): SummarizedResult {
  if (r.type === 'summarized' && r.summarized && r.table) attachPromptTable(r.summarized.file, PromptTable.fromParts(r.table));
  return r;
}
