// `rolloutLens/ptAsJsonl { uri }`: a miles `.pt` dump as JSON Lines (docs/pt.md), for the editor's
// read-only view of it and for any LSP client. Reads through the server's FileAccess; nothing in
// the file is run.
import { ErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver';
import type { PtAsJsonlParams, PtAsJsonlResult } from '../../../../shared/protocol';
import { exportDumpLines } from '../../core/ptExport';
import type { ServerContext } from '../serverContext';
import { uriToPath } from '../documents/uris';

export async function ptAsJsonl(ctx: ServerContext, params: PtAsJsonlParams, token: CancellationToken): Promise<PtAsJsonlResult> {
  if (typeof params?.uri !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'ptAsJsonl: uri must be a string');
  const path = uriToPath(params.uri);
  try {
    if (!(await ctx.runtime.access.stat(path)).isFile) throw new Error('not a file');
  } catch (err) {
    throw new ResponseError(ErrorCodes.InvalidParams, `ptAsJsonl: cannot read ${path}: ${(err as Error).message}`);
  }
  const parts: string[] = [];
  const r = await exportDumpLines(ctx.runtime.access, path, (line) => parts.push(line), { isCancelled: () => token.isCancellationRequested });
  return { text: parts.join(''), samples: r.samples, problems: r.problems };
}
