// Which miles eval config applies to a log (docs/semantics.md#eval-grouping), found the way run
// settings are (core/locate/settingsFile.ts): one with a conventional name beside the log, else the
// nearest one in a folder above it, else the `evalConfig` setting (absolute, or relative to the
// workspace folder holding the log, else to the log's folder). Looked up through FileAccess, so an editor's unsaved, open config
// counts. The engine (no workspace folders) and the language server both ask here.
import type { FileAccess } from '../seams/fileAccess';
import type { PathOps } from '../seams/hostSeams';
import { dirnameOf, isAbsolutePath, isFile, joinPath } from './paths';

/** The names looked for beside a log, in this order. */
export const EVAL_CONFIG_NAMES: readonly string[] = ['eval_config.yaml', 'eval_config.yml', 'eval_config.json'];

/** True when a path's last part is one of `EVAL_CONFIG_NAMES`. */
export function isEvalConfigName(path: string): boolean {
  return EVAL_CONFIG_NAMES.includes(path.split(/[\\/]/).pop() ?? '');
}

/** The engine's own (core/locate/paths.ts): paths as written, never normalised. */
export const plainPaths: PathOps = {
  isAbsolute: isAbsolutePath,
  join: joinPath,
  dirname: dirnameOf,
  isInside: (parent, child) => child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`),
};

export interface EvalConfigQuery {
  /** The `evalConfig` setting; null or empty: look for a conventional name. */
  setting: string | null;
  /** Workspace folders (paths); empty outside an editor. */
  folders: readonly string[];
}

/** The workspace folder that holds `file`, the innermost when folders nest. */
function folderOf(file: string, folders: readonly string[], paths: PathOps = plainPaths): string | null {
  let best: string | null = null;
  for (const f of folders) if (paths.isInside(f, file) && (best === null || f.length > best.length)) best = f;
  return best;
}

/** The eval config for the log at `logPath` (a path, not yet read), or null when there is none. */
export async function locateEvalConfig(logPath: string, query: EvalConfigQuery, access: FileAccess, paths: PathOps = plainPaths): Promise<string | null> {
  // Beside the log, then upward to the root (bounded, for odd paths): the nearest wins.
  let dir = paths.dirname(logPath);
  for (let depth = 0; depth < 64; depth++) {
    for (const name of EVAL_CONFIG_NAMES) {
      const candidate = paths.join(dir, name);
      if (await isFile(access, candidate)) return candidate;
    }
    const up = paths.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  if (!query.setting) return null;
  if (paths.isAbsolute(query.setting)) return query.setting;
  const folder = folderOf(logPath, query.folders, paths) ?? query.folders[0] ?? null;
  return paths.join(folder ?? paths.dirname(logPath), query.setting);
}
