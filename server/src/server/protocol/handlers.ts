// Registers every handler on the connection, each behind a guard (an error is logged and answered
// with an error; the server stays up); the custom requests from one table. The features themselves
// live in their own modules.
import { FileChangeType, type CancellationToken, type RequestType } from 'vscode-languageserver';
import {
  AnalyzeFileRequest,
  CompareRunsRequest,
  EvalDatasetsRequest,
  GroupsByCauseRequest,
  PtAsJsonlRequest,
  RunStatusRequest,
  RunStepsRequest,
  RunViewRequest,
  SampleNavigationRequest,
  SampleViewRequest,
} from '../../../../shared/protocol';
import { handleAnalyzeFile } from '../features/analyzeFileRequest';
import { provideCodeActions } from '../features/codeActions';
import { compareRuns } from '../features/compareRuns';
import { guardNotification, guardRequest } from './guard';
import { provideHover } from '../features/hover';
import { evalDatasets, groupsByCause, runSteps } from '../features/runSummary';
import { ptAsJsonl } from '../features/ptAsJsonl';
import { runStatus } from '../features/runStatus';
import { runView, sampleNavigation, sampleView } from '../features/runView';
import type { ServerContext } from '../serverContext';
import { provideSymbols } from '../features/symbols';
import { provideCodeLenses } from '../features/codeLens';
import { uriToPath } from '../documents/uris';
import { isLogFileName, isPtDumpName } from '../../../../shared/logFiles';

function registerDocumentSync(ctx: ServerContext): void {
  const { connection, documents, overlay, analyses } = ctx;
  const analysedOnce = new Set<string>();
  documents.onDidChangeContent(
    guardNotification(connection, 'didChange', (e) => {
      const doc = e.document;
      const path = uriToPath(doc.uri);
      overlay.set(path, doc.version, () => doc.getText());
      if (ctx.isLog(doc)) {
        // First sight (open) runs at once; edits wait for the debounce.
        analyses.schedule(doc.uri, analysedOnce.has(doc.uri) ? undefined : 0);
        analysedOnce.add(doc.uri);
      }
      ctx.dependencyChanged(path);
    }),
  );
  documents.onDidClose(
    guardNotification(connection, 'didClose', (e) => {
      const path = uriToPath(e.document.uri);
      overlay.delete(path);
      analysedOnce.delete(e.document.uri);
      ctx.settings.drop(e.document.uri);
      if (ctx.isLog(e.document)) {
        analyses.close(e.document.uri);
        ctx.runMetrics.forgetLog(e.document.uri);
        ctx.runMetrics.fileChanged(path, false); // the disk file counts for its run again
        ctx.publisher.closed(e.document.uri);
        ctx.live.documentClosed(e.document.uri);
      }
      ctx.dependencyChanged(path); // an open config's unsaved text no longer counts
    }),
  );
}

function registerWorkspaceEvents(ctx: ServerContext): void {
  const { connection } = ctx;
  connection.onDidChangeConfiguration(
    guardNotification(connection, 'didChangeConfiguration', (params) => {
      // A payload without our section (VS Code sends `null` in the pull model) keeps what we had.
      const pushed = (params.settings as Record<string, unknown> | null | undefined)?.rolloutLens;
      if (pushed !== undefined) ctx.settings.push(pushed);
      ctx.reanalyzeAll();
    }),
  );
  connection.onDidChangeWatchedFiles(
    guardNotification(connection, 'didChangeWatchedFiles', (params) => {
      for (const change of params.changes) {
        const path = uriToPath(change.uri);
        if (ctx.overlay.has(path)) continue; // open documents follow the editor's text
        ctx.dependencyChanged(path);
        if (isLogFileName(path) || isPtDumpName(path)) ctx.runMetrics.fileChanged(path, change.type !== FileChangeType.Changed);
        if (change.type === FileChangeType.Deleted) ctx.live.deleted(path);
        else ctx.live.fileEvent(path);
      }
    }),
  );
}

function registerPullDiagnostics(ctx: ServerContext): void {
  const { connection, documents } = ctx;
  connection.languages.diagnostics.on(
    guardRequest(connection, 'textDocument/diagnostic', (params, token) => {
      const doc = documents.get(params.textDocument.uri);
      const isLog = doc !== undefined && ctx.isLog(doc);
      return ctx.publisher.pull(params, isLog ? (t) => ctx.resultFor(params.textDocument.uri, t) : null, token);
    }),
  );
}

/** A custom request and the feature that answers it; `route` keeps the two types in step. */
interface Route {
  method: string;
  register(ctx: ServerContext): void;
}

function route<P, R>(type: RequestType<P, R, void>, handler: (ctx: ServerContext, params: P, token: CancellationToken) => Promise<R> | R): Route {
  return {
    method: type.method,
    register: (ctx) =>
      // By method name: the typed overload cannot see through the generic guard; `route`'s
      // signature already ties the handler to the request type.
      ctx.connection.onRequest(
        type.method,
        guardRequest(ctx.connection, nameOf(type), (p: P, token) => handler(ctx, p, token)),
      ),
  };
}

/** Every custom request of shared/protocol.ts, each with its feature: the one table of them. */
export const CUSTOM_REQUESTS: readonly Route[] = [
  route(AnalyzeFileRequest, handleAnalyzeFile),
  route(GroupsByCauseRequest, groupsByCause),
  route(EvalDatasetsRequest, evalDatasets),
  route(RunStepsRequest, runSteps),
  route(RunStatusRequest, runStatus),
  route(PtAsJsonlRequest, ptAsJsonl),
  route(RunViewRequest, runView),
  route(SampleViewRequest, sampleView),
  route(CompareRunsRequest, compareRuns),
  route(SampleNavigationRequest, sampleNavigation),
];

function registerFeatures(ctx: ServerContext): void {
  const { connection } = ctx;
  connection.onHover(guardRequest(connection, 'hover', (params, token) => provideHover(ctx, params, token)));
  connection.onCodeAction(guardRequest(connection, 'codeAction', (params, token) => provideCodeActions(ctx, params, token)));
  connection.onDocumentSymbol(guardRequest(connection, 'documentSymbol', (params, token) => provideSymbols(ctx, params, token)));
  connection.onCodeLens(guardRequest(connection, 'codeLens', (params, token) => provideCodeLenses(ctx, params, token)));
  for (const r of CUSTOM_REQUESTS) r.register(ctx);
}

/** A shared-protocol request is logged under its method's last part (`runSteps`). */
function nameOf(type: { method: string }): string {
  return type.method.split('/').pop()!;
}

export function registerHandlers(ctx: ServerContext): void {
  registerDocumentSync(ctx);
  registerWorkspaceEvents(ctx);
  if (ctx.publisher.pulls) registerPullDiagnostics(ctx);
  registerFeatures(ctx);
}
