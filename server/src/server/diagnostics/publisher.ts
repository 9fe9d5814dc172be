// The diagnostics module: turns analysis results into diagnostics (toDiagnostics.ts) and tells the
// client, pushed (`publishDiagnostics`) or, for open documents of a client that pulls
// (`textDocument/diagnostic`, answered by `pull`), on request with a refresh when results change
// without an edit. Every new result also sends the custom
// `analysisChanged` notification the client's run views listen to.
import {
  DocumentDiagnosticReportKind,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type Connection,
  type Diagnostic,
  type DocumentDiagnosticParams,
  type DocumentDiagnosticReport,
  type TextDocuments,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { AnalysisChangedNotification, type AnalysisChangedParams } from '../../../../shared/protocol';
import type { FileAnalysis } from '../analysis/fileAnalysis';
import { toDiagnostics, type DiagnosticContext } from './toDiagnostics';
import { pathToUri } from '../documents/uris';

export interface PublisherOptions {
  /** The client pulls diagnostics for open documents. */
  pull: boolean;
  /** The client accepts `workspace/diagnostic/refresh`. */
  refreshSupport: boolean;
  /** The client announces `relatedInformation` / `codeDescriptionSupport` for diagnostics (else they are left out). */
  relatedInformation?: boolean;
  codeDescription?: boolean;
}

export class Publisher {
  /** Document version each URI was last pulled at: a new result for the same version needs a refresh. */
  private readonly pulledVersion = new Map<string, number>();
  /** Result ids for pull diagnostics: the same result object always gets the same id. */
  private readonly resultIds = new WeakMap<FileAnalysis, string>();
  private nextResultId = 1;

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly opts: PublisherOptions,
  ) {}

  get pulls(): boolean {
    return this.opts.pull;
  }

  contextFor(result: FileAnalysis): DiagnosticContext {
    return {
      uriOf: (file) => (file === result.path ? result.uri : pathToUri(file)),
      lineLength: (uri, line0) => {
        const doc = this.documents.get(uri);
        if (!doc || line0 >= doc.lineCount) return undefined;
        const text = doc.getText({ start: { line: line0, character: 0 }, end: { line: line0 + 1, character: 0 } });
        return text.replace(/\r?\n$/, '').length;
      },
      datasetInfo: (name) => {
        const d = result.report?.detail?.datasets.find((x) => x.name === name);
        return d ? { n: d.n, nSource: d.nSource } : undefined;
      },
    };
  }

  diagnosticsOf(result: FileAnalysis): Diagnostic[] {
    const diagnostics = toDiagnostics(result.findings, this.contextFor(result), result.settings.maxProblems);
    // Only what the client said it can use: others show neither, and some print them raw.
    if (this.opts.relatedInformation === false || this.opts.codeDescription === false) {
      for (const d of diagnostics) {
        if (this.opts.relatedInformation === false) delete d.relatedInformation;
        if (this.opts.codeDescription === false) delete d.codeDescription;
      }
    }
    return diagnostics;
  }

  /**
   * Answers `textDocument/diagnostic`. `current` waits for the open log document's result at its
   * current version; null: the document is not an open log (no diagnostics).
   */
  async pull(
    params: DocumentDiagnosticParams,
    current: ((token: CancellationToken) => Promise<FileAnalysis | undefined>) | null,
    token: CancellationToken,
  ): Promise<DocumentDiagnosticReport> {
    const uri = params.textDocument.uri;
    const doc = this.documents.get(uri);
    if (!doc || !current) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    const result = await current(token);
    const now = this.documents.get(uri);
    if (token.isCancellationRequested || !now || (!result && now.version !== doc.version)) {
      // Superseded by an edit: the client asks again for the new version.
      throw new ResponseError(LSPErrorCodes.ServerCancelled, 'document changed', { retriggerRequest: true });
    }
    if (!result) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    // Remembered, so later results for that version trigger a refresh.
    this.pulledVersion.set(uri, result.version ?? 0);
    const resultId = this.resultIdOf(result);
    if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items: this.diagnosticsOf(result) };
  }

  private resultIdOf(result: FileAnalysis): string {
    let id = this.resultIds.get(result);
    if (!id) {
      id = `${result.version ?? 'disk'}-${this.nextResultId++}`;
      this.resultIds.set(result, id);
    }
    return id;
  }

  /** A new result: push it, or ask a pulling client to pull again when no edit will make it. */
  resultReady(result: FileAnalysis): void {
    const isPulledDocument = this.opts.pull && result.version !== null && this.documents.get(result.uri) !== undefined;
    if (!isPulledDocument) {
      void this.connection.sendDiagnostics({
        uri: result.uri,
        ...(result.version !== null ? { version: result.version } : {}),
        diagnostics: this.diagnosticsOf(result),
      });
    } else if (this.opts.refreshSupport && this.pulledVersion.get(result.uri) === result.version) {
      void this.connection.languages.diagnostics.refresh().catch(() => undefined);
    }
    this.notifyChanged(result);
  }

  notifyChanged(result: FileAnalysis): void {
    const groups = result.report?.detail?.groups ?? [];
    const causes = new Set(groups.filter((g) => !g.kept).map((g) => g.reason));
    const params: AnalysisChangedParams = {
      uri: result.uri,
      dropped: result.report?.groups.dropped ?? 0,
      causes: causes.size,
      findings: result.findings.length,
    };
    void this.connection.sendNotification(AnalysisChangedNotification, params);
  }

  /** Clears pushed diagnostics of a URI (a tailed file that was deleted). */
  clear(uri: string): void {
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** A document closed (push mode clears its diagnostics; a pulling client drops them itself). */
  closed(uri: string): void {
    this.pulledVersion.delete(uri);
    if (!this.opts.pull) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }
}
