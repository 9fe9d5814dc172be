// The run's tokenizer, for the token texts of its worst tokens (docs/editors.md#token-text): the
// `tokenizer` setting when one is given (it wins), else what the run itself holds. miles main
// (31f1ca9) writes two things under its `--dump-details` folder D that lead to one:
//   - `D/tokenizer/`: `RolloutDataSource.__init__` (miles/rollout/data_source.py) saves the
//     tokenizer it loaded from `--hf-checkpoint` there with `save_pretrained` whenever the global
//     dataset is on (the default); a fast tokenizer's folder holds its tokenizer.json;
//   - `D/dashboard/meta.json`: with `--use-miles-dashboard`, the collector writes `{run_name,
//     start_ts, args, schema_version}` whose `args` snapshot names `hf_checkpoint`
//     (miles/dashboard/args.py `_SNAPSHOT_KEYS`, store.py `write_meta`).
// The first is read as part of the run; the second is a path a log file names, which the host may
// refuse to follow (an untrusted workspace, a path outside it: `mayFollow`).
import type { TokenizerNote } from '../../../../shared/runViewModel';
import type { FileAccess } from '../seams/fileAccess';
import { isAbsolutePath, joinPath, pathExists } from '../locate/paths';
import type { TrainStepReport } from '../vocabulary/types';
import { loadTokenTexts, TokenizerError, type TokenTexts } from './tokenText';

/** The folder miles saves its tokenizer into, in the dump folder. */
export const DUMP_TOKENIZER_DIR = 'tokenizer';
/** The dashboard's meta file, in the dump folder. */
export const DASHBOARD_META = 'dashboard/meta.json';
/** A meta.json larger than this is not the dashboard's (it holds a few dozen args). */
const MAX_META_BYTES = 1024 * 1024;

export interface RunTokenizerQuery {
  /** The `tokenizer` setting; null: not set. */
  setting: string | null;
  /** What a relative setting is relative to (null: as given). */
  base: string | null;
  /** The run's dump folder D (where miles writes `tokenizer/` and `dashboard/`); null: not a dump run. */
  root: string | null;
  /** Whether a path a log file names may be read (the host's rule: docs/editors.md#token-text). Null: it may not, and why. */
  mayFollow: (path: string) => Promise<string | null>;
}

export interface RunTokenizer {
  texts: TokenTexts | null;
  /** Where it came from (its `file` as found: the host names it as its views name files). */
  note: TokenizerNote | null;
  /** Why none was read, when one was set or named; null otherwise. */
  problem: string | null;
}

async function readSmall(access: FileAccess, path: string): Promise<string | null> {
  let size;
  try {
    const st = await access.stat(path);
    if (!st.isFile || st.size > MAX_META_BYTES) return null;
    size = st.size;
  } catch {
    return null;
  }
  const bytes = new Uint8Array(size);
  const file = await access.open(path);
  try {
    let at = 0;
    while (at < size) {
      const n = await file.read(bytes, at, size - at, at);
      if (n === 0) break;
      at += n;
    }
    return new TextDecoder().decode(bytes.subarray(0, at));
  } finally {
    await file.close();
  }
}

/** `args.hf_checkpoint` of the dashboard's meta.json; null when the file or the key is not there. */
export async function hfCheckpointOf(access: FileAccess, metaPath: string): Promise<string | null> {
  const text = await readSmall(access, metaPath);
  if (text === null) return null;
  let meta: unknown;
  try {
    meta = JSON.parse(text);
  } catch {
    return null;
  }
  const args = meta !== null && typeof meta === 'object' ? (meta as { args?: unknown }).args : undefined;
  const named = args !== null && typeof args === 'object' ? (args as { hf_checkpoint?: unknown }).hf_checkpoint : undefined;
  return typeof named === 'string' && named !== '' ? named : null;
}

const note = (texts: TokenTexts, from: TokenizerNote['from'], namedBy: string | null = null): TokenizerNote => ({
  file: texts.path,
  decoder: texts.decoder,
  from,
  namedBy,
});

/** A tokenizer that cannot be read is said, whatever failed: the views keep the ids. */
const problemOf = (err: unknown): string => (err instanceof TokenizerError || err instanceof Error ? err.message : String(err));

/** The run's tokenizer: the setting's, else miles' copy in D, else the checkpoint D's dashboard names. */
export async function findRunTokenizer(access: FileAccess, q: RunTokenizerQuery): Promise<RunTokenizer> {
  if (q.setting) {
    try {
      const texts = await loadTokenTexts(access, q.setting, q.base);
      return { texts, note: note(texts, 'setting'), problem: null };
    } catch (err) {
      // The setting wins: a setting that cannot be read is said, never replaced by a guess.
      return { texts: null, note: null, problem: problemOf(err) };
    }
  }
  if (q.root === null) return { texts: null, note: null, problem: null };
  const problems: string[] = [];
  const saved = joinPath(q.root, DUMP_TOKENIZER_DIR);
  if (await pathExists(access, saved)) {
    try {
      const texts = await loadTokenTexts(access, saved);
      return { texts, note: note(texts, 'dump'), problem: null };
    } catch (err) {
      problems.push(problemOf(err));
    }
  }
  const meta = joinPath(q.root, DASHBOARD_META);
  const checkpoint = await hfCheckpointOf(access, meta);
  if (checkpoint !== null) {
    if (!isAbsolutePath(checkpoint)) {
      // A hub id (`Qwen/Qwen3-4B`) or a path relative to where miles ran: neither is known here.
      problems.push(`${meta} names hf_checkpoint ${JSON.stringify(checkpoint)}, not an absolute path: it is not looked for`);
    } else {
      const refused = await q.mayFollow(checkpoint);
      if (refused !== null) problems.push(`${meta} names hf_checkpoint ${checkpoint}: ${refused}`);
      else
        try {
          const texts = await loadTokenTexts(access, checkpoint);
          return { texts, note: note(texts, 'hf_checkpoint', meta), problem: null };
        } catch (err) {
          problems.push(`${meta} names hf_checkpoint ${checkpoint}: ${problemOf(err)}`);
        }
    }
  }
  return { texts: null, note: null, problem: problems.length > 0 ? problems.join('; ') : null };
}

/** Follows any path (the CLI: it reads what it is pointed at, as `--tokenizer` does). */
export const followAny = async (): Promise<string | null> => null;

/**
 * The steps with their worst tokens' texts from `texts` (copies: a host's kept results stay as
 * they were). The one place the run view, the report and `check` take token texts from.
 */
export function withStepTokenTexts(steps: readonly TrainStepReport[], texts: TokenTexts): TrainStepReport[] {
  return steps.map((s) =>
    s.mismatch === null
      ? s
      : { ...s, mismatch: { ...s.mismatch, worstTokens: s.mismatch.worstTokens.map((t) => ({ ...t, text: t.token === null ? null : texts.text(t.token) })) } },
  );
}
