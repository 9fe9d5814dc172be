// `rolloutLens/analyzeFile { uri }`: for files the editor never syncs (VS Code sends no didOpen
// above 52,428,800 UTF-16 characters). Streams the file from disk with work-done progress
// (`$/progress`) and cancellation (the request's, or the progress UI's cancel button), pushes its
// diagnostics, and keeps tailing it as a live log.
import { CancellationTokenSource, ResponseError, ErrorCodes, type CancellationToken, type WorkDoneProgressReporter } from 'vscode-languageserver';
import type { AnalyzeFileParams, AnalyzeFileResult } from '../../../../shared/protocol';
import type { ServerContext } from '../serverContext';
import { uriToPath } from '../documents/uris';

/** Reports at most once per percent: a GB file must not send a million `$/progress` messages. */
function progressThrottle(report: (percent: number, message: string) => void): (read: number, total: number) => void {
  let last = -1;
  return (read, total) => {
    const percent = total > 0 ? Math.min(100, Math.floor((read / total) * 100)) : 0;
    if (percent === last) return;
    last = percent;
    report(percent, `${(read / 1048576).toFixed(0)} of ${(total / 1048576).toFixed(0)} MB`);
  };
}

interface Progress {
  reporter: WorkDoneProgressReporter;
  /** Cancel button of a server-created progress (client-created ones cancel the request). */
  token?: CancellationToken;
}

async function progressFor(ctx: ServerContext, params: AnalyzeFileParams): Promise<Progress | null> {
  if (params.workDoneToken !== undefined) return { reporter: ctx.connection.window.attachWorkDoneProgress(params.workDoneToken) };
  if (ctx.caps.window?.workDoneProgress) {
    try {
      const reporter = await ctx.connection.window.createWorkDoneProgress();
      return { reporter, token: reporter.token };
    } catch {
      return null; // the client refused: analyse without progress
    }
  }
  return null;
}

export async function handleAnalyzeFile(ctx: ServerContext, params: AnalyzeFileParams, token: CancellationToken): Promise<AnalyzeFileResult> {
  if (typeof params?.uri !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'analyzeFile needs { uri }');
  const path = uriToPath(params.uri);
  let stat;
  try {
    stat = await ctx.runtime.access.stat(path);
  } catch (err) {
    throw new ResponseError(ErrorCodes.InvalidParams, `cannot read ${params.uri}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!stat.isFile) throw new ResponseError(ErrorCodes.InvalidParams, `${params.uri} is not a file`);

  const progress = await progressFor(ctx, params);
  const source = new CancellationTokenSource();
  const subs = [token.onCancellationRequested(() => source.cancel())];
  if (progress?.token) subs.push(progress.token.onCancellationRequested(() => source.cancel()));
  progress?.reporter.begin('Rollout Lens', 0, `Analysing ${path.split('/').pop()}`, true);
  try {
    const result = await ctx.live.track(path, params.uri, {
      token: source.token,
      onProgress: progress ? progressThrottle((percent, message) => progress.reporter.report(percent, message)) : undefined,
    });
    return {
      uri: result.uri,
      records: result.report?.records ?? 0,
      invalidLines: result.report?.invalidLines ?? 0,
      findings: result.findings.length,
    };
  } finally {
    for (const s of subs) s.dispose();
    progress?.reporter.done();
    source.dispose();
  }
}
