// The contract between the engine and a parallel line scanner (on Node: worker threads over byte
// ranges, `server/src/node/parallelScan.ts`). The engine stays free of platform modules: a caller
// that can run workers passes a `ParallelScanner`; without one (the language server's in-memory
// documents, a browser) every file is scanned on the calling thread.
import type { RolloutLensSettings } from '../settings';

import type { LineScan } from './lineScan';

/** One complete line, scanned; an `ok` value is in `encodeScanned` form. */
export interface ScannedLine {
  offset: number;
  /** Without the end-of-line. */
  byteLength: number;
  scan: LineScan;
}

export interface ParallelScanResult {
  /** Offset just after the last complete line. */
  endOffset: number;
  /** Complete lines scanned. */
  lines: number;
  /** A last line without `\n` (not scanned: the caller reads it). */
  pending: { offset: number; byteLength: number } | null;
  cancelled: boolean;
}

export interface ParallelScanHooks {
  /** Lines in file order (every complete line exactly once). */
  onLines: (lines: ScannedLine[]) => void;
  isCancelled?: () => boolean;
  /** Bytes of the file handled so far (absolute offset). */
  onProgress?: (position: number) => void;
}

export interface ParallelScanner {
  /** Whether `bytes` bytes of `path` are worth scanning in parallel (false: the caller scans them itself). */
  wants(path: string, bytes: number): boolean;
  /** Scans the lines of `path` in `[start, end)`; `start` is the first byte of a line. */
  scan(path: string, start: number, end: number, fields: RolloutLensSettings['fields'], hooks: ParallelScanHooks): Promise<ParallelScanResult>;
}
