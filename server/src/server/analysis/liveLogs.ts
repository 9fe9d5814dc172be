// Files analysed from disk and kept up to date while training writes them (live logs): each
// tailed file is re-read when a file-watch event names it or, as a fallback, when a poll sees its
// stamp (size, mtime, identity) change. A grown file resumes from where the last read stopped;
// a shrunk or replaced one (other identity) is read again from the start, so nothing is lost or
// counted twice. One update per file at a time; events during an update coalesce into one more.
import { CancellationTokenSource, type CancellationToken, type Connection } from 'vscode-languageserver';
import type { FileAccess, FileStat } from '../../core/seams/fileAccess';
import type { DeflateOffload } from '../../core/reader/deflateJobs';
import type { FileAnalysis } from './fileAnalysis';
import { describeError } from '../describeError';
import type { Publisher } from '../diagnostics/publisher';
import type { Timers } from '../runtime';
import type { SettingsCache } from './settingsCache';
import { Tailer } from './tailer';

export interface LiveLogsOptions {
  connection: Connection;
  timers: Timers;
  access: FileAccess;
  deflate?: DeflateOffload;
  settings: SettingsCache;
  publisher: Publisher;
  folders: readonly string[];
  pollIntervalMs: number;
  /** True while the URI is open as a document (then the document's own result is shown). */
  isOpen?: (uri: string) => boolean;
}

interface Tracked {
  path: string;
  uri: string;
  tailer: Tailer;
  stat: FileStat | null;
  result: FileAnalysis | null;
  running: Promise<void> | null;
  /** Another update was asked for while one ran. */
  again: boolean;
  /** Forces an update although the file's stamp did not change (settings or eval config changed; the engine's scan still resumes when it can). */
  force: boolean;
  source: CancellationTokenSource | null;
}

export interface TrackOptions {
  token: CancellationToken;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
}

function changed(a: FileStat | null, b: FileStat): boolean {
  return !a || a.size !== b.size || a.mtimeMs !== b.mtimeMs || a.id !== b.id;
}

export class LiveLogs {
  private readonly tracked = new Map<string, Tracked>();
  private poll: unknown;

  constructor(private readonly opts: LiveLogsOptions) {}

  resultByPath(path: string): FileAnalysis | undefined {
    return this.tracked.get(path)?.result ?? undefined;
  }

  results(): FileAnalysis[] {
    return [...this.tracked.values()].flatMap((t) => (t.result ? [t.result] : []));
  }

  /**
   * Analyses a file from disk (with progress and cancellation) and keeps tailing it. A cancelled
   * first read leaves nothing tracked.
   */
  async track(path: string, uri: string, opts: TrackOptions): Promise<FileAnalysis> {
    let t = this.tracked.get(path);
    const isNew = !t;
    if (!t) {
      t = { path, uri, tailer: new Tailer(path, uri), stat: null, result: null, running: null, again: false, force: true, source: null };
      this.tracked.set(path, t);
    }
    t.force = true;
    try {
      await this.update(t, opts);
    } catch (err) {
      if (isNew) this.tracked.delete(path);
      throw err;
    }
    this.ensurePolling();
    return t.result!;
  }

  untrack(path: string): void {
    const t = this.tracked.get(path);
    t?.source?.cancel();
    this.tracked.delete(path);
  }

  /**
   * A delete event. A log replaced by rename can report "deleted" while the new file is already
   * there, so the file is checked: still there → re-read; gone → stop tailing, clear its diagnostics.
   */
  deleted(path: string): void {
    const t = this.tracked.get(path);
    if (!t) return;
    void this.opts.access.stat(path).then(
      () => this.kick(t),
      () => {
        if (this.tracked.get(path) !== t) return;
        this.untrack(path);
        if (!this.opts.isOpen?.(t.uri)) this.opts.publisher.clear(t.uri);
      },
    );
  }

  /** A watched file changed on disk. */
  fileEvent(path: string): void {
    const t = this.tracked.get(path);
    if (t) this.kick(t);
  }

  reanalyzeAll(): void {
    for (const t of this.tracked.values()) {
      t.force = true;
      this.kick(t);
    }
  }

  dependencyChanged(path: string): void {
    for (const t of this.tracked.values()) {
      if (t.result?.evalConfig === path) {
        t.force = true;
        this.kick(t);
      }
    }
  }

  /** The document view of a tailed file closed: its disk result is shown again. */
  documentClosed(uri: string): void {
    for (const t of this.tracked.values()) if (t.uri === uri && t.result) this.opts.publisher.resultReady(t.result);
  }

  dispose(): void {
    if (this.poll !== undefined) this.opts.timers.clearInterval(this.poll);
    this.poll = undefined;
    for (const t of this.tracked.values()) t.source?.cancel();
    this.tracked.clear();
  }

  /** Runs an update now, or marks one to run after the current one. Errors are logged. */
  private kick(t: Tracked): void {
    if (t.running) {
      t.again = true;
      return;
    }
    const source = new CancellationTokenSource();
    void this.update(t, { token: source.token }).catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException)?.code === 'ENOENT') return this.deleted(t.path); // gone mid-read
      this.opts.connection.console.error(`rollout-lens: re-reading ${t.path} failed: ${describeError(err)}`);
    });
  }

  private async update(t: Tracked, opts: TrackOptions): Promise<void> {
    while (t.running) await t.running.catch(() => undefined);
    const run = this.read(t, opts);
    t.running = run;
    try {
      await run;
    } finally {
      t.running = null;
    }
    if (t.again && this.tracked.get(t.path) === t) {
      t.again = false;
      this.kick(t);
    }
  }

  private async read(t: Tracked, opts: TrackOptions): Promise<void> {
    const stat = await this.opts.access.stat(t.path);
    if (!t.force && t.result && !changed(t.stat, stat)) return;
    const source = new CancellationTokenSource();
    t.source = source;
    const sub = opts.token.onCancellationRequested(() => source.cancel());
    try {
      const found = await this.opts.settings.withProblem(t.uri);
      const result = await t.tailer.update({
        access: this.opts.access,
        deflate: this.opts.deflate,
        settings: found.settings,
        settingsProblem: found.problem,
        workspaceFolders: this.opts.folders,
        cancellation: source.token,
        onProgress: opts.onProgress,
        onConfigProblem: (m) => this.opts.connection.console.warn(m),
      });
      t.force = false;
      t.stat = result.stat;
      t.result = result.analysis;
      if (!this.opts.isOpen?.(t.uri)) this.opts.publisher.resultReady(result.analysis);
      else this.opts.publisher.notifyChanged(result.analysis);
    } finally {
      sub.dispose();
      if (t.source === source) t.source = null;
    }
  }

  private ensurePolling(): void {
    if (this.poll !== undefined || this.opts.pollIntervalMs <= 0) return;
    this.poll = this.opts.timers.setInterval(() => {
      for (const t of this.tracked.values()) {
        if (t.running) continue;
        void this.opts.access.stat(t.path).then(
          (st) => {
            if (changed(t.stat, st)) this.kick(t);
          },
          () => undefined, // deleted for now: the next event or poll tells
        );
      }
    }, this.opts.pollIntervalMs);
  }
}
