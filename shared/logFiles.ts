// What counts as a log file, by name: one predicate for the engine (folder walks), the server
// (which open documents to analyse, which files to watch) and the client (which tabs the views
// follow, the file picker).

/** Extensions of JSON Lines logs, without the dot. */
export const LOG_FILE_EXTENSIONS: readonly string[] = ['jsonl', 'ndjson'];

/** Extensions of `torch.save` files read as miles dumps (miles writes `.pt`), without the dot. */
export const PT_DUMP_EXTENSIONS: readonly string[] = ['pt', 'pth'];

const globOf = (extensions: readonly string[]) => `**/*.{${extensions.join(',')}}`;
const suffixOf = (extensions: readonly string[]) => new RegExp(`\\.(?:${extensions.join('|')})$`, 'i');

/** The same as a glob (file watchers, document selectors). */
export const LOG_FILE_GLOB = globOf(LOG_FILE_EXTENSIONS);

/** `.pt` dumps as a glob (the server's file watcher). */
export const PT_DUMP_GLOB = globOf(PT_DUMP_EXTENSIONS);

/** A run folder's step files, logs and `.pt` dumps, as a glob (the run view's file watcher). */
export const RUN_FILE_GLOB = globOf([...LOG_FILE_EXTENSIONS, ...PT_DUMP_EXTENSIONS]);

const LOG_FILE = suffixOf(LOG_FILE_EXTENSIONS);
const PT_DUMP = suffixOf(PT_DUMP_EXTENSIONS);
const RUN_FILE = suffixOf([...LOG_FILE_EXTENSIONS, ...PT_DUMP_EXTENSIONS]);

/** True for a file name or path (without query or fragment) that names a log. */
export function isLogFileName(nameOrPath: string): boolean {
  return LOG_FILE.test(nameOrPath);
}

/**
 * miles' `torch.save` dumps (`rollout_data/<step>.pt`): binary, so never an editor's text document,
 * but a folder walk reads them like logs (core/reader/pt). The name is a hint: the reader still
 * checks that the file is a zip (core/scan/ptDumpScan.ts `isTorchFile`).
 */
export function isPtDumpName(nameOrPath: string): boolean {
  return PT_DUMP.test(nameOrPath);
}

/** A log's or dump's name without its extension (`eval_100.jsonl` → `eval_100`); null for other names. */
export function runFileStem(name: string): string | null {
  const m = RUN_FILE.exec(name);
  return m ? name.slice(0, m.index) : null;
}

/** A run summary (`rollout-lens summarize`'s output) by its name: `*.json`; `diff` reads such a side as a summary. */
export function isRunSummaryName(nameOrPath: string): boolean {
  return /\.json$/i.test(nameOrPath);
}
