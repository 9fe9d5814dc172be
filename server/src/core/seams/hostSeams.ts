// The seams between the engine and its host, in one place: what a host hands the engine so that
// the engine stays free of platform modules (docs/architecture.md, "Seams").
// - FileAccess (seams/fileAccess.ts): reading files; Node's is server/src/node/nodeFileAccess.ts.
// - ParallelScanner (below): a parallel line scanner; on Node worker threads over byte ranges
//   (`server/src/node/parallelScan.ts`). Without one (the language server's in-memory documents, a
//   browser) every file is scanned on the calling thread.
// - DeflateOffload (reader/deflateJobs.ts): a thread that compresses response tails for miles'
//   `has_repetition`; on Node `server/src/node/deflateThread.ts`.
// - PathOps (below): path operations for the eval-config lookup; the engine has its own (`plainPaths`).
import type { RolloutLensSettings } from '../vocabulary/settings';

import type { ParsedLogLine } from '../reader/lineParse';

export type { FileAccess } from './fileAccess';
export type { DeflateJobs, DeflateOffload } from '../reader/deflateJobs';

/** One complete line, scanned; an `ok` value is in `encodeParsedValue` form. */
export interface ScannedLine {
  offset: number;
  /** Without the end-of-line. */
  byteLength: number;
  scan: ParsedLogLine;
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

/** The path operations the eval-config lookup needs; the server hands in Node's, the engine uses its own. */
export interface PathOps {
  isAbsolute(p: string): boolean;
  join(dir: string, name: string): string;
  dirname(p: string): string;
  /** True when `child` is `parent` or inside it. */
  isInside(parent: string, child: string): boolean;
}
