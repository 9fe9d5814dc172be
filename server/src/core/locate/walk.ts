// Turns the paths a user gave (files or folders) into the log files to analyse: folders are
// searched recursively for `*.jsonl` / `*.ndjson` / `*.pt`, sorted naturally (`2.jsonl` before `10.jsonl`,
// so step files come in step order). Symlinked folders are followed once (by real path), so loops
// end; an unreadable entry becomes a problem to report, never a crash. The one walker: the CLI
// walks what the user named, the language server a run folder the client asks about (bounded).
import type { FileAccess } from '../seams/fileAccess';
import { isLogFileName, isPtDumpName } from '../vocabulary/logFiles';

export interface WalkTarget {
  path: string;
  displayPath: string;
}

export interface WalkProblem {
  path: string;
  message: string;
  /** True for a path the user named (the CLI exits 2); false for an entry inside a folder. */
  given: boolean;
}

export interface WalkResult {
  targets: WalkTarget[];
  problems: WalkProblem[];
}

export interface WalkOptions {
  /** Most log files listed (default: no limit). */
  maxFiles?: number;
  /** Deepest folder level below a given folder (default: no limit). */
  maxDepth?: number;
  /** Most folders listed per given folder: a client may name `/` or `/proc/self` (default: no limit). */
  maxDirs?: number;
  /** Polled between folders; the walk stops early and returns what it found. */
  isCancelled?: () => boolean;
}

/** Text logs and miles' `.pt` dumps: what a folder walk hands to the analysis. */
function isWalkedFileName(name: string): boolean {
  return isLogFileName(name) || isPtDumpName(name);
}

/** Natural order: digit runs compare by value, the rest by code unit. */
export function naturalCompare(a: string, b: string): number {
  const re = /(\d+)|(\D+)/g;
  const pa = a.match(re) ?? [];
  const pb = b.match(re) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    const dx = /^\d/.test(x);
    const dy = /^\d/.test(y);
    if (dx && dy) {
      const nx = BigInt(x);
      const ny = BigInt(y);
      if (nx !== ny) return nx < ny ? -1 : 1;
      if (x.length !== y.length) return x.length - y.length;
      continue;
    }
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

function join(dir: string, name: string): string {
  return dir.endsWith('/') || dir.endsWith('\\') ? `${dir}${name}` : `${dir}/${name}`;
}

function reason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e?.code === 'ENOENT') return 'no such file or folder';
  if (e?.code === 'EACCES' || e?.code === 'EPERM') return 'permission denied';
  if (e?.code === 'ELOOP') return 'symbolic link loop (ELOOP)';
  return e?.code ?? e?.message ?? String(err);
}

/**
 * Files are shown as given; files found in a folder are shown as the folder as given joined with
 * their path inside it (so the paths stay clickable from where the command ran).
 */
export async function walkPaths(paths: readonly string[], access: FileAccess, options: WalkOptions = {}): Promise<WalkResult> {
  const result: WalkResult = { targets: [], problems: [] };
  const seenFiles = new Set<string>();
  for (const given of paths) {
    let st;
    try {
      st = await access.stat(given);
    } catch (err) {
      result.problems.push({ path: given, message: `cannot read ${given}: ${reason(err)}`, given: true });
      continue;
    }
    if (st.isDirectory) {
      await walkDir(given, access, result, new Set(), seenFiles, options);
    } else if (st.isFile) {
      const real = await access.realPath(given).catch(() => given);
      if (!seenFiles.has(real)) {
        seenFiles.add(real);
        result.targets.push({ path: given, displayPath: given });
      }
    } else {
      result.problems.push({ path: given, message: `cannot read ${given}: not a file or folder`, given: true });
    }
  }
  return result;
}

async function walkDir(
  dir: string,
  access: FileAccess,
  result: WalkResult,
  seenDirs: Set<string>,
  seenFiles: Set<string>,
  options: WalkOptions,
): Promise<void> {
  const maxFiles = options.maxFiles ?? Infinity;
  const maxDepth = options.maxDepth ?? Infinity;
  const maxDirs = options.maxDirs ?? Infinity;
  // An explicit stack keeps deep trees off the JS stack; visited real paths end symlink loops.
  const stack: { path: string; depth: number }[] = [{ path: dir, depth: 0 }];
  let steps = 0;
  while (stack.length > 0 && steps++ < 1_000_000) {
    if (result.targets.length >= maxFiles || options.isCancelled?.()) return;
    if (seenDirs.size >= maxDirs) {
      result.problems.push({ path: dir, message: `stopped listing ${dir} after ${maxDirs} folders`, given: false });
      return;
    }
    const { path: current, depth } = stack.pop()!;
    let real: string;
    try {
      real = await access.realPath(current);
    } catch (err) {
      result.problems.push({ path: current, message: `cannot read ${current}: ${reason(err)}`, given: current === dir });
      continue;
    }
    if (seenDirs.has(real)) continue;
    seenDirs.add(real);
    let entries;
    try {
      entries = await access.readDir(current);
    } catch (err) {
      result.problems.push({ path: current, message: `cannot read folder ${current}: ${reason(err)}`, given: current === dir });
      continue;
    }
    entries.sort((a, b) => naturalCompare(a.name, b.name));
    const subdirs: string[] = [];
    for (const entry of entries) {
      const path = join(current, entry.name);
      let isDir = entry.isDirectory;
      let isFile = entry.isFile;
      if (entry.isSymbolicLink) {
        try {
          const st = await access.stat(path);
          isDir = st.isDirectory;
          isFile = st.isFile;
        } catch (err) {
          if (isWalkedFileName(entry.name)) result.problems.push({ path, message: `cannot read ${path}: ${reason(err)}`, given: false });
          continue;
        }
      }
      if (isDir) {
        if (depth < maxDepth) subdirs.push(path);
      } else if (!isFile && isWalkedFileName(entry.name)) {
        // A FIFO, socket or device named like a log: never opened (a FIFO would block), but said.
        result.problems.push({ path, message: `cannot read ${path}: not a regular file (a FIFO, socket or device)`, given: false });
      } else if (isFile && isWalkedFileName(entry.name) && result.targets.length < maxFiles) {
        const realFile = await access.realPath(path).catch(() => path);
        if (seenFiles.has(realFile)) continue;
        seenFiles.add(realFile);
        result.targets.push({ path, displayPath: path });
      }
    }
    // Files of a folder first, then its subfolders in natural order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ path: subdirs[i], depth: depth + 1 });
  }
}
