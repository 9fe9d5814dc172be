// Where the hover and the sample view read a sample: the analysis of an open log or a tailed file,
// else (the sample view) the file read from disk. A `.pt` dump's JSON Lines view
// (`PT_VIEW_SCHEME`, docs/pt.md#line-numbers-and-the-json-lines-view) is text made from the dump,
// not a file: its samples are read from the dump the view names, sample N being line N, so their
// line, trajectory row, group and siblings are the dump's own.
import * as path from 'node:path';
import type { CancellationToken } from 'vscode-languageserver';
import { dumpUriOfPtView } from '../../../../shared/protocol';
import type { FileAnalysis } from '../analysis/fileAnalysis';
import type { ServerContext } from '../serverContext';
import { isInside, pathToUri, uriToPath } from '../documents/uris';

export interface SampleSource {
  result: FileAnalysis;
  /** The file as people read its name: relative to its workspace folder, else its path (or URI). */
  display: string;
  /** Call once done: a result read from disk and not kept by the cache gives its store back. */
  release(): void;
}

/**
 * The analysis a sample of `uri` is read from; undefined when there is none and `readDisk` is
 * false (a hover answers only for what is open or tailed).
 */
export async function sampleSource(ctx: ServerContext, uri: string, token: CancellationToken, readDisk: boolean): Promise<SampleSource | undefined> {
  const dump = dumpUriOfPtView(uri);
  const have = dump === null ? await ctx.resultFor(uri, token) : await ctx.resultFor(dump, token);
  if (have) return { result: have, display: displayPath(ctx.folders, have.path), release: () => undefined };
  if (dump === null && !readDisk) return undefined;
  const file = uriToPath(dump ?? uri);
  const result = await ctx.disk.analyze(file, token, 'store');
  return {
    result,
    display: displayPath(ctx.folders, file),
    // Read from disk and not held by the cache (over its budget): its chunks go to the next store.
    release: () => {
      if (!ctx.disk.holds(file)) result.report?.detail?.store?.release();
    },
  };
}

/** `file` relative to the innermost workspace folder holding it; else a virtual document's URI, or the path. */
export function displayPath(folders: readonly string[], file: string): string {
  const folder = folders.filter((f) => isInside(f, file)).sort((a, b) => b.length - a.length)[0];
  if (folder !== undefined && folder !== file) return path.relative(folder, file).split(path.sep).join('/');
  const uri = pathToUri(file);
  return uri.startsWith('file:') ? file : uri;
}
