// `summarize --jobs <n>`: a run's files summarised on n threads, this one and n − 1 workers
// (`summarizeWorker.js`, beside this module's bundle), one file at a time each (a worker's next
// already sent), the next file to whichever is done. This thread takes files too: a worker's
// start costs ~0.15 s of CPU (a Node environment of its own), a fifth of summarising 200 files of
// ~1.4 MB, and this thread would otherwise mostly wait. The results come back in the run's file
// order, so the summary built from them is the one this thread alone builds
// (docs/compare.md#summarising-on-several-cores).
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';

import { attachPromptTable } from '../core/compare/attachedRows';
import { PromptTable } from '../core/compare/promptTable';
import type { RunPlan } from '../core/run/plan';
import { summarizeJob, type SummarizedResult, type SummarizeJob, type SummarizeSetup } from './summarizeJob';

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
 * Summarises `jobs` on `threads` threads (this one and `threads` − 1 workers); `onResult` gets
 * each result in the jobs' order (a result that comes early waits for those before it). Resolves
 * once every job has its result.
 */
export async function summarizeOnWorkers(
  plan: RunPlan,
  jobs: readonly SummarizeJob[],
  threads: number,
  onResult: (result: SummarizedResult) => void,
  script = summarizeWorkerScript(),
): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
  const waiting = new Map<number, SummarizedResult>();
  let next = 0;
  let delivered = 0;
  let failed = false;
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      if (jobs.length === 0) return resolve();
      const fail = (err: Error) => {
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
            return fail(err as Error);
          }
        }
        if (delivered === jobs.length) resolve();
      };
      const feed = (w: Worker) => {
        if (next < jobs.length) w.postMessage(jobs[next++]);
      };
      for (let i = 0; i < Math.min(threads - 1, jobs.length - 1); i++) {
        const w = new Worker(script);
        workers.push(w);
        w.on('error', fail);
        w.on('exit', (code) => {
          if (delivered < jobs.length) fail(new Error(`a summarize worker exited (${code}) before its file was done`));
        });
        w.on('message', (r: SummarizedResult) => {
          feed(w);
          take(r);
        });
        w.postMessage({ plan } satisfies SummarizeSetup);
        // Two files a worker at first, then one more as each is done: a worker has its next file
        // while this thread is busy with a file or a result.
        feed(w);
        feed(w);
      }
      // This thread's share: the next file whenever it is done with one (a worker's messages are
      // taken between its reads).
      void (async () => {
        while (next < jobs.length && !failed) take(await summarizeJob(jobs[next++], plan));
      })().catch(fail);
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** A result's file given back its prompt table. */
function withTable(r: SummarizedResult): SummarizedResult {
  if (r.type === 'summarized' && r.summarized && r.table) attachPromptTable(r.summarized.file, PromptTable.fromParts(r.table));
  return r;
}
