// What the host hands the server: file access (disk), timers, and tunables. Passed in, never
// global, so tests run several servers in one process and a browser worker can host one later.
import type { FileAccess } from '../core/seams/fileAccess';
import type { DeflateOffload } from '../core/reader/deflateJobs';

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface ServerRuntime {
  /** Disk access (Node fs in the bundle). Open documents are overlaid on it by the server. */
  access: FileAccess;
  /** Shares miles' has_repetition compression of files read whole with another thread; omitted: this one. */
  deflate?: DeflateOffload;
  timers?: Timers;
  /** Quiet time after an edit before a document is analysed (short: an edit re-scans only its lines). */
  debounceMs?: number;
  /** Poll interval for tailed files when no watch event comes; 0 turns polling off. */
  pollIntervalMs?: number;
  /** Most groups listed as document symbols. */
  maxSymbols?: number;
}

export const DEFAULTS = {
  debounceMs: 20,
  pollIntervalMs: 2000,
  maxSymbols: 2000,
} as const;

export const nodeTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
};
