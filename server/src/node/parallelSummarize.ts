// `summarize --jobs <n>`: a run's files summarised on n worker threads (`summarizeWorker.js`,
// beside this module's bundle), one file at a time each (and the next already sent), the next
// file to whichever is done. The
// results come back in the run's file order, so the summary built from them is the one the
// main thread alone builds (docs/compare.md#summarising-on-several-cores).
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';

import { PromptTable, attachPromptTable } from '../core/compare/promptTable';
import type { RunPlan } from '../core/run/plan';
import type { SummarizedResult, SummarizeJob, SummarizeSetup } from './summarizeWorker';

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
 * Summarises `jobs` on `threads` workers; `onResult` gets each result in the jobs' order (a
 * result that comes early waits for those before it). Resolves once every job has its result.
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
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      if (jobs.length === 0) return resolve();
      const feed = (w: Worker) => {
        if (next < jobs.length) w.postMessage(jobs[next++]);
      };
      for (let i = 0; i < Math.min(threads, jobs.length); i++) {
        const w = new Worker(script);
        workers.push(w);
        w.on('error', reject);
        w.on('exit', (code) => {
          if (delivered < jobs.length) reject(new Error(`a summarize worker exited (${code}) before its file was done`));
        });
        w.on('message', (r: SummarizedResult) => {
          waiting.set(r.index, r);
          feed(w);
          for (let got = waiting.get(delivered); got; got = waiting.get(delivered)) {
            waiting.delete(delivered++);
            try {
              onResult(withTable(got));
            } catch (err) {
              reject(err as Error);
              return;
            }
          }
          if (delivered === jobs.length) resolve();
        });
        w.postMessage({ plan } satisfies SummarizeSetup);
        // Two files a worker at first, then one more as each is done: a worker has its next file
        // while the main thread is busy with a result (on 2 cores it shares one with the workers).
        feed(w);
        feed(w);
      }
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
