// "Open Sample" above each failed sample's line (aborted, status failed, or a failure cause: the
// facade's `isFailedSample`; a finished attempt's `Submitted` is no failure), running the client's `rolloutLens.openSample` with the document and the
// 0-based line, as the hover's link does. Offered only to clients that list the command in
// `initializationOptions.clientCommands`; the title is fixed text, never log text. Bounded per
// document: a run file can hold 100k failed samples, and lenses on all of them help nobody.
import type { CancellationToken, CodeLens, CodeLensParams } from 'vscode-languageserver';
import { OpenSampleCommand } from '../../../../shared/protocol';
import { isFailedSample } from '../../core/inspect';
import type { ServerContext } from '../serverContext';
import { clientCommands } from './codeActions';

export const MAX_CODE_LENSES = 500;

export async function provideCodeLenses(ctx: ServerContext, params: CodeLensParams, token: CancellationToken): Promise<CodeLens[]> {
  if (!clientCommands(ctx).includes(OpenSampleCommand)) return [];
  const uri = params.textDocument.uri;
  const result = await ctx.resultFor(uri, token);
  const detail = result?.report?.detail;
  if (!result || !detail) return [];
  const lenses: CodeLens[] = [];
  for (const s of detail.samples) {
    if (lenses.length >= MAX_CODE_LENSES) break;
    if (!isFailedSample(s, result.settings)) continue;
    const line = s.line - 1;
    lenses.push({
      range: { start: { line, character: 0 }, end: { line, character: 0 } },
      command: { title: 'Open Sample', command: OpenSampleCommand, arguments: [uri, line] },
    });
  }
  return lenses;
}
