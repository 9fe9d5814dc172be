// The language server, wired onto a connection it is handed (stdio, node-ipc, or an in-process
// stream pair in tests) with the file access it is handed. Thin glue over the engine: documents
// in, findings out as diagnostics, plus hover, quick fixes, outline and the run-summary requests.
import {
  ErrorCodes,
  ResponseError,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  TextDocumentSyncKind,
  TextDocuments,
  type ClientCapabilities,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import { type TextDocument } from 'vscode-languageserver-textdocument';
import { isLogFileName, LOG_FILE_GLOB, PT_DUMP_GLOB } from '../../../shared/logFiles';
import {
  LANGUAGE_ID,
  SETTINGS_SECTION,
  type RolloutLensInitializationOptions,
  WorkspaceTrustNotification,
  type WorkspaceTrustParams,
} from '../../../shared/protocol';
import { runAnalysis } from './analysis/fileAnalysis';
import { DocumentAccess } from './documents/documentAccess';
import { OpenDocuments } from './documents/openDocuments';
import { DiskCache } from './analysis/diskCache';
import { DocumentScheduler } from './analysis/documentScheduler';
import { describeError } from './describeError';
import { registerHandlers } from './protocol/handlers';
import { LiveLogs } from './analysis/liveLogs';
import { runIncrementalAnalysis } from './analysis/incrementalAnalysis';
import { Publisher } from './diagnostics/publisher';
import { DEFAULTS, nodeTimers, type ServerRuntime } from './runtime';
import { SettingsCache } from './analysis/settingsCache';
import { RunSettingsFiles } from './analysis/runSettingsFiles';
import { RunMetrics } from './analysis/runMetrics';
import { ServerContext } from './serverContext';
import { uriToPath } from './documents/uris';

/** Logs (and miles .pt dumps, run members), and eval configs (YAML anywhere; JSON by its conventional name, not every JSON file). */
const WATCH_GLOBS = [LOG_FILE_GLOB, PT_DUMP_GLOB, '**/*.{yaml,yml}', '**/eval_config.json', '**/rollout-lens.json'];

function isLogDocument(doc: TextDocument): boolean {
  return doc.languageId === LANGUAGE_ID || isLogFileName(doc.uri.split(/[?#]/)[0]);
}

function workspaceFolderPaths(params: InitializeParams): string[] {
  if (params.workspaceFolders?.length) return params.workspaceFolders.map((f) => uriToPath(f.uri));
  if (params.rootUri) return [uriToPath(params.rootUri)];
  return [];
}

/**
 * The hover format a client asked for: the first of `markdown`/`plaintext` in its
 * `hover.contentFormat` (the list is in order of preference). A client that names neither gets
 * markdown, as every client did before the capability existed.
 */
function hoverFormatOf(caps: ClientCapabilities): 'markdown' | 'plaintext' {
  const formats: unknown = caps.textDocument?.hover?.contentFormat;
  if (!Array.isArray(formats)) return 'markdown';
  const first = formats.find((f) => f === 'markdown' || f === 'plaintext') as 'markdown' | 'plaintext' | undefined;
  return first ?? 'markdown';
}

export function startServer(connection: Connection, runtime: ServerRuntime): void {
  const timers = runtime.timers ?? nodeTimers;
  const lines = new OpenDocuments();
  const documents = new TextDocuments(lines.config);
  documents.onDidClose((e) => lines.close(e.document.uri));
  const overlay = new DocumentAccess(runtime.access);
  let ctx: ServerContext | undefined;

  connection.onInitialize((params): InitializeResult => {
    const caps = params.capabilities;
    const pull = caps.textDocument?.diagnostic !== undefined;
    const canConfigure = caps.workspace?.configuration === true;
    // For clients without workspace/configuration: initializationOptions.settings, then whatever
    // didChangeConfiguration carries.
    const runFiles = new RunSettingsFiles(overlay);
    const settings = new SettingsCache(
      canConfigure ? (uri) => connection.workspace.getConfiguration({ scopeUri: uri, section: SETTINGS_SECTION }) : null,
      (params.initializationOptions as RolloutLensInitializationOptions | null | undefined)?.settings?.rolloutLens,
      (problem) => connection.console.warn(problem),
      runFiles,
    );
    const publisher = new Publisher(connection, documents, {
      pull,
      refreshSupport: caps.workspace?.diagnostics?.refreshSupport === true,
      relatedInformation: caps.textDocument?.publishDiagnostics?.relatedInformation === true || caps.textDocument?.diagnostic?.relatedInformation === true,
      codeDescription:
        caps.textDocument?.publishDiagnostics?.codeDescriptionSupport === true ||
        (caps.textDocument?.diagnostic as { codeDescriptionSupport?: boolean } | undefined)?.codeDescriptionSupport === true,
    });
    const folders = workspaceFolderPaths(params);
    // The open log document at a path (URIs are compared as paths: clients spell them differently).
    const openLogAt = (path: string): TextDocument | undefined =>
      documents.all().find((d) => isLogDocument(d) && d.uri.startsWith('file:') && uriToPath(d.uri) === path);
    const runMetrics: RunMetrics = new RunMetrics({
      access: overlay,
      deflate: runtime.deflate,
      settings,
      runFiles,
      folders,
      timers,
      pollIntervalMs: runtime.pollIntervalMs ?? DEFAULTS.pollIntervalMs,
      openResult: (path) => {
        const doc = openLogAt(path);
        if (!doc) return undefined;
        const result = analyses.latest(doc.uri);
        return result && result.version === doc.version ? result : null;
      },
      reanalyze: (uri) => analyses.schedule(uri),
      warn: (m) => connection.console.warn(m),
      now: () => Date.now(),
    });
    const analyses: DocumentScheduler = new DocumentScheduler({
      timers,
      debounceMs: runtime.debounceMs ?? DEFAULTS.debounceMs,
      current: (uri) => {
        const doc = documents.get(uri);
        return doc ? { uri, version: doc.version } : undefined;
      },
      analyze: async (doc, token) => {
        const found = await settings.withProblem(doc.uri);
        const opts = {
          uri: doc.uri,
          path: uriToPath(doc.uri),
          version: doc.version,
          access: overlay,
          deflate: runtime.deflate,
          settings: found.settings,
          settingsProblem: found.problem,
          workspaceFolders: folders,
          cancellation: token,
          onConfigProblem: (m: string) => connection.console.warn(m),
        };
        // Open documents re-scan only the lines an edit changed (see documents/openDocuments).
        const open = documents.get(doc.uri);
        const result = open ? await runIncrementalAnalysis(opts, lines.get(doc.uri), open) : await runAnalysis(opts);
        // A metrics log is compared with its run's other files (docs/editors.md#run-level-findings).
        return runMetrics.complete(result, token);
      },
      onResult: (result) => {
        publisher.resultReady(result);
        runMetrics.memberResult(result);
      },
      onError: (uri, err) => connection.console.error(`rollout-lens: analysing ${uri} failed: ${describeError(err)}`),
    });
    const live = new LiveLogs({
      connection,
      timers,
      access: runtime.access,
      deflate: runtime.deflate,
      settings,
      publisher,
      folders,
      pollIntervalMs: runtime.pollIntervalMs ?? DEFAULTS.pollIntervalMs,
      isOpen: (uri) => documents.get(uri) !== undefined,
    });
    const disk = new DiskCache(runtime.access, settings, folders, (m) => connection.console.warn(m), undefined, runtime.deflate);
    ctx = new ServerContext({
      connection,
      documents,
      overlay,
      analyses,
      settings,
      publisher,
      live,
      disk,
      runMetrics,
      runFiles,
      folders,
      runtime,
      caps,
      hoverFormat: hoverFormatOf(caps),
      initializationOptions: params.initializationOptions,
      isLog: isLogDocument,
    });
    registerHandlers(ctx);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: false },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: ['quickfix'], resolveProvider: false },
        documentSymbolProvider: { label: 'Rollout Lens groups' },
        codeLensProvider: { resolveProvider: false },
        ...(pull ? { diagnosticProvider: { identifier: 'rollout-lens', interFileDependencies: true, workspaceDiagnostics: false } } : {}),
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'rollout-lens' },
    };
  });

  connection.onInitialized(() => {
    if (!ctx) return;
    const ws = ctx.caps.workspace;
    if (ws?.didChangeConfiguration?.dynamicRegistration) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION }).catch(() => undefined);
    }
    if (ws?.didChangeWatchedFiles?.dynamicRegistration) {
      void connection.client
        .register(DidChangeWatchedFilesNotification.type, { watchers: WATCH_GLOBS.map((globPattern) => ({ globPattern })) })
        .catch(() => undefined);
    }
    if (ws?.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((e) =>
        ctx?.updateFolders(
          e.added.map((f) => uriToPath(f.uri)),
          e.removed.map((f) => uriToPath(f.uri)),
        ),
      );
    }
  });

  // Trust is only ever granted while the editor runs (taking it back reloads the window).
  connection.onNotification(WorkspaceTrustNotification, (p: WorkspaceTrustParams) => {
    if (ctx && p?.trusted === true) ctx.workspaceTrusted = true;
  });

  connection.onShutdown(() => ctx?.dispose());
  // Requests no handler took: before `initialize` every handler is still missing, and LSP asks for
  // ServerNotInitialized there; after it, the method is simply unknown.
  connection.onRequest((method: string) =>
    ctx === undefined
      ? new ResponseError(ErrorCodes.ServerNotInitialized, `rollout-lens: ${method} before initialize`)
      : new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`),
  );
  documents.listen(connection);
  connection.listen();
}
