// Hover on a sample line: the engine's inspection of the sample (core/inspect.ts), rendered as
// markdown or plain text, as the client announced at initialize (`ServerContext.hoverFormat`). The analysis keeps only compact per-sample records; for a failed sample the engine
// re-reads the line's message and fields from the document or the disk by its offset. A `.pt`
// dump's JSON Lines view is answered from the dump (features/sampleSource.ts).
import type { CancellationToken, Hover, HoverParams } from 'vscode-languageserver';
import { inspectLine } from '../../core/inspect';
import { MARKDOWN, PLAIN_TEXT, renderSampleHover } from './hoverText';
import { sampleSource } from './sampleSource';
import type { ServerContext } from '../serverContext';

export async function provideHover(ctx: ServerContext, params: HoverParams, token: CancellationToken): Promise<Hover | null> {
  const source = await sampleSource(ctx, params.textDocument.uri, token, false);
  if (!source || token.isCancellationRequested) return null;
  try {
    const { result } = source;
    const found = await inspectLine(result, params.position.line + 1);
    if (!found) return null;
    const kind = ctx.hoverFormat;
    const value = renderSampleHover(found.inspection, found.detail, result.settings, kind === 'plaintext' ? PLAIN_TEXT : MARKDOWN);
    return { contents: { kind, value } };
  } finally {
    source.release();
  }
}
