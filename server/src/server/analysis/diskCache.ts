// Files analysed from disk for the run views (a file or a run folder the client asks about).
// Cached by the file's stamp (size, mtime, identity) and dropped when settings change; bounded, so
// a run folder of thousands of steps does not keep every step's detail alive.
import type { CancellationToken } from 'vscode-languageserver';
import type { FileAccess } from '../../core/fileAccess';
import { runAnalysis, type FileAnalysis } from './fileAnalysis';
import type { SettingsCache } from '../protocol/settings';
import { pathToUri } from '../protocol/uris';

export const MAX_CACHED_FILES = 256;
const MAX_WALK_FILES = 10_000;
const MAX_WALK_DEPTH = 16;
/** Folders listed per walk: a client may name `/` or `/proc/self` (whose `root` link is `/`). */
export const MAX_WALK_DIRS = 5_000;
const LOG_NAME = /\.(jsonl|ndjson)$/i;

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

  /** Log files under a folder, recursively, in name order; symlink loops and depth are bounded. */
  async walk(folder: string, token: CancellationToken): Promise<string[]> {
    const out: string[] = [];
    const seen = new Set<string>();
    let capped = false;
    const visit = async (dir: string, depth: number): Promise<void> => {
      if (depth > MAX_WALK_DEPTH || out.length >= MAX_WALK_FILES || token.isCancellationRequested) return;
      if (seen.size >= MAX_WALK_DIRS) {
        if (!capped) this.warn(`rollout-lens: stopped listing ${folder} after ${MAX_WALK_DIRS} folders`);
        capped = true;
        return;
      }
      let real: string;
      try {
        real = await this.access.realPath(dir);
      } catch {
        return;
      }
      if (seen.has(real)) return;
      seen.add(real);
      let entries;
      try {
        entries = await this.access.readDir(dir);
      } catch (err) {
        this.warn(`rollout-lens: cannot list ${dir}: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        const p = `${dir.replace(/\/$/, '')}/${e.name}`;
        let isDir = e.isDirectory;
        let isFile = e.isFile;
        if (e.isSymbolicLink) {
          const target = await this.access.stat(p).catch(() => null); // dangling links are skipped
          isDir = target?.isDirectory ?? false;
          isFile = target?.isFile ?? false;
        }
        if (isDir) await visit(p, depth + 1);
        else if (isFile && LOG_NAME.test(e.name) && out.length < MAX_WALK_FILES) out.push(p);
      }
    };
    await visit(folder, 0);
    return out;
  }
}
