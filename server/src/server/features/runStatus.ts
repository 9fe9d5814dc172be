// `rolloutLens/runStatus`: a run at the level of the editor. Every file of the run is read as
// `check` reads it (findings as `check` keeps them); a folder's metrics logs are compared with
// what its other files recomputed, as `check <folder>` compares them; the run model counts the
// steps and groups (core/run/model.ts, core/run/totals.ts). Findings go back as diagnostics per
// file, for the client to show those of files that are not open.
import { ErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver';
import { DEFAULT_SETTINGS, type RunStatusFileDiagnostics, type RunStatusParams, type RunStatusResult } from '../../../../shared/protocol';
import { metricsLogFindings, type RecomputedMetrics } from '../../core/run/metricsLog';
import { RunModelBuilder } from '../../core/run/model';
import { runTotals } from '../../core/run/totals';
import type { FileReport, Finding, MetricsRecord } from '../../core/vocabulary/types';
import type { FileAnalysis } from '../analysis/fileAnalysis';
import type { ServerContext } from '../serverContext';
import { type Configured, runContextOf } from './runContext';
import { eachResult, runSummary } from './runSummary';
import { pathToUri } from '../documents/uris';
import { joinOf, readTrainData } from './trainData';
import { mismatchByRoot } from '../../core/views/runViewMismatch';
import type { RolloutJoin } from '../../core/run/trainData';

interface Visited extends Configured {
  /** Kept without its detail: the store is released after the visit. */
  report: FileReport | null;
  /** An analysis whose diagnostics are made once the run's findings are known (its detail dropped). */
  result: FileAnalysis;
  findings: Finding[];
  recomputed: RecomputedMetrics | null;
  metricsRecords: readonly MetricsRecord[] | null;
}

export async function runStatus(ctx: ServerContext, params: RunStatusParams, token: CancellationToken): Promise<RunStatusResult> {
  if (typeof params?.uri !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'runStatus needs { uri }');
  const visited: Visited[] = [];
  const joins = new Map<string, RolloutJoin>();
  let folder = false;
  const plan = await eachResult(
    ctx,
    params.uri,
    token,
    () => 'store',
    (r, inFolder, plan) => {
      folder = inFolder;
      const join = joinOf(r, plan);
      if (join) joins.set(join.file, join);
      // The datasets' summaries stay (diagnostics read a dataset's n); the samples do not.
      const d = r.report?.detail;
      const detail = d ? { samples: [], groups: [], datasets: d.datasets, metricsRecords: [], source: d.source } : undefined;
      const report = r.report ? { ...r.report, detail } : null;
      visited.push({
        path: r.path,
        evalConfig: r.report?.kind === 'eval' ? r.evalConfig : null,
        report,
        result: { ...r, report },
        // In a folder a metrics log is compared below with the folder's files; alone, with its run's (runMetrics).
        findings: inFolder ? r.ownFindings : r.findings,
        recomputed: r.recomputed,
        metricsRecords: r.report?.kind === 'metrics' ? (r.report.detail?.metricsRecords ?? []) : null,
      });
    },
  );
  // A dump folder's train_data, as `check <folder>` reads it: its findings join the files they are on.
  const train = await readTrainData(ctx, plan, joins, token);
  if (train.findings.length > 0) addTrainFindings(ctx, visited, train.findings);
  if (folder) {
    const recomputed = visited.flatMap((v) => (v.recomputed ? [v.recomputed] : [])).concat(train.recomputed);
    for (const v of visited) {
      if (v.metricsRecords === null) continue;
      const mismatches = metricsLogFindings(v.path, v.metricsRecords, recomputed);
      if (mismatches.length > 0) v.findings = v.findings.concat(mismatches).sort((a, b) => a.line - b.line);
    }
  }
  const builder = new RunModelBuilder(plan);
  for (const v of visited) if (v.report) builder.add(v.report);
  for (const t of train.steps) builder.addTrainStep(t);
  const runs = builder.finish();
  const totals = runTotals(
    runs,
    visited.flatMap((v) => v.findings),
  );
  const uris = new Map(visited.map((v) => [v.path, v.result.uri]));
  const files: RunStatusFileDiagnostics[] = [];
  for (const v of visited) {
    if (v.findings.length === 0) continue;
    files.push({ uri: v.result.uri, diagnostics: ctx.publisher.diagnosticsOf({ ...v.result, findings: v.findings }) });
  }
  // The drift the run view marks (one drift finder: core/views/runViewMismatch.ts), the earliest over the runs.
  let drift: RunStatusResult['drift'] = null;
  for (const m of mismatchByRoot(train.steps).values()) if (m.drift !== null && (drift === null || m.drift.step < drift.step)) drift = m.drift;
  return {
    uri: params.uri,
    drift,
    runs: runs.map((r) => runSummary(r, (p) => uris.get(p) ?? pathToUri(p))),
    rolloutSteps: totals.rolloutSteps,
    groups: totals.groups,
    metricMismatches: totals.metricMismatches,
    findings: totals.findings,
    files,
    context: await runContextOf(ctx, visited),
  };
}

/**
 * train_data's findings on the file each names: a visited rollout dump (the drift finding), else a
 * train_data file (not analysed on its own: it annotates its step), visited here with the settings
 * of the run's first file.
 */
function addTrainFindings(ctx: ServerContext, visited: Visited[], findings: readonly Finding[]): void {
  const byPath = new Map(visited.map((v) => [v.path, v]));
  const first = visited[0];
  for (const f of findings) {
    let v = byPath.get(f.file);
    if (v === undefined) {
      const uri = pathToUri(f.file);
      const settings = first?.result.settings ?? DEFAULT_SETTINGS;
      const result: FileAnalysis = {
        uri,
        path: f.file,
        version: null,
        report: null,
        findings: [],
        evalConfig: null,
        settings,
        access: ctx.overlay,
        recomputed: null,
        ownFindings: [],
      };
      v = { path: f.file, evalConfig: null, report: null, result, findings: [], recomputed: null, metricsRecords: null };
      visited.push(v);
      byPath.set(f.file, v);
    }
    v.findings = v.findings.concat(f).sort((a, b) => a.line - b.line);
  }
}
