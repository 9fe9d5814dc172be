// The editor's side of a run's tokenizer (core/tokenizer/runTokenizer.ts): which settings apply,
// what a relative setting is relative to, how files are named in the views, and the rule for a
// path a log file names (the dashboard's `hf_checkpoint`): in a trusted workspace (or a client
// with no notion of trust, as the CLI) it is read wherever it is; in an untrusted one only inside
// a workspace folder, after links are resolved. The user allows more by trusting the workspace or
// by naming the tokenizer in their own settings (`rolloutLens.tokenizer`, which an untrusted
// workspace cannot set). docs/editors.md#token-text.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { findRunTokenizer, type RunTokenizer } from '../../core/tokenizer/runTokenizer';
import type { ServerContext } from '../serverContext';

/** Why a path a log names is not read here; null: it may be read. */
export async function mayFollow(ctx: Pick<ServerContext, 'workspaceTrusted' | 'folders' | 'overlay'>, path: string): Promise<string | null> {
  if (ctx.workspaceTrusted) return null;
  let real = resolve(path);
  try {
    real = await ctx.overlay.realPath(real);
  } catch {
    // Missing: the lexical path decides (nothing will be read there anyway).
  }
  const inside = ctx.folders.some((f) => {
    const rel = relative(resolve(f), real);
    return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
  });
  return inside
    ? null
    : 'outside the workspace, which is not trusted: not read (trust the workspace, or set rolloutLens.tokenizer in your user settings to that checkpoint)';
}

/** The workspace folder holding `path`, else null. */
function folderOf(ctx: Pick<ServerContext, 'folders'>, path: string): string | null {
  const abs = resolve(path);
  return ctx.folders.find((f) => abs === resolve(f) || abs.startsWith(resolve(f) + sep)) ?? null;
}

/** A path as the views name files: relative to its workspace folder, else as it is. */
export function viewName(ctx: Pick<ServerContext, 'folders'>, path: string): string {
  const folder = folderOf(ctx, path);
  return folder === null ? path : relative(folder, resolve(path)) || '.';
}

/**
 * The tokenizer of the run rooted at `root` (a dump folder), with `setting` (the `tokenizer`
 * setting of the run's files) relative to the workspace folder holding the run, else the run's folder.
 */
export async function runTokenizerOf(ctx: ServerContext, root: string, setting: string | null): Promise<RunTokenizer> {
  const found = await findRunTokenizer(ctx.overlay, { setting, base: folderOf(ctx, root) ?? root, root, mayFollow: (p) => mayFollow(ctx, p) });
  if (found.note === null) return found;
  return { ...found, note: { ...found.note, file: viewName(ctx, found.note.file), namedBy: found.note.namedBy && viewName(ctx, found.note.namedBy) } };
}
