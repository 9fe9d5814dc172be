// Typed calls of the server's custom requests (shared/protocol.ts), over whatever client is
// current (the client is replaced on restart).
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  AnalyzeFileRequest,
  CompareRunsRequest,
  EvalDatasetsRequest,
  GroupsByCauseRequest,
  PtAsJsonlRequest,
  RunStatusRequest,
  RunViewRequest,
  SampleNavigationRequest,
  SampleViewRequest,
  type AnalyzeFileParams,
  type AnalyzeFileResult,
  type CompareRunsParams,
  type EvalDatasetsResult,
  type GroupsByCauseResult,
  type PtAsJsonlResult,
  type RunStatusResult,
  type RunDiff,
  type RunViewParams,
  type SampleNavigationParams,
  type SampleNavigationResult,
  type SampleViewParams,
} from '../../shared/protocol';
import type { RunView } from '../../shared/runViewModel';
import type { SampleView } from '../../shared/sampleViewModel';

export class ServerApi {
  constructor(private readonly current: () => LanguageClient | undefined) {}

  private async client(): Promise<LanguageClient> {
    const c = this.current();
    if (!c) throw new Error('the Rollout Lens server is not running');
    if (!c.isRunning()) await c.start();
    return c;
  }

  async groupsByCause(uri: vscode.Uri, token?: vscode.CancellationToken): Promise<GroupsByCauseResult> {
    return (await this.client()).sendRequest(GroupsByCauseRequest, { uri: uri.toString() }, token);
  }

  async evalDatasets(uri: vscode.Uri, token?: vscode.CancellationToken): Promise<EvalDatasetsResult> {
    return (await this.client()).sendRequest(EvalDatasetsRequest, { uri: uri.toString() }, token);
  }

  async ptAsJsonl(uri: vscode.Uri, token?: vscode.CancellationToken): Promise<PtAsJsonlResult> {
    return (await this.client()).sendRequest(PtAsJsonlRequest, { uri: uri.toString() }, token);
  }

  async runStatus(uri: vscode.Uri, token?: vscode.CancellationToken): Promise<RunStatusResult> {
    return (await this.client()).sendRequest(RunStatusRequest, { uri: uri.toString() }, token);
  }

  async runView(uri: vscode.Uri, token?: vscode.CancellationToken): Promise<RunView> {
    const params: RunViewParams = { uri: uri.toString() };
    return (await this.client()).sendRequest(RunViewRequest, params, token);
  }

  /** The engine's diff of two runs (`rollout-lens diff --format json`): `candidate` − `baseline`. */
  async compareRuns(baseline: vscode.Uri, candidate: vscode.Uri, token?: vscode.CancellationToken): Promise<RunDiff> {
    const params: CompareRunsParams = { baseline: baseline.toString(), candidate: candidate.toString() };
    return (await this.client()).sendRequest(CompareRunsRequest, params, token);
  }

  async sampleView(params: SampleViewParams, token?: vscode.CancellationToken): Promise<SampleView | null> {
    return (await this.client()).sendRequest(SampleViewRequest, params, token);
  }

  async sampleNavigation(params: SampleNavigationParams, token?: vscode.CancellationToken): Promise<SampleNavigationResult> {
    return (await this.client()).sendRequest(SampleNavigationRequest, params, token);
  }

  async analyzeFile(params: AnalyzeFileParams, token?: vscode.CancellationToken): Promise<AnalyzeFileResult> {
    return (await this.client()).sendRequest(AnalyzeFileRequest, params, token);
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
