// The contract between the engine and a thread that compresses for it. miles' `has_repetition`
// compresses the end of every response longer than 10 000 characters (docs/semantics.md#miles-sample-metrics);
// on files of long responses that is most of a scan's work, and a verdict is only read once the
// file is analysed. A caller that can run a thread (on Node: `server/src/node/deflateThread.ts`)
// passes a `DeflateOffload`: while a file is read, the tails go to the other thread when it has room,
// and the scan settles their verdicts before it returns. The engine stays free of platform modules;
// without an offload (the language server's documents, a browser) every tail is compressed as it
// is read.

/** One scan's share of the other thread's work. */
export interface DeflateJobs {
  /**
   * Takes a copy of `bytes` to compute `zlibLength(bytes, 9)` elsewhere: its ticket (0, 1, … in
   * the order offered), or -1 when the caller must compute it now (the thread is not started yet,
   * busy with earlier tails, or gone).
   */
  offer(bytes: Uint8Array): number;
  /** Every offered ticket's length, by ticket; rejects when the thread failed. */
  finish(): Promise<Int32Array>;
}

export interface DeflateOffload {
  /** A new scan's jobs (tickets from 0). */
  start(): DeflateJobs;
}
