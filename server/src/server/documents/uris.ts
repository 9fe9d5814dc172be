// The engine speaks file-system paths (through FileAccess); LSP speaks URIs. `file:` URIs map to
// their path. Other schemes (untitled buffers, virtual files) get a stable synthetic path under a
// folder that cannot exist on disk, so the overlay can serve them and nothing else matches them.
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as path from 'node:path';
import type { PathOps } from '../../core/seams/hostSeams';

const VIRTUAL_ROOT = '/\u0000rollout-lens-virtual';

export function uriToPath(uri: string): string {
  if (uri.startsWith('file:')) {
    try {
      return fileURLToPath(uri);
    } catch {
      // e.g. a UNC host on a POSIX machine: fall through to a virtual path
    }
  }
  return `${VIRTUAL_ROOT}/${encodeURIComponent(uri)}`;
}

export function pathToUri(p: string): string {
  if (p.startsWith(`${VIRTUAL_ROOT}/`)) return decodeURIComponent(p.slice(VIRTUAL_ROOT.length + 1));
  return pathToFileURL(p).href;
}

/** True when `child` is `parent` or inside it (both absolute paths). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Node's path operations, for the engine's lookups that take them (eval config location). */
export const nodePaths: PathOps = { isAbsolute: path.isAbsolute, join: path.join, dirname: path.dirname, isInside };
