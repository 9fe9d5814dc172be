// Typed calls of the server's custom requests (shared/protocol.ts), over whatever client is
// current (the client is replaced on restart).
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  AnalyzeFileRequest,
  EvalDatasetsRequest,
  GroupsByCauseRequest,
  RunStepsRequest,
  RunViewRequest,
  type AnalyzeFileParams,
  type AnalyzeFileResult,
  type EvalDatasetsResult,
  type GroupsByCauseResult,
  type RunStepsResult,
  type RunViewParams,
} from '../../shared/protocol';
import type { RunView } from '../../shared/runViewModel';

export class ServerApi {
  constructor(private readonly current: () => LanguageClient | undefined) {}

  private async client(): Promise<LanguageClient> {
    const c = this.current();
    if (!c) throw new Error('the Rollout Lens server is not running');
    if (!c.isRunning()) await c.start();
    return c;
  }

  async groupsByCause(uri: vscode.Uri, token?: vscode.CancellationToken): Promise<GroupsByCauseResult> {
    return (await this.client()).sendRequest<GroupsByCauseResult>(GroupsByCauseRequest, { uri: uri.toString() }, token);
  }

  async evalDatasets(uri: vscode.Uri, token?: vscode.CancellationToken): Promise<EvalDatasetsResult> {
    return (await this.client()).sendRequest<EvalDatasetsResult>(EvalDatasetsRequest, { uri: uri.toString() }, token);
  }

  async runSteps(folder: vscode.Uri, token?: vscode.CancellationToken): Promise<RunStepsResult> {
    return (await this.client()).sendRequest<RunStepsResult>(RunStepsRequest, { folderUri: folder.toString() }, token);
  }

  async runView(uri: vscode.Uri, token?: vscode.CancellationToken): Promise<RunView> {
    const params: RunViewParams = { uri: uri.toString() };
    return (await this.client()).sendRequest<RunView>(RunViewRequest, params, token);
  }

  /** Any custom request of shared/protocol.ts. */
  async request<R>(method: string, params: unknown, token?: vscode.CancellationToken): Promise<R> {
    return (await this.client()).sendRequest<R>(method, params, token);
  }

  async analyzeFile(params: AnalyzeFileParams, token?: vscode.CancellationToken): Promise<AnalyzeFileResult> {
    return (await this.client()).sendRequest<AnalyzeFileResult>(AnalyzeFileRequest, params, token);
  }
}

/** Whether a URI is a folder on disk (a run) rather than a log file. */
export async function isFolder(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) !== 0;
  } catch {
    return false;
  }
}
