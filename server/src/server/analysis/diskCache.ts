// Files analysed from disk for the run views (a file or a run folder the client asks about).
// Cached by the file's stamp (size, mtime, identity) and dropped when settings change; bounded by
// files and by samples held, so a run folder of thousands of steps, or of millions of samples,
// does not keep every step's detail alive: a file over the sample budget is answered and not kept
// (its detail is read again when an editor asks for it; BENCHMARKS.md, "Run view over a large run
// folder").
import type { CancellationToken } from 'vscode-languageserver';
import { fileStamp, type FileAccess } from '../../core/seams/fileAccess';
import type { DeflateOffload } from '../../core/reader/deflateJobs';
import { sampleCount } from '../../core/inspect';
import { walkPaths } from '../../core/locate/walk';
import { runAnalysis, type FileAnalysis } from './fileAnalysis';
import type { SettingsCache } from './settingsCache';
import { pathToUri } from '../documents/uris';

const MAX_CACHED_FILES = 256;
/** Samples held over all cached files (their per-sample detail and findings are what cost memory). */
const MAX_CACHED_SAMPLES = 250_000;
const MAX_WALK_FILES = 10_000;
const MAX_WALK_DEPTH = 16;
/** Folders listed per walk: a client may name `/` or `/proc/self` (whose `root` link is `/`). */
const MAX_WALK_DIRS = 5_000;

/**
 * How much per-sample detail a result keeps: records (what an open document has), the scan's
 * columnar store with each group's verdict (the run view, the Groups view of one file, the sample
 * view), or none: the report's counts and metrics only, without findings either (what a folder's
 * Groups view and the run's drop counts read). A held result answers a request for its own form
 * or a lesser one. Findings are kept as `check` keeps them (the most severe `maxProblems` per file, core/findingCap.ts).
 */
export type DetailForm = 'records' | 'store' | 'none';
const RANK: Record<DetailForm, number> = { none: 0, store: 1, records: 2 };

interface Entry {
  stamp: string;
  form: DetailForm;
  result: FileAnalysis;
  samples: number;
}

/**
 * What a result costs to hold, in samples: those of its detail and its findings (a finding, with
 * its message and related lines, weighs about what a record does).
 */
function samplesOf(result: FileAnalysis): number {
  const detail = result.report?.detail;
  return (detail ? sampleCount(detail) : 0) + result.findings.length;
}

/** A view's small summary of one file (the run view's part of it), kept by the stamp the file had when it was read. */
interface HeldPart {
  stamp: string;
  key: string;
  evalConfig: string | null;
  value: unknown;
}

/** Summaries kept: one per file of the largest walk. */
const MAX_HELD_PARTS = MAX_WALK_FILES;

export class DiskCache {
  private readonly cache = new Map<string, Entry>();
  private samples = 0;
  /** The stamp each result's file had when it was read (a summary made from that result is kept under it). */
  private readonly readStamps = new WeakMap<FileAnalysis, string>();
  private readonly parts = new Map<string, HeldPart>();

  constructor(
    private readonly access: FileAccess,
    private readonly settings: SettingsCache,
    private readonly folders: readonly string[],
    private readonly warn: (message: string) => void,
    private readonly maxSamples = MAX_CACHED_SAMPLES,
    private readonly deflate?: DeflateOffload,
  ) {}

  clear(): void {
    this.cache.clear();
    this.samples = 0;
    this.parts.clear();
  }

  /**
   * A summary of `path` kept under `key` by `keepPart`, while the file has the stamp it had when it
   * was read for it (a file that grew or changed since is read again).
   */
  async heldPart<T>(path: string, key: string): Promise<T | undefined> {
    const held = this.parts.get(path);
    if (!held || held.key !== key) return undefined;
    const st = await this.access.stat(path).catch(() => null);
    if (!st || fileStamp(st) !== held.stamp) return undefined;
    return held.value as T;
  }

  /** Keeps a summary of the result `analyze` gave for `path` (under the stamp the file had when it was read). */
  keepPart(path: string, key: string, result: FileAnalysis, value: unknown): void {
    const stamp = this.readStamps.get(result);
    if (stamp === undefined) return;
    this.parts.delete(path);
    this.parts.set(path, { stamp, key, evalConfig: result.evalConfig, value });
    while (this.parts.size > MAX_HELD_PARTS) this.parts.delete(this.parts.keys().next().value!);
  }

  /** Files and samples held now. */
  held(): { files: number; samples: number } {
    return { files: this.cache.size, samples: this.samples };
  }

  /** Whether the result of this path is kept (else it lives only as long as its caller holds it). */
  holds(path: string): boolean {
    return this.cache.has(path);
  }

  private forget(path: string): void {
    const entry = this.cache.get(path);
    if (!entry) return;
    this.cache.delete(path);
    this.samples -= entry.samples;
  }

  /** Forgets the results that used this eval config. */
  dropDependents(configPath: string): void {
    for (const [path, entry] of this.cache) if (entry.result.evalConfig === configPath) this.forget(path);
    for (const [path, held] of this.parts) if (held.evalConfig === configPath) this.parts.delete(path);
  }

  /** A held result answers a request for its own detail form or a lesser one. */
  async analyze(path: string, token: CancellationToken, form: DetailForm = 'records'): Promise<FileAnalysis> {
    const st = await this.access.stat(path);
    const stamp = fileStamp(st);
    const hit = this.cache.get(path);
    if (hit && hit.stamp === stamp && RANK[hit.form] >= RANK[form]) {
      this.cache.delete(path); // re-insert: most recently used last
      this.cache.set(path, hit);
      return hit.result;
    }
    this.forget(path); // a stale result is not kept alive while its file is read again
    const uri = pathToUri(path);
    const analysed = await runAnalysis({
      uri,
      path,
      version: null,
      access: this.access,
      deflate: this.deflate,
      settings: await this.settings.get(uri),
      workspaceFolders: this.folders,
      cancellation: token,
      onConfigProblem: this.warn,
      keepDetail: form === 'records' ? true : form === 'store' ? 'store' : false,
    });
    const result = form === 'none' ? { ...analysed, findings: [], ownFindings: [] } : analysed;
    this.readStamps.set(result, stamp);
    this.forget(path);
    const samples = samplesOf(result);
    // Over the budget alone: answered, not kept (the caller drops it once its view is made).
    if (samples > this.maxSamples) return result;
    this.cache.set(path, { stamp, form, result, samples });
    this.samples += samples;
    while (this.cache.size > MAX_CACHED_FILES || this.samples > this.maxSamples) this.forget(this.cache.keys().next().value!);
    return result;
  }

  /** Log files under a folder (the engine's walk, bounded); what it could not list is logged. */
  async walk(folder: string, token: CancellationToken): Promise<string[]> {
    const walk = await walkPaths([folder], this.access, {
      maxFiles: MAX_WALK_FILES,
      maxDepth: MAX_WALK_DEPTH,
      maxDirs: MAX_WALK_DIRS,
      isCancelled: () => token.isCancellationRequested,
    });
    for (const p of walk.problems) this.warn(`rollout-lens: ${p.message}`);
    return walk.targets.map((t) => t.path);
  }
}
