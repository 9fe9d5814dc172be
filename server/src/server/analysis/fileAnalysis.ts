// One file through the engine, for the editor: per-sample detail kept (hover, outline, summaries),
// the eval config located and loaded, and only this file's findings kept. Cancellation is checked
// before the work and after it, and handed to the engine for the work in between.
import type { RolloutLensSettings } from '../../../../shared/protocol';
import { throwIfCancelled, type Cancellation } from '../../core/cancellation';
import { analyzeScans, scanFile, type ScanState } from '../../core/engine';
import { loadEvalConfig, type EvalConfig } from '../../core/eval/config';
import type { FileAccess } from '../../core/fileAccess';
import type { FileReport, Finding, RunReport } from '../../core/types';
import { locateEvalConfig } from '../../core/evalConfigLocation';
import { nodePaths } from '../protocol/uris';

export interface FileAnalysis {
  uri: string;
  path: string;
  /** Document version analysed; null for a file read from disk. */
  version: number | null;
  report: FileReport | null;
  /** Findings located in this file. */
  findings: Finding[];
  /** The eval config used (path), when one was found. */
  evalConfig: string | null;
  settings: RolloutLensSettings;
  /** Reads this file as it was analysed (document text or disk), for re-reading lines by offset. */
  access: FileAccess;
}

export interface RunOptions {
  uri: string;
  path: string;
  version: number | null;
  access: FileAccess;
  settings: RolloutLensSettings;
  workspaceFolders: readonly string[];
  cancellation: Cancellation;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Told when the eval config cannot be read or parsed (the log is still analysed without it). */
  onConfigProblem?: (message: string) => void;
}

/**
 * The engine keeps at most `maxProblems` findings per file, in line order (its memory bound on a
 * file of garbage). The editor caps by severity instead (errors first), so the engine is given
 * at least this many and the server applies the user's `maxProblems` itself.
 */
export const ENGINE_FINDINGS_FLOOR = 10_000;

export async function loadConfig(opts: RunOptions): Promise<{ path: string | null; config: EvalConfig | null }> {
  const path = await locateEvalConfig(opts.path, { setting: opts.settings.evalConfig, folders: opts.workspaceFolders }, opts.access, nodePaths);
  if (!path) return { path: null, config: null };
  try {
    return { path, config: await loadEvalConfig(path, opts.access) };
  } catch (err) {
    opts.onConfigProblem?.(`eval config ${path}: ${err instanceof Error ? err.message : String(err)}`);
    return { path, config: null };
  }
}

/** Throws the engine's CancelledError when the token fires, before, during or after its work. */
export async function runAnalysis(opts: RunOptions): Promise<FileAnalysis> {
  return (await runScanAnalysis(opts)).analysis;
}

/**
 * Scans the file (resuming `previous` when the file only grew: the engine decides) and analyses
 * the scan. The scan is returned so a tailed file can resume from it next time.
 */
export async function runScanAnalysis(opts: RunOptions, previous?: ScanState): Promise<{ analysis: FileAnalysis; scan: ScanState }> {
  throwIfCancelled(opts.cancellation);
  const { path: configPath, config } = await loadConfig(opts);
  throwIfCancelled(opts.cancellation);
  const options = {
    access: opts.access,
    settings: { ...opts.settings, maxProblems: Math.max(opts.settings.maxProblems, ENGINE_FINDINGS_FLOOR) },
    evalConfig: config,
    cancellation: opts.cancellation,
    keepDetail: true,
    onProgress: opts.onProgress ? (_file: string, read: number, total: number) => opts.onProgress?.(read, total) : undefined,
  };
  const scan = await scanFile({ path: opts.path, displayPath: opts.path }, options, previous);
  const run = await analyzeScans([scan], options);
  throwIfCancelled(opts.cancellation);
  return { analysis: fileAnalysisOf(opts, run, configPath, opts.access), scan };
}

/** This file's part of an engine run, with what hovers and quick fixes need to read it again. */
export function fileAnalysisOf(opts: RunOptions, run: RunReport, configPath: string | null, access: FileAccess): FileAnalysis {
  return {
    uri: opts.uri,
    path: opts.path,
    version: opts.version,
    report: run.files.find((f) => f.path === opts.path) ?? run.files[0] ?? null,
    findings: run.findings.filter((f) => f.file === opts.path),
    evalConfig: configPath,
    settings: opts.settings,
    access,
  };
}
