// `has_repetition` verdicts whose tails a scan handed to another thread (reader/deflateJobs.ts):
// the per-line path (milesLine.ts) and the .pt reader push those rows as false and note them here;
// the scan settles them before it returns (reader/recordScan.ts, reader/pt/scanPt.ts).
import type { DeflateJobs } from '../reader/deflateJobs';
import type { SampleStore } from '../sampleStore';

import { isRepetitive } from './miles';

/** The pending verdicts of one scan. */
export class OffloadedVerdicts {
  /** Row, ticket and UTF-8 length of each tail, in threes. */
  private readonly rows: number[] = [];

  constructor(readonly jobs: DeflateJobs) {}

  add(row: number, ticket: number, utf8Length: number): void {
    this.rows.push(row, ticket, utf8Length);
  }

  /** Waits for the lengths and marks the repetitive rows of `store`. */
  async settle(store: SampleStore): Promise<void> {
    const lengths = await this.jobs.finish();
    const r = this.rows;
    for (let k = 0; k < r.length; k += 3) if (isRepetitive(r[k + 2], lengths[r[k + 1]])) store.markRepetitive(r[k]);
    r.length = 0;
  }
}
