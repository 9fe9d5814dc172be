// `rolloutLens/compareRuns`: two runs compared by the engine exactly as `rollout-lens diff --format
// json` compares them (docs/compare.md): each side summarised from its files as saved on disk
// (core/compare/summary.ts, with `check`'s findings and a folder's metrics logs compared with its
// files) or read from a summary file, then `diffRuns` with the gate's rules from the settings file
// nearest above the candidate. This module only feeds the engine the server's analyses.
import { ErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver';
import type { CompareRunsParams } from '../../../../shared/protocol';
import { isLogFileName, isPtDumpName, isRunSummaryName } from '../../../../shared/logFiles';
import { DEFAULT_RESAMPLES } from '../../core/compare/bootstrap';
import type { RunDiff } from '../../../../shared/runDiff';
import { DEFAULT_MAX_PROMPTS, diffRuns } from '../../core/compare/diff';
import { gateRulesOf, type GateRules } from '../../core/compare/gate';
import type { RunSummary } from '../../core/compare/summary';
import { SummaryBuilder } from '../../core/compare/summaryBuilder';
import { parseSummary, SummaryError } from '../../core/compare/summaryJson';
import { CancelledError } from '../../core/seams/cancellation';
import { metricsLogFindings, type RecomputedMetrics } from '../../core/run/metricsLog';
import { parentDir } from '../../core/locate/paths';
import { readFileText } from '../../core/fileText';
import { filesToRead, planRun } from '../../core/run/plan';
import { loadGateSection, SettingsFileError } from '../../core/locate/settingsFile';
import type { Finding, MetricsRecord } from '../../core/vocabulary/types';
import type { ServerContext } from '../serverContext';
import { uriToPath } from '../documents/uris';
import { joinOf, readTrainData } from './trainData';
import type { RolloutJoin } from '../../core/run/trainData';

/** The most flipped prompts one answer lists (each is a row of the run view). */
const MAX_LISTED_PROMPTS = 1000;

function failed(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, message);
}

export async function compareRuns(ctx: ServerContext, params: CompareRunsParams, token: CancellationToken): Promise<RunDiff> {
  if (typeof params?.baseline !== 'string' || typeof params.candidate !== 'string') throw failed('compareRuns needs { baseline, candidate } (URIs)');
  const asked = params.maxPrompts;
  if (asked !== undefined && (!Number.isInteger(asked) || asked < 0)) throw failed('maxPrompts must be a whole number');
  const baselinePath = uriToPath(params.baseline);
  const candidatePath = uriToPath(params.candidate);
  const rules = await gateRules(ctx, candidatePath);
  const baseline = await summaryOf(ctx, baselinePath, token);
  const candidate = await summaryOf(ctx, candidatePath, token);
  return diffRuns(
    { source: baselinePath, summary: baseline },
    { source: candidatePath, summary: candidate },
    {
      align: { mode: 'number' },
      seed: 0,
      resamples: DEFAULT_RESAMPLES,
      rules,
      maxPrompts: Math.min(asked ?? DEFAULT_MAX_PROMPTS, MAX_LISTED_PROMPTS),
    },
  );
}

/** `gate:` of the settings file nearest above the candidate (as `diff` finds it), else the defaults. */
async function gateRules(ctx: ServerContext, candidate: string): Promise<GateRules> {
  let dir: string | null = candidate;
  try {
    if (!(await ctx.overlay.stat(candidate)).isDirectory) dir = parentDir(candidate);
  } catch {
    dir = parentDir(candidate);
  }
  const file = dir === null ? null : await ctx.runFiles.fileFor(dir);
  if (file === null) return gateRulesOf(undefined);
  try {
    return gateRulesOf(await loadGateSection(file, ctx.overlay));
  } catch (err) {
    if (err instanceof SettingsFileError) throw failed(`${file}: ${err.reason}`);
    throw err;
  }
}

/** A side: a summary file as it is; a folder or a log analysed and summarised as `diff` does. */
async function summaryOf(ctx: ServerContext, path: string, token: CancellationToken): Promise<RunSummary> {
  let isDirectory: boolean;
  let size: number;
  try {
    ({ isDirectory, size } = await ctx.overlay.stat(path));
  } catch (err) {
    throw failed(`cannot read the run ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isDirectory && isRunSummaryName(path)) {
    try {
      return parseSummary(await readFileText(ctx.overlay, path, size));
    } catch (err) {
      if (err instanceof SummaryError) throw failed(`${path}: ${err.message}`);
      throw err;
    }
  }
  if (!isDirectory && !isLogFileName(path) && !isPtDumpName(path))
    throw failed(`${path}: neither a run folder, a log or dump (*.jsonl, *.ndjson, *.pt, *.pth) nor a summary (*.json)`);
  const walked = (isDirectory ? await ctx.disk.walk(path, token) : [path]).map((p) => ({ path: p, displayPath: p }));
  if (walked.length === 0) throw failed(`no *.jsonl, *.ndjson, *.pt or *.pth files in ${path}`);
  const plan = planRun(walked, [path]);
  const builder = new SummaryBuilder(plan);
  const findings: Finding[] = [];
  const recomputed: RecomputedMetrics[] = [];
  const joins = new Map<string, RolloutJoin>();
  const metricsLogs: { path: string; records: readonly MetricsRecord[] }[] = [];
  for (const { path: file } of filesToRead(plan, walked)) {
    if (token.isCancellationRequested) throw new CancelledError();
    // The file as saved, with its store and groups' verdicts (what a summary reads), as `check` reads it.
    let result;
    try {
      result = await ctx.disk.analyze(file, token, 'store');
    } catch (err) {
      if (err instanceof CancelledError || token.isCancellationRequested) throw err;
      // `diff` refuses a side with an unreadable file (exit 2): so does the editor.
      throw failed(`cannot read the run ${path}: ${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const join = joinOf(result, plan);
    if (join) joins.set(join.file, join);
    try {
      if (result.report) builder.add(result.report);
    } catch (err) {
      // A second framework's file: a summary holds one run (docs/compare.md#the-summary).
      throw failed(`cannot read the run ${path}: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      // Not held by the cache: its store's chunks go to the next file's store.
      if (!ctx.disk.holds(file)) result.report?.detail?.store?.release();
    }
    findings.push(...(isDirectory ? result.ownFindings : result.findings));
    if (result.recomputed) recomputed.push(result.recomputed);
    if (result.report?.kind === 'metrics') metricsLogs.push({ path: file, records: result.report.detail?.metricsRecords ?? [] });
  }
  // A dump folder's train_data, as `diff` reads it: each step's mismatch (the mismatch-increase gate), its findings.
  const train = isDirectory ? await readTrainData(ctx, plan, joins, token) : null;
  if (train) {
    findings.push(...train.findings);
    recomputed.push(...train.recomputed);
  }
  // A folder's metrics logs against what its files recomputed, as `check <folder>` compares them.
  if (isDirectory) for (const log of metricsLogs) findings.push(...metricsLogFindings(log.path, log.records, recomputed));
  return builder.finish(findings, train?.steps);
}
