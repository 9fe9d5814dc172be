// Registers every handler on the connection, each behind a guard (an error is logged and answered
// with an error; the server stays up). The features themselves live in their own modules.
import { DocumentDiagnosticReportKind, FileChangeType, LSPErrorCodes, ResponseError, type DocumentDiagnosticReport } from 'vscode-languageserver';
import {
  AnalyzeFileRequest,
  EvalDatasetsRequest,
  GroupsByCauseRequest,
  RunStepsRequest,
  RunViewRequest,
  SampleViewRequest,
  type AnalyzeFileParams,
  type EvalDatasetsParams,
  type GroupsByCauseParams,
  type RunStepsParams,
  type RunViewParams,
  type SampleViewParams,
} from '../../../../shared/protocol';
import type { FileAnalysis } from '../analysis/fileAnalysis';
import { handleAnalyzeFile } from '../features/analyzeFileRequest';
import { provideCodeActions } from '../features/codeActions';
import { guardNotification, guardRequest } from './guard';
import { provideHover } from '../features/hover';
import { evalDatasets, groupsByCause, runSteps } from '../features/runSummary';
import { runView, sampleView } from '../features/runView';
import type { ServerContext } from '../serverContext';
import { provideSymbols } from '../features/symbols';
import { uriToPath } from './uris';

/** Result ids for pull diagnostics: the same result object always gets the same id. */
const resultIds = new WeakMap<FileAnalysis, string>();
let nextResultId = 1;
function resultIdOf(result: FileAnalysis): string {
  let id = resultIds.get(result);
  if (!id) {
    id = `${result.version ?? 'disk'}-${nextResultId++}`;
    resultIds.set(result, id);
  }
  return id;
}

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
      if (pushed !== undefined) ctx.setPushedSettings(pushed);
      ctx.reanalyzeAll();
    }),
  );
  connection.onDidChangeWatchedFiles(
    guardNotification(connection, 'didChangeWatchedFiles', (params) => {
      for (const change of params.changes) {
        const path = uriToPath(change.uri);
        if (ctx.overlay.has(path)) continue; // open documents follow the editor's text
        ctx.dependencyChanged(path);
        if (change.type === FileChangeType.Deleted) ctx.live.deleted(path);
        else ctx.live.fileEvent(path);
      }
    }),
  );
}

function registerPullDiagnostics(ctx: ServerContext): void {
  const { connection, documents } = ctx;
  connection.languages.diagnostics.on(
    guardRequest(connection, 'textDocument/diagnostic', async (params, token): Promise<DocumentDiagnosticReport> => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc || !ctx.isLog(doc)) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
      const result = await ctx.analyses.resultForCurrent(doc.uri, token);
      const now = documents.get(doc.uri);
      if (token.isCancellationRequested || !now || (!result && now.version !== doc.version)) {
        // Superseded by an edit: the client asks again for the new version.
        throw new ResponseError(LSPErrorCodes.ServerCancelled, 'document changed', { retriggerRequest: true });
      }
      if (!result) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
      ctx.publisher.notePulled(doc.uri, result.version ?? 0);
      const resultId = resultIdOf(result);
      if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
      return { kind: DocumentDiagnosticReportKind.Full, resultId, items: ctx.publisher.diagnosticsOf(result) };
    }),
  );
}

function registerFeatures(ctx: ServerContext): void {
  const { connection } = ctx;
  connection.onHover(guardRequest(connection, 'hover', (params, token) => provideHover(ctx, params, token)));
  connection.onCodeAction(guardRequest(connection, 'codeAction', (params, token) => provideCodeActions(ctx, params, token)));
  connection.onDocumentSymbol(guardRequest(connection, 'documentSymbol', (params, token) => provideSymbols(ctx, params, token)));
  connection.onRequest(
    AnalyzeFileRequest,
    guardRequest(connection, 'analyzeFile', (p: AnalyzeFileParams, token) => handleAnalyzeFile(ctx, p, token)),
  );
  connection.onRequest(
    GroupsByCauseRequest,
    guardRequest(connection, 'groupsByCause', (p: GroupsByCauseParams, token) => groupsByCause(ctx, p, token)),
  );
  connection.onRequest(
    EvalDatasetsRequest,
    guardRequest(connection, 'evalDatasets', (p: EvalDatasetsParams, token) => evalDatasets(ctx, p, token)),
  );
  connection.onRequest(
    RunStepsRequest,
    guardRequest(connection, 'runSteps', (p: RunStepsParams, token) => runSteps(ctx, p, token)),
  );
  connection.onRequest(
    RunViewRequest,
    guardRequest(connection, 'runView', (p: RunViewParams, token) => runView(ctx, p, token)),
  );
  connection.onRequest(
    SampleViewRequest,
    guardRequest(connection, 'sampleView', (p: SampleViewParams, token) => sampleView(ctx, p, token)),
  );
}

export function registerHandlers(ctx: ServerContext): void {
  registerDocumentSync(ctx);
  registerWorkspaceEvents(ctx);
  if (ctx.publisher.pulls) registerPullDiagnostics(ctx);
  registerFeatures(ctx);
}
