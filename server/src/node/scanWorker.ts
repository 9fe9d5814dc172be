// A scan worker (bundled as `dist/scanWorker.js`): scans the lines of one byte range of a file with
// the same reader and line scanner as the single-threaded path and posts them back in batches.
// It only scans; detection, normalisation and findings stay on the main thread, in line order.
import { parentPort } from 'node:worker_threads';

import type { RolloutLensSettings } from '../../../shared/protocol';
import { buildRule } from '../core/formats/rule';
import { readLines } from '../core/reader/lineReader';
import { encodeParsedValue, parseLogLine } from '../core/reader/lineParse';
import { RuleParser } from '../core/reader/ruleParse';
import type { ScannedLine } from '../core/seams/hostSeams';
import { nodeFileAccess } from './nodeFileAccess';

export interface ScanJob {
  job: number;
  path: string;
  start: number;
  end: number;
  fields: RolloutLensSettings['fields'];
}

export type WorkerMessage =
  | { type: 'lines'; job: number; lines: ScannedLine[] }
  | { type: 'done'; job: number; endOffset: number; lines: number; pending: { offset: number; byteLength: number } | null }
  | { type: 'error'; job: number; message: string };

/** Lines per message: small enough to stream, big enough that posting costs little. */
const BATCH = 256;
/** The collector sniffs non-JSON lines for binary content only in a file's first 512 bytes of them. */
const SNIFF_WINDOW = 512;

async function run(job: ScanJob, post: (m: WorkerMessage) => void): Promise<void> {
  const rule = buildRule(job.fields);
  const parser = new RuleParser();
  let batch: ScannedLine[] = [];
  // The collector sniffs a non-JSON line only while no valid line came before it in the file and
  // fewer than 512 bytes of such lines were sniffed; the same test within this range is weaker, so
  // every line the collector wants sniffed has been.
  let sawValid = false;
  let sniffed = 0;
  const read = await readLines(nodeFileAccess, job.path, { startOffset: job.start, endOffset: job.end, startLine: 1 }, (ref) => {
    const sniff = !sawValid && sniffed < SNIFF_WINDOW;
    const scan = parseLogLine(ref.bytes, ref.start, ref.end, rule, sniff, parser);
    if (scan.type === 'ok') {
      sawValid = true;
      scan.value = encodeParsedValue(scan.value);
    } else if (scan.type === 'invalid' && sniff) {
      sniffed += ref.end - ref.start + 1;
    }
    batch.push({ offset: ref.offset, byteLength: ref.end - ref.start, scan });
    if (batch.length >= BATCH) {
      post({ type: 'lines', job: job.job, lines: batch });
      batch = [];
    }
  });
  if (batch.length > 0) post({ type: 'lines', job: job.job, lines: batch });
  const pending = read.pending ? { offset: read.pending.offset, byteLength: read.pending.bytes.length } : null;
  post({ type: 'done', job: job.job, endOffset: read.endOffset, lines: read.nextLine - 1, pending });
}

const port = parentPort;
if (port) {
  port.on('message', (job: ScanJob) => {
    const post = (m: WorkerMessage) => port.postMessage(m);
    run(job, post).catch((err: unknown) => post({ type: 'error', job: job.job, message: err instanceof Error ? err.message : String(err) }));
  });
}
