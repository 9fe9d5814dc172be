// Registers every handler on the connection, each behind a guard (an error is logged and answered
// with an error; the server stays up). The features themselves live in their own modules.
import { FileChangeType } from 'vscode-languageserver';
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
import { uriToPath } from './uris';
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
      return ctx.publisher.pull(params, isLog ? (t) => ctx.analyses.resultForCurrent(params.textDocument.uri, t) : null, token);
    }),
  );
}

function registerFeatures(ctx: ServerContext): void {
  const { connection } = ctx;
  connection.onHover(guardRequest(connection, 'hover', (params, token) => provideHover(ctx, params, token)));
  connection.onCodeAction(guardRequest(connection, 'codeAction', (params, token) => provideCodeActions(ctx, params, token)));
  connection.onDocumentSymbol(guardRequest(connection, 'documentSymbol', (params, token) => provideSymbols(ctx, params, token)));
  connection.onCodeLens(guardRequest(connection, 'codeLens', (params, token) => provideCodeLenses(ctx, params, token)));
  connection.onRequest(
    AnalyzeFileRequest,
    guardRequest(connection, nameOf(AnalyzeFileRequest), (p, token) => handleAnalyzeFile(ctx, p, token)),
  );
  connection.onRequest(
    GroupsByCauseRequest,
    guardRequest(connection, nameOf(GroupsByCauseRequest), (p, token) => groupsByCause(ctx, p, token)),
  );
  connection.onRequest(
    EvalDatasetsRequest,
    guardRequest(connection, nameOf(EvalDatasetsRequest), (p, token) => evalDatasets(ctx, p, token)),
  );
  connection.onRequest(
    RunStepsRequest,
    guardRequest(connection, nameOf(RunStepsRequest), (p, token) => runSteps(ctx, p, token)),
  );
  connection.onRequest(
    RunStatusRequest,
    guardRequest(connection, nameOf(RunStatusRequest), (p, token) => runStatus(ctx, p, token)),
  );
  connection.onRequest(
    PtAsJsonlRequest,
    guardRequest(connection, nameOf(PtAsJsonlRequest), (p, token) => ptAsJsonl(ctx, p, token)),
  );
  connection.onRequest(
    RunViewRequest,
    guardRequest(connection, nameOf(RunViewRequest), (p, token) => runView(ctx, p, token)),
  );
  connection.onRequest(
    SampleViewRequest,
    guardRequest(connection, nameOf(SampleViewRequest), (p, token) => sampleView(ctx, p, token)),
  );
  connection.onRequest(
    CompareRunsRequest,
    guardRequest(connection, nameOf(CompareRunsRequest), (p, token) => compareRuns(ctx, p, token)),
  );
  connection.onRequest(
    SampleNavigationRequest,
    guardRequest(connection, nameOf(SampleNavigationRequest), (p, token) => sampleNavigation(ctx, p, token)),
  );
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
