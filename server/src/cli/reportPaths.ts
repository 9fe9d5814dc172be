// Paths in the `rollout-lens report` file, which is shared (attached to a CI run, sent to a
// colleague): every path is shown relative to the path given on the command line, never as this
// machine's absolute path. A file given itself is shown by its name.
import { statSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';

export interface ReportPaths {
  /** A path as the analysis shows it (as given, or joined to the folder given) → relative to the path given. */
  show(path: string): string;
  /** Text that may hold such paths (a finding's message): each absolute folder given is cut from it. */
  inText(text: string): string;
  /** The paths given, as the report's title names them (a folder or a file by its name). */
  title(): string;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function reportPaths(given: readonly string[], cwd: string = process.cwd()): ReportPaths {
  const roots = given.map((g) => {
    const abs = resolve(cwd, g);
    return { abs, folder: isFolder(abs) };
  });
  // Longest first: a path is shown relative to the innermost folder given that holds it.
  const folders = roots.filter((r) => r.folder).sort((a, b) => b.abs.length - a.abs.length);
  const base = roots[0] ? (roots[0].folder ? roots[0].abs : dirname(roots[0].abs)) : cwd;
  const prefixes = [...new Set([...folders.map((f) => f.abs), base, cwd])].filter((p) => p !== sep).sort((a, b) => b.length - a.length);

  function show(path: string): string {
    const abs = resolve(cwd, path);
    if (roots.some((r) => !r.folder && r.abs === abs)) return basename(abs);
    const holder = folders.find((f) => abs.startsWith(f.abs + sep));
    const rel = relative(holder?.abs ?? base, abs);
    // Another drive (Windows) has no relative path: its name is all the report says.
    return rel === '' ? '.' : isAbsolute(rel) ? basename(abs) : rel;
  }

  function inText(text: string): string {
    let out = text;
    for (const p of prefixes) out = out.split(p + sep).join('');
    return out;
  }

  function title(): string {
    return roots.map((r) => basename(r.abs) || r.abs).join(', ');
  }

  return { show, inText, title };
}

/** Fields of the run view model (shared/runViewModel.ts) that hold a file's path, or a list of them. */
const PATH_FIELDS = new Set(['file', 'files', 'source', 'sources', 'root']);

/**
 * A copy of a plain JSON value (the run view model) with its paths (`PATH_FIELDS`) shown relative
 * to the paths given, and the absolute folders given cut from every other string (log text stays
 * as it is otherwise).
 */
export function relativeModel<T>(value: T, paths: ReportPaths): T {
  const walk = (v: unknown, isPath: boolean): unknown => {
    if (typeof v === 'string') return isPath ? paths.show(v) : paths.inText(v);
    if (Array.isArray(v)) return v.map((x) => walk(x, isPath));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x, PATH_FIELDS.has(k));
      return out;
    }
    return v;
  };
  return walk(value, false) as T;
}
