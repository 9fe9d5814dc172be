// One file through the engine, for the editor: per-sample detail kept (hover, outline, summaries),
// the eval config located and loaded, and only this file's findings kept. Cancellation is checked
// before the work and after it, and handed to the engine for the work in between.
import type { RolloutLensSettings } from '../../../../shared/protocol';
import { throwIfCancelled, type Cancellation } from '../../core/seams/cancellation';
import { RunAnalyzer, scanFile, type AnalyzeOptions, type ScanState } from '../../core/engine';
import { severityOf } from '../../core/vocabulary/catalog';
import type { RecomputedMetrics } from '../../core/run/metricsLog';
import { readEvalConfig, type EvalConfig } from '../../core/evalConfigFile';
import type { FileAccess } from '../../core/seams/fileAccess';
import type { DeflateOffload } from '../../core/reader/deflateJobs';
import type { FileReport, Finding, RunReport } from '../../core/vocabulary/types';
import { locateEvalConfig } from '../../core/locate/evalConfig';
import { nodePaths } from '../documents/uris';

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
  /** What this rollout or eval file recomputed, for the run's metrics logs (null for other kinds). */
  recomputed: RecomputedMetrics | null;
  /** The findings of this file alone, before its run's findings (metric-mismatch) were added. */
  ownFindings: Finding[];
}

export interface RunOptions {
  uri: string;
  path: string;
  version: number | null;
  access: FileAccess;
  /** The runtime's (ServerRuntime.deflate). */
  deflate?: DeflateOffload;
  settings: RolloutLensSettings;
  workspaceFolders: readonly string[];
  cancellation: Cancellation;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Told when the eval config cannot be read or parsed (the log is still analysed without it). */
  onConfigProblem?: (message: string) => void;
  /** The run settings file found for the log could not be used (said as a finding on the log). */
  settingsProblem?: string | null;
  /** How per-sample detail is kept (default: records; the run views: the scan's store, or none). */
  keepDetail?: boolean | 'store';
}

/** What the engine analysed, for `fileAnalysisOf`. */
export interface EngineResult {
  run: RunReport;
  recomputed: RecomputedMetrics | null;
  configPath: string | null;
  configProblem: string | null;
}

/** One scan through the engine's analyses, with what it recomputed for the run. */
export async function analyzeOne(scan: ScanState, options: AnalyzeOptions): Promise<{ run: RunReport; recomputed: RecomputedMetrics | null }> {
  const analyzer = new RunAnalyzer(options);
  await analyzer.add(scan);
  return { run: analyzer.finish(), recomputed: analyzer.recomputedMetrics()[0] ?? null };
}

export async function loadConfig(opts: RunOptions): Promise<{ path: string | null; config: EvalConfig | null; problem: string | null }> {
  const path = await locateEvalConfig(opts.path, { setting: opts.settings.evalConfig, folders: opts.workspaceFolders }, opts.access, nodePaths);
  if (!path) return { path: null, config: null, problem: null };
  try {
    return { path, config: await readEvalConfig(path, opts.access), problem: null };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    opts.onConfigProblem?.(`eval config ${path}: ${why}`);
    return { path, config: null, problem: why };
  }
}

/** Throws the engine's CancelledError when the token fires, before, during or after its work. */
export async function runAnalysis(opts: RunOptions): Promise<FileAnalysis> {
  const { analysis, scan } = await runScanAnalysis(opts);
  // No resume here: unless the detail is the scan's store, its chunks go to the next file's
  // store now instead of waiting for the collector (a run folder is read file after file).
  if (analysis.report?.detail?.store !== scan.samples) scan.samples.release();
  return analysis;
}

/**
 * Scans the file (resuming `previous` when the file only grew: the engine decides) and analyses
 * the scan. The scan is returned so a tailed file can resume from it next time.
 */
export async function runScanAnalysis(opts: RunOptions, previous?: ScanState): Promise<{ analysis: FileAnalysis; scan: ScanState }> {
  throwIfCancelled(opts.cancellation);
  const { path: configPath, config, problem: configProblem } = await loadConfig(opts);
  throwIfCancelled(opts.cancellation);
  const options: AnalyzeOptions = {
    access: opts.access,
    settings: opts.settings,
    evalConfig: config,
    cancellation: opts.cancellation,
    deflate: opts.deflate,
    keepDetail: opts.keepDetail ?? true,
    onProgress: opts.onProgress ? (_file: string, read: number, total: number) => opts.onProgress?.(read, total) : undefined,
  };
  const scan = await scanFile({ path: opts.path, displayPath: opts.path }, options, previous);
  const done = await analyzeOne(scan, options);
  throwIfCancelled(opts.cancellation);
  return { analysis: fileAnalysisOf(opts, { ...done, configPath, configProblem }, opts.access), scan };
}

/**
 * What one run member (a file of the run that is not open) recomputed, for the run's metrics logs:
 * no per-sample detail kept, its samples released once analysed.
 */
export async function recomputeFromDisk(opts: RunOptions): Promise<{ recomputed: RecomputedMetrics | null; evalConfig: string | null; isEval: boolean }> {
  throwIfCancelled(opts.cancellation);
  const { path: configPath, config } = await loadConfig(opts);
  const options: AnalyzeOptions = {
    access: opts.access,
    settings: opts.settings,
    evalConfig: config,
    cancellation: opts.cancellation,
    deflate: opts.deflate,
  };
  const scan = await scanFile({ path: opts.path, displayPath: opts.path }, options);
  try {
    const done = await analyzeOne(scan, options);
    throwIfCancelled(opts.cancellation);
    return { recomputed: done.recomputed, evalConfig: configPath, isEval: scan.kind === 'eval' };
  } finally {
    scan.samples.release();
  }
}

function configFinding(file: string, message: string): Finding {
  return { code: 'config-unreadable', severity: severityOf('config-unreadable'), file, line: 1, message, group: null, dataset: null, fix: null };
}

/** This file's part of an engine run, with what hovers and quick fixes need to read it again. */
export function fileAnalysisOf(opts: RunOptions, result: EngineResult, access: FileAccess): FileAnalysis {
  const { run, configPath } = result;
  const report = run.files.find((f) => f.path === opts.path) ?? run.files[0] ?? null;
  const findings = run.findings.filter((f) => f.file === opts.path);
  // A config the log depends on but that cannot be used is said on the log itself: the findings
  // below were made without it, and an output log is read by nobody.
  if (opts.settingsProblem) findings.unshift(configFinding(opts.path, `run settings not used: ${opts.settingsProblem}`));
  if (result.configProblem && report?.kind === 'eval') {
    findings.unshift(configFinding(opts.path, `eval config not used, the log is checked without it: ${result.configProblem}`));
  }
  return {
    uri: opts.uri,
    path: opts.path,
    version: opts.version,
    report,
    findings,
    ownFindings: findings,
    evalConfig: configPath,
    settings: opts.settings,
    access,
    recomputed: result.recomputed,
  };
}
