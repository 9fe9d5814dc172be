// What configured the analyses a request visited: the run settings file of each file's folder (as
// the server found it for that file's settings) and the eval config each eval file was checked
// with, as URIs, each once. Shown in the editor's run status item and tree tooltips.
import type { RunContext } from '../../../../shared/protocol';
import { parentDir } from '../../core/locate/paths';
import type { ServerContext } from '../serverContext';
import { pathToUri } from '../documents/uris';

export interface Configured {
  path: string;
  /** The eval config the file was checked with, when one was found. */
  evalConfig: string | null;
}

/** The settings file that applies to one file (URI), null when none. */
export async function settingsFileOf(ctx: ServerContext, path: string): Promise<string | null> {
  const dir = parentDir(path);
  const file = dir === null ? null : await ctx.runFiles.fileFor(dir);
  return file === null ? null : pathToUri(file);
}

export async function runContextOf(ctx: ServerContext, visited: readonly Configured[]): Promise<RunContext> {
  const settings = new Set<string>();
  const configs = new Set<string>();
  const dirs = new Set<string>();
  for (const v of visited) {
    if (v.evalConfig !== null) configs.add(pathToUri(v.evalConfig));
    const dir = parentDir(v.path);
    if (dir === null || dirs.has(dir)) continue;
    dirs.add(dir);
    const file = await ctx.runFiles.fileFor(dir);
    if (file !== null) settings.add(pathToUri(file));
  }
  return { settingsFiles: [...settings].sort(), evalConfigs: [...configs].sort() };
}
