// Which miles eval config applies to a log (docs/semantics.md#eval-grouping): the `evalConfig` setting
// (absolute, or relative to the workspace folder holding the log), else one beside the log, else
// one at the root of that workspace folder. Looked up through FileAccess so an unsaved, open
// config counts.
import * as path from 'node:path';
import type { FileAccess } from '../../core/fileAccess';
import { isInside } from '../protocol/uris';

/** The names the engine (and the CLI) look for beside a log. */
export const CONFIG_NAMES = ['eval_config.yaml', 'eval_config.yml', 'eval_config.json'];

async function isFile(access: FileAccess, p: string): Promise<boolean> {
  try {
    return (await access.stat(p)).isFile;
  } catch {
    return false;
  }
}

/** The workspace folder (path) that holds `file`, the innermost when folders nest. */
export function folderOf(file: string, folders: readonly string[]): string | null {
  let best: string | null = null;
  for (const f of folders) if (isInside(f, file) && (best === null || f.length > best.length)) best = f;
  return best;
}

export async function locateEvalConfig(logPath: string, setting: string | null, folders: readonly string[], access: FileAccess): Promise<string | null> {
  const folder = folderOf(logPath, folders) ?? folders[0] ?? null;
  if (setting) {
    if (path.isAbsolute(setting)) return setting;
    return folder ? path.join(folder, setting) : path.join(path.dirname(logPath), setting);
  }
  const dirs = [path.dirname(logPath)];
  if (folder && folder !== dirs[0]) dirs.push(folder);
  for (const dir of dirs) {
    for (const name of CONFIG_NAMES) {
      const candidate = path.join(dir, name);
      if (await isFile(access, candidate)) return candidate;
    }
  }
  return null;
}
