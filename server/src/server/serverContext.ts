// Everything one server instance holds, in one object handed to the handlers (no module globals,
// so several servers can run in one process). Also the cross-cutting moves: find the result for
// a URI, re-analyse what depends on a changed eval config or on changed settings.
import type { CancellationToken, ClientCapabilities, Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FileAnalysis } from './analysis/fileAnalysis';
import type { DocumentAccess } from './documents/documentAccess';
import type { DocumentScheduler } from './analysis/documentScheduler';
import type { DiskCache } from './analysis/diskCache';
import type { LiveLogs } from './analysis/liveLogs';
import type { Publisher } from './diagnostics/publisher';
import type { RunMetrics } from './analysis/runMetrics';
import type { ServerRuntime } from './runtime';
import type { SettingsCache } from './analysis/settingsCache';
import { isEvalConfigName } from '../core/locate/evalConfig';
import { isPtDumpName } from '../core/vocabulary/logFiles';
import { trajectoryDumpOf } from '../core/run/plan';
import { isSettingsFile, type RunSettingsFiles } from './analysis/runSettingsFiles';
import { uriToPath } from './documents/uris';

export interface ServerParts {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  overlay: DocumentAccess;
  analyses: DocumentScheduler;
  settings: SettingsCache;
  publisher: Publisher;
  live: LiveLogs;
  disk: DiskCache;
  /** Open metrics logs compared with the other files of their run. */
  runMetrics: RunMetrics;
  /** The run settings file of each log (found upward). */
  runFiles: RunSettingsFiles;
  /** Workspace folder paths; mutated in place when folders change (the runners hold this array). */
  folders: string[];
  runtime: ServerRuntime;
  caps: ClientCapabilities;
  /** How hovers are written: the client's first usable `hover.contentFormat`, read once at initialize. */
  hoverFormat: 'markdown' | 'plaintext';
  /** What the client sent as `initializationOptions` (untrusted shape: check before use). */
  initializationOptions: unknown;
  isLog(doc: TextDocument): boolean;
}

export class ServerContext implements ServerParts {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  readonly overlay: DocumentAccess;
  readonly analyses: DocumentScheduler;
  readonly settings: SettingsCache;
  readonly publisher: Publisher;
  readonly live: LiveLogs;
  readonly disk: DiskCache;
  readonly runMetrics: RunMetrics;
  readonly runFiles: RunSettingsFiles;
  readonly folders: string[];
  readonly runtime: ServerRuntime;
  readonly caps: ClientCapabilities;
  readonly hoverFormat: 'markdown' | 'plaintext';
  readonly initializationOptions: unknown;
  readonly isLog: (doc: TextDocument) => boolean;
  /** The client's workspace is trusted (or the client has no such notion): see `RolloutLensInitializationOptions.workspaceTrusted`. */
  workspaceTrusted: boolean;

  constructor(parts: ServerParts) {
    this.connection = parts.connection;
    this.documents = parts.documents;
    this.overlay = parts.overlay;
    this.analyses = parts.analyses;
    this.settings = parts.settings;
    this.publisher = parts.publisher;
    this.live = parts.live;
    this.disk = parts.disk;
    this.runMetrics = parts.runMetrics;
    this.runFiles = parts.runFiles;
    this.folders = parts.folders;
    this.runtime = parts.runtime;
    this.caps = parts.caps;
    this.hoverFormat = parts.hoverFormat;
    this.initializationOptions = parts.initializationOptions;
    this.isLog = parts.isLog;
    const opts = parts.initializationOptions;
    this.workspaceTrusted = !(opts !== null && typeof opts === 'object' && (opts as { workspaceTrusted?: unknown }).workspaceTrusted === false);
  }

  /**
   * The analysis the server holds for a file: an open log document's at its current version, else
   * a tailed file's. The one lookup of a held result; requests by URI come through `resultFor`.
   */
  async resultForPath(path: string, token?: CancellationToken): Promise<FileAnalysis | undefined> {
    const open = this.documents.all().find((d) => uriToPath(d.uri) === path && this.isLog(d));
    if (open) return this.analyses.resultForCurrent(open.uri, token);
    return this.live.resultByPath(path);
  }

  async resultFor(uri: string, token?: CancellationToken): Promise<FileAnalysis | undefined> {
    return this.resultForPath(uriToPath(uri), token);
  }

  /** Every result the server holds: open documents first, then tailed files not open. */
  allResults(): FileAnalysis[] {
    const docs = this.analyses.all();
    const open = new Set(docs.map((r) => r.uri));
    return [...docs, ...this.live.results().filter((r) => !open.has(r.uri))];
  }

  /** Settings changed: every open log and every tailed file is analysed again. */
  reanalyzeAll(): void {
    this.settings.drop();
    this.disk.clear();
    this.runMetrics.settingsChanged();
    for (const doc of this.documents.all()) if (this.isLog(doc)) this.analyses.schedule(doc.uri);
    this.live.reanalyzeAll();
  }

  /**
   * A file changed that results may depend on (an eval config, a trajectory sidecar's .pt):
   * re-analyse those results, and, when it has an eval config's name, eval logs that had none (it
   * may have just been created).
   */
  dependencyChanged(path: string): void {
    if (isSettingsFile(path)) {
      // A run settings file: which one applies, and what it says, may change for any log.
      this.reanalyzeAll();
      return;
    }
    if (isPtDumpName(path)) {
      // A trajectory sidecar takes its verdicts from its step's .pt (core/rollout/trajectorySidecar.ts).
      for (const result of this.analyses.all())
        if (result.report?.format === 'miles-trajectory' && trajectoryDumpOf(result.path) === path) this.analyses.schedule(result.uri);
      return;
    }
    const configName = isEvalConfigName(path);
    const depends = (r: FileAnalysis) => r.evalConfig === path || (configName && r.evalConfig === null && r.report?.kind === 'eval');
    for (const result of this.analyses.all()) if (depends(result)) this.analyses.schedule(result.uri);
    this.live.dependencyChanged(path);
    this.disk.dropDependents(path);
    this.runMetrics.evalConfigChanged(path, configName);
  }

  updateFolders(added: string[], removed: string[]): void {
    for (const r of removed) {
      const i = this.folders.indexOf(r);
      if (i >= 0) this.folders.splice(i, 1);
    }
    this.folders.push(...added.filter((a) => !this.folders.includes(a)));
    this.reanalyzeAll();
  }

  dispose(): void {
    this.live.dispose();
    this.runMetrics.dispose();
    for (const doc of this.documents.all()) this.analyses.close(doc.uri);
  }
}
