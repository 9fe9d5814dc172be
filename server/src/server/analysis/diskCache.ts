// Files analysed from disk for the run views (a file or a run folder the client asks about).
// Cached by the file's stamp (size, mtime, identity) and dropped when settings change; bounded, so
// a run folder of thousands of steps does not keep every step's detail alive.
import type { CancellationToken } from 'vscode-languageserver';
import type { FileAccess } from '../../core/fileAccess';
import { walkPaths } from '../../core/walk';
import { runAnalysis, type FileAnalysis } from './fileAnalysis';
import type { SettingsCache } from '../protocol/settings';
import { pathToUri } from '../protocol/uris';

const MAX_CACHED_FILES = 256;
const MAX_WALK_FILES = 10_000;
const MAX_WALK_DEPTH = 16;
/** Folders listed per walk: a client may name `/` or `/proc/self` (whose `root` link is `/`). */
const MAX_WALK_DIRS = 5_000;

interface Entry {
  stamp: string;
  result: FileAnalysis;
}

export class DiskCache {
  private readonly cache = new Map<string, Entry>();

  constructor(
    private readonly access: FileAccess,
    private readonly settings: SettingsCache,
    private readonly folders: readonly string[],
    private readonly warn: (message: string) => void,
  ) {}

  clear(): void {
    this.cache.clear();
  }

  /** Forgets the results that used this eval config. */
  dropDependents(configPath: string): void {
    for (const [path, entry] of this.cache) if (entry.result.evalConfig === configPath) this.cache.delete(path);
  }

  async analyze(path: string, token: CancellationToken): Promise<FileAnalysis> {
    const st = await this.access.stat(path);
    const stamp = `${st.size}:${st.mtimeMs}:${st.id ?? ''}`;
    const hit = this.cache.get(path);
    if (hit && hit.stamp === stamp) {
      this.cache.delete(path); // re-insert: most recently used last
      this.cache.set(path, hit);
      return hit.result;
    }
    const uri = pathToUri(path);
    const result = await runAnalysis({
      uri,
      path,
      version: null,
      access: this.access,
      settings: await this.settings.get(uri),
      workspaceFolders: this.folders,
      cancellation: token,
      onConfigProblem: this.warn,
    });
    this.cache.set(path, { stamp, result });
    while (this.cache.size > MAX_CACHED_FILES) this.cache.delete(this.cache.keys().next().value!);
    return result;
  }

  /** Log files under a folder (the engine's walk, bounded); what it could not list is logged. */
  async walk(folder: string, token: CancellationToken): Promise<string[]> {
    const walk = await walkPaths([folder], this.access, {
      maxFiles: MAX_WALK_FILES,
      maxDepth: MAX_WALK_DEPTH,
      maxDirs: MAX_WALK_DIRS,
      isCancelled: () => token.isCancellationRequested,
    });
    for (const p of walk.problems) this.warn(`rollout-lens: ${p.message}`);
    return walk.targets.map((t) => t.path);
  }
}
