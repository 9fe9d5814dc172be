// A summarize worker (bundled as `dist/summarizeWorker.js`) of `summarize --jobs <n>`
// (node/parallelSummarize.ts): given a batch of files, it takes the next one from the counter the
// batch shares with the other threads until none is left, each summarised by summarizeJob.ts and
// posted back as soon as it is done.
import { parentPort } from 'node:worker_threads';

import { summarizeJob, type SummarizeBatch, type SummarizedResult, takeNextJob } from './summarizeJob';

const port = parentPort;
if (port) {
  // Batches one after the other: a batch's last file is done before the next batch is read.
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (batch: SummarizeBatch) => {
    queue = queue.then(() => runBatch(batch));
  });
  const post = (r: SummarizedResult) =>
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
    );
  const runBatch = async ({ plan, jobs, counter }: SummarizeBatch) => {
    for (let next = takeNextJob(counter); next < jobs.length; next = takeNextJob(counter)) post(await summarizeJob(jobs[next], plan));
  };
}
