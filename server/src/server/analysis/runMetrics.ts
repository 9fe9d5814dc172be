// Run-level findings in the editor (docs/editors.md#run-level-findings): an open metrics log
// (`metrics.jsonl`) is compared with what the other files of its run recomputed, as `check <run
// folder>` compares it (core/engine.ts `RunAnalyzer.finish`, core/eval/compareMetrics.ts).
//
// The run of a metrics log is the folder of the run settings file nearest above it (its
// `rollout-lens.yaml`), else the log's own folder; its members are the log files the engine's walk
// finds there that share that settings file (the files `check` analyses together). What each
// member recomputed comes from the open document when it is open, else from disk, cached per file
// by its stamp (size, mtime, identity). Disk members are read in the background, one at a time,
// cancellable; the metrics log is re-analysed (cheap: its scans are kept) when what it was
// compared with changes. A member that changed on disk is shown with its previous figures until
// it has been read again, so the findings do not flicker.
import { CancellationTokenSource, type CancellationToken } from 'vscode-languageserver';
import { metricsLogFindings, type RecomputedMetrics } from '../../core/run/metricsLog';
import { fileStamp, type FileAccess, type FileStat } from '../../core/seams/fileAccess';
import type { DeflateOffload } from '../../core/reader/deflateJobs';
import { parentDir } from '../../core/locate/paths';
import { walkPaths } from '../../core/locate/walk';
import { filesToRead, planRun } from '../../core/run/plan';
import type { Finding } from '../../core/vocabulary/types';
import { recomputeFromDisk, type FileAnalysis } from './fileAnalysis';
import type { RunSettingsFiles } from './runSettingsFiles';
import type { SettingsCache } from './settingsCache';
import type { Timers } from '../runtime';
import { describeError } from '../describeError';
import { isInside, pathToUri } from '../documents/uris';

const MAX_WALK_FILES = 10_000;
const MAX_WALK_DEPTH = 16;
const MAX_WALK_DIRS = 5_000;
/** Disk members whose figures are kept (each a few dozen numbers). */
const MAX_CACHED = 20_000;
/** While the background read of a big run goes on, the metrics logs are refreshed at most this often. */
const PROGRESS_REFRESH_MS = 1000;

export interface RunMetricsOptions {
  access: FileAccess;
  deflate?: DeflateOffload;
  settings: SettingsCache;
  runFiles: RunSettingsFiles;
  folders: readonly string[];
  timers: Timers;
  pollIntervalMs: number;
  /**
   * The open log document at `path`: its analysis at the current version, null while that is
   * pending (its result will be handed to `memberResult`), undefined when it is not open.
   */
  openResult(path: string): FileAnalysis | null | undefined;
  /** Analyse the open metrics log again (debounced by the document scheduler). */
  reanalyze(uri: string): void;
  warn(message: string): void;
  now(): number;
}

interface Run {
  root: string;
  /** The settings file the run's files share ('' for none). */
  settingsFile: string;
  /** Member paths in the walk's order (null: walk again). */
  members: Promise<string[]> | null;
}

interface MetricsLog {
  uri: string;
  path: string;
  run: Run;
  /** What each member contributed at the last comparison (signature), to tell when it changed. */
  used: Map<string, string>;
}

interface Cached {
  stamp: string;
  /** False once its file, eval config or settings changed: shown until read again. */
  fresh: boolean;
  recomputed: RecomputedMetrics | null;
  evalConfig: string | null;
  isEval: boolean;
}

function signature(r: RecomputedMetrics | null): string {
  return r === null ? 'none' : JSON.stringify([r.file, r.step, r.metrics, r.wrongMetrics ?? null]);
}

export class RunMetrics {
  private readonly logs = new Map<string, MetricsLog>();
  private readonly runs = new Map<string, Run>();
  private readonly cache = new Map<string, Cached>();
  private readonly queue = new Set<string>();
  private reading: CancellationTokenSource | null = null;
  private draining = false;
  private lastRefresh = 0;
  private poll: unknown;
  private disposed = false;

  constructor(private readonly opts: RunMetricsOptions) {}

  /**
   * An open document was analysed. A metrics log gets its run's comparison added to its findings;
   * any other result is returned as is.
   */
  async complete(result: FileAnalysis, token: CancellationToken): Promise<FileAnalysis> {
    if (result.report?.kind !== 'metrics' || !result.uri.startsWith('file:')) {
      this.forgetLog(result.uri);
      return result;
    }
    let log = this.logs.get(result.uri);
    const run = await this.runOf(result.path);
    if (!log || log.run !== run) {
      log = { uri: result.uri, path: result.path, run, used: new Map() };
      this.logs.set(result.uri, log);
      this.ensurePolling();
    }
    const members = await this.membersOf(run, token);
    if (token.isCancellationRequested) return result;
    const recomputed: RecomputedMetrics[] = [];
    const used = new Map<string, string>();
    for (const path of members) {
      if (path === result.path) continue;
      const open = this.opts.openResult(path);
      if (open !== undefined) {
        // Open: the document's text counts. Pending: its result will ask for a new comparison.
        used.set(path, open === null ? 'pending' : signature(open.recomputed));
        if (open?.recomputed) recomputed.push(open.recomputed);
        continue;
      }
      const entry = this.cache.get(path);
      if (!entry || !entry.fresh || (await this.stampChanged(path, entry))) this.enqueue(path);
      used.set(path, entry ? signature(entry.recomputed) : 'unread');
      if (entry?.recomputed) recomputed.push(entry.recomputed);
    }
    log.used = used;
    this.drain();
    const records = result.report.detail?.metricsRecords ?? [];
    const mismatches = metricsLogFindings(result.path, records, recomputed);
    if (mismatches.length === 0) return result;
    const findings: Finding[] = result.ownFindings.concat(mismatches).sort((a, b) => a.line - b.line);
    return { ...result, findings };
  }

  /** An open document's new result: the metrics logs it is compared with are compared again. */
  memberResult(result: FileAnalysis): void {
    const sig = signature(result.recomputed);
    for (const log of this.logs.values()) {
      const before = log.used.get(result.path);
      if (before !== undefined && before !== sig) this.opts.reanalyze(log.uri);
    }
  }

  /** A log file changed on disk, was created or deleted, or its open document closed. */
  fileChanged(path: string, membership: boolean): void {
    const entry = this.cache.get(path);
    if (entry) entry.fresh = false;
    for (const run of this.runs.values()) {
      if (!isInside(run.root, path)) continue;
      if (membership) run.members = null;
      for (const log of this.logs.values()) if (log.run === run && (membership || log.used.has(path))) this.opts.reanalyze(log.uri);
    }
  }

  /** An eval config changed: eval members read with it (or without one, when one may have appeared) are read again. */
  evalConfigChanged(path: string, isConfigName: boolean): void {
    let any = false;
    for (const entry of this.cache.values()) {
      if (entry.evalConfig === path || (isConfigName && entry.isEval && entry.evalConfig === null)) {
        entry.fresh = false;
        any = true;
      }
    }
    if (any) for (const log of this.logs.values()) this.opts.reanalyze(log.uri);
  }

  /** Settings changed (the open documents are analysed again, and with them the metrics logs). */
  settingsChanged(): void {
    for (const entry of this.cache.values()) entry.fresh = false;
    this.runs.clear();
    this.reading?.cancel();
  }

  /** The document closed or is no longer a metrics log. */
  forgetLog(uri: string): void {
    if (!this.logs.delete(uri)) return;
    if (this.logs.size === 0) this.stopPolling();
  }

  dispose(): void {
    this.disposed = true;
    this.stopPolling();
    this.reading?.cancel();
    this.queue.clear();
    this.logs.clear();
  }

  private async runOf(path: string): Promise<Run> {
    const dir = parentDir(path) ?? path;
    const settingsFile = (await this.opts.runFiles.fileFor(dir)) ?? '';
    const root = settingsFile ? (parentDir(settingsFile) ?? dir) : dir;
    const key = `${root}\u0000${settingsFile}`;
    let run = this.runs.get(key);
    if (!run) {
      run = { root, settingsFile, members: null };
      this.runs.set(key, run);
    }
    return run;
  }

  private membersOf(run: Run, token: CancellationToken): Promise<string[]> {
    if (!run.members) {
      const walking = this.walk(run, token);
      run.members = walking;
      // A cancelled walk is incomplete: walk again next time.
      void walking.then(() => {
        if (token.isCancellationRequested && run.members === walking) run.members = null;
      });
    }
    return run.members;
  }

  private async walk(run: Run, token: CancellationToken): Promise<string[]> {
    const walk = await walkPaths([run.root], this.opts.access, {
      maxFiles: MAX_WALK_FILES,
      maxDepth: MAX_WALK_DEPTH,
      maxDirs: MAX_WALK_DIRS,
      isCancelled: () => token.isCancellationRequested,
    });
    for (const p of walk.problems) this.opts.warn(`rollout-lens: ${p.message}`);
    const members: string[] = [];
    // What `check` reads of the folder: files that only describe a step (core/run/plan.ts) are not.
    const walked = walk.targets.map((t) => ({ path: t.path, displayPath: t.path }));
    for (const { path } of filesToRead(planRun(walked, [run.root]), walked)) {
      const dir = parentDir(path) ?? path;
      // The files `check` analyses with this one: those that share its run settings file.
      if (((await this.opts.runFiles.fileFor(dir)) ?? '') === run.settingsFile) members.push(path);
    }
    return members;
  }

  private async stampChanged(path: string, entry: Cached): Promise<boolean> {
    try {
      return fileStamp(await this.opts.access.stat(path)) !== entry.stamp;
    } catch {
      return true;
    }
  }

  private enqueue(path: string): void {
    this.queue.add(path);
  }

  /** Reads queued members one at a time; refreshes the metrics logs as their figures arrive. */
  private drain(): void {
    if (this.draining || this.disposed || this.queue.size === 0) return;
    this.draining = true;
    void this.readQueued().finally(() => {
      this.draining = false;
      if (this.queue.size > 0) this.drain();
    });
  }

  private async readQueued(): Promise<void> {
    const source = new CancellationTokenSource();
    this.reading = source;
    const changed = new Set<string>();
    try {
      while (this.queue.size > 0 && !source.token.isCancellationRequested) {
        const path = this.queue.values().next().value!;
        this.queue.delete(path);
        if (this.opts.openResult(path) !== undefined) continue; // opened meanwhile: its document counts
        if (await this.read(path, source.token)) changed.add(path);
        if (changed.size > 0 && this.opts.now() - this.lastRefresh >= PROGRESS_REFRESH_MS) this.refresh(changed);
      }
    } finally {
      if (this.reading === source) this.reading = null;
      source.dispose();
      this.refresh(changed);
    }
  }

  /** True when the member's figures changed. */
  private async read(path: string, token: CancellationToken): Promise<boolean> {
    let stat: FileStat;
    try {
      stat = await this.opts.access.stat(path);
    } catch {
      const had = this.cache.delete(path);
      return had;
    }
    const stamp = fileStamp(stat);
    const before = this.cache.get(path);
    if (before && before.fresh && before.stamp === stamp) return false;
    const uri = pathToUri(path);
    try {
      const found = await this.opts.settings.withProblem(uri);
      const { recomputed, evalConfig, isEval } = await recomputeFromDisk({
        uri,
        path,
        version: null,
        access: this.opts.access,
        deflate: this.opts.deflate,
        settings: found.settings,
        workspaceFolders: this.opts.folders,
        cancellation: token,
      });
      this.cache.delete(path);
      this.cache.set(path, { stamp, fresh: true, recomputed, evalConfig, isEval });
      while (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      return !before || signature(before.recomputed) !== signature(recomputed);
    } catch (err) {
      if (token.isCancellationRequested) {
        this.queue.add(path); // read again when the reading resumes
        return false;
      }
      // Unreadable or not a log the engine can read: it adds nothing to the comparison.
      this.opts.warn(`rollout-lens: reading ${path} for its run failed: ${describeError(err)}`);
      this.cache.set(path, { stamp, fresh: true, recomputed: null, evalConfig: null, isEval: false });
      return before?.recomputed != null;
    }
  }

  private refresh(changed: Set<string>): void {
    if (changed.size === 0) return;
    this.lastRefresh = this.opts.now();
    for (const log of this.logs.values()) if ([...changed].some((p) => log.used.has(p))) this.opts.reanalyze(log.uri);
    changed.clear();
  }

  /** Clients without file watching: members' stamps are polled while a metrics log is open. */
  private ensurePolling(): void {
    if (this.poll !== undefined || this.opts.pollIntervalMs <= 0) return;
    this.poll = this.opts.timers.setInterval(() => void this.pollOnce(), this.opts.pollIntervalMs);
  }

  private stopPolling(): void {
    if (this.poll !== undefined) this.opts.timers.clearInterval(this.poll);
    this.poll = undefined;
  }

  private async pollOnce(): Promise<void> {
    const paths = new Set<string>();
    for (const log of this.logs.values()) for (const p of log.used.keys()) paths.add(p);
    let any = false;
    for (const path of paths) {
      const entry = this.cache.get(path);
      if (!entry || !entry.fresh || this.queue.has(path) || this.opts.openResult(path) !== undefined) continue;
      if (await this.stampChanged(path, entry)) {
        entry.fresh = false;
        this.queue.add(path);
        any = true;
      }
    }
    if (any) this.drain();
  }
}
