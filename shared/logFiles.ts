// What counts as a log file, by name: one predicate for the engine (folder walks), the server
// (which open documents to analyse, which files to watch) and the client (which tabs the views
// follow, the file picker).

/** Extensions of JSON Lines logs, without the dot. */
export const LOG_FILE_EXTENSIONS: readonly string[] = ['jsonl', 'ndjson'];

/** The same as a glob (file watchers, document selectors). */
export const LOG_FILE_GLOB = '**/*.{jsonl,ndjson}';

/** A run folder's step files, logs and `.pt` dumps, as a glob (the run view's file watcher). */
export const RUN_FILE_GLOB = '**/*.{jsonl,ndjson,pt}';

const LOG_FILE = /\.(?:jsonl|ndjson)$/i;

/** True for a file name or path (without query or fragment) that names a log. */
export function isLogFileName(nameOrPath: string): boolean {
  return LOG_FILE.test(nameOrPath);
}

/**
 * miles' `torch.save` dumps (`rollout_data/<step>.pt`): binary, so never an editor's text document,
 * but a folder walk reads them like logs (core/reader/pt).
 */
export function isPtDumpName(nameOrPath: string): boolean {
  return /\.pt$/i.test(nameOrPath);
}
