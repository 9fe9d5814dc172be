// A summarize worker (bundled as `dist/summarizeWorker.js`): `summarize --jobs <n>` hands each of
// n − 1 of these one file at a time (node/parallelSummarize.ts), summarised by summarizeJob.ts.
import { parentPort } from 'node:worker_threads';

import type { RunPlan } from '../core/run/plan';
import { summarizeJob, type SummarizeJob, type SummarizeSetup } from './summarizeJob';

const port = parentPort;
if (port) {
  let plan: RunPlan | null = null;
  // Jobs one after the other: the main thread sends the next before this one is done (so the
  // worker never waits for it), and two files read at once would only hold twice the memory.
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (m: SummarizeSetup | SummarizeJob) => {
    if ('plan' in m) {
      plan = m.plan;
      return;
    }
    queue = queue.then(() => run(m));
  });
  const run = (m: SummarizeJob) =>
    summarizeJob(m, plan!).then((r) =>
      port.postMessage(
        r,
        r.type === 'summarized' && r.table
          ? [
              r.table.spans.buffer as ArrayBuffer,
              r.table.ints.buffer as ArrayBuffer,
              r.table.rewardSums.buffer as ArrayBuffer,
              r.table.tokens.buffer as ArrayBuffer,
            ]
          : [],
      ),
    );
}
