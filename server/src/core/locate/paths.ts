// Paths as the engine handles them: as written, `/` or `\\` separated, never normalised (the engine
// has no Node `path`; hosts hand in paths their own way). One set of helpers for every lookup
// that climbs or joins folders (run settings, eval configs).
import type { FileAccess } from '../seams/fileAccess';

function sepOf(path: string): string {
  return path.includes('\\') && !path.includes('/') ? '\\' : '/';
}

export function parentDir(path: string): string | null {
  const trimmed = path.length > 1 ? path.replace(/[\\/]+$/, '') : path;
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  if (cut < 0) return null;
  const parent = cut === 0 ? trimmed.slice(0, 1) : trimmed.slice(0, cut);
  // `C:` alone is the drive's current folder, not its root.
  const fixed = /^[A-Za-z]:$/.test(parent) ? `${parent}\\` : parent;
  return fixed === trimmed ? null : fixed;
}

export function joinPath(dir: string, name: string): string {
  const sep = sepOf(dir);
  return dir.endsWith('/') || dir.endsWith('\\') ? `${dir}${name}` : `${dir}${sep}${name}`;
}

export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(path);
}

/** The folder of a path (`.` for a bare name). */
export function dirnameOf(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut < 0 ? '.' : cut === 0 ? path.slice(0, 1) : path.slice(0, cut);
}

/** True when the path names a file (false when it is missing, a folder, or unreadable). */
/** Whether a file or a folder is at `path` (a tokenizer may be named by its checkpoint folder). */
export async function pathExists(access: FileAccess, path: string): Promise<boolean> {
  try {
    await access.stat(path);
    return true;
  } catch {
    return false;
  }
}

export async function isFile(access: FileAccess, path: string): Promise<boolean> {
  try {
    return (await access.stat(path)).isFile;
  } catch {
    return false;
  }
}
