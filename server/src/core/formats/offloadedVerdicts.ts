// `has_repetition` verdicts whose tails a scan handed to another thread (reader/deflateJobs.ts):
// the per-line path (milesSample/line.ts) and the .pt reader (scan/ptSampleRecord.ts) decide a
// response's verdict through `tailVerdict`, push the row as false when its tail was taken and note
// it here; the scan settles them before it returns (scan/lineFileScan.ts, scan/ptDumpScan.ts).
import type { DeflateJobs } from '../reader/deflateJobs';
import type { TextTail } from '../reader/textTail';
import type { SampleStore } from '../store/sampleStore';

import { isRepetitive, repetitionOfTail } from './miles';

/** The tail of the sample being read that `jobs` took (ticket -1: none): each reader keeps one, reset per sample. */
export interface PendingTail {
  ticket: number;
  utf8Length: number;
}

export function noPendingTail(): PendingTail {
  return { ticket: -1, utf8Length: 0 };
}

/**
 * `has_repetition` of a text whose tail is `tail`, or false while `jobs` compresses it
 * (`pending` then says which: the row is settled when the scan ends).
 */
export function tailVerdict(tail: TextTail | null, pending: PendingTail): boolean | string {
  if (tail === null || tail.deflateTicket === undefined) return repetitionOfTail(tail);
  pending.ticket = tail.deflateTicket;
  pending.utf8Length = tail.utf8Length;
  return false;
}

/** The pending verdicts of one scan. */
export class OffloadedVerdicts {
  /** Row, ticket and UTF-8 length of each tail, in threes. */
  private readonly rows: number[] = [];

  constructor(readonly jobs: DeflateJobs) {}

  /** Notes row `row` when its sample's tail was taken (`pending`). */
  notePending(row: number, pending: PendingTail): void {
    if (pending.ticket >= 0) this.rows.push(row, pending.ticket, pending.utf8Length);
  }

  /** Waits for the lengths and marks the repetitive rows of `store`. */
  async settle(store: SampleStore): Promise<void> {
    const lengths = await this.jobs.finish();
    const r = this.rows;
    for (let k = 0; k < r.length; k += 3) if (isRepetitive(r[k + 2], lengths[r[k + 1]])) store.markRepetitive(r[k]);
    r.length = 0;
  }
}
