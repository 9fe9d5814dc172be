// A dump folder's train_data for the editor's run view and run status, read as `check <folder>`
// reads it (core/engine.ts `addTrainStep`): every rank's file of a step, joined to the step's
// rollout dump by `sample_indices`, then the drift finder over the run's steps. A step's result is
// kept while its files and its rollout dump are unchanged (by their stamps), so a run view drawn
// again as one step appears reads that step's train_data only.
import type { CancellationToken } from 'vscode-languageserver';
import { CancelledError } from '../../core/seams/cancellation';
import { driftFindings } from '../../core/engine';
import { fileStamp } from '../../core/seams/fileAccess';
import type { RecomputedMetrics } from '../../core/run/metricsLog';
import { type RunPlan, trainDataRollouts, trainDataSteps } from '../../core/run/plan';
import { joinRolloutDump, readTrainStep, type RolloutJoin, type TrainStepRead } from '../../core/run/trainData';
import type { Finding, TrainStepReport } from '../../core/vocabulary/types';
import type { FileAnalysis } from '../analysis/fileAnalysis';
import type { ServerContext } from '../serverContext';

/** Steps kept per server (a few KB each); past this the cache starts again. */
const MAX_KEPT_STEPS = 4096;
const kept = new WeakMap<ServerContext, Map<string, { stamp: string; read: TrainStepRead }>>();

const joinedByPlan = new WeakMap<RunPlan, ReadonlySet<string>>();

/**
 * The join of a miles rollout dump the visit saw (its store is released after the visit), when a
 * train_data step of `plan` names it; null for other files.
 */
export function joinOf(r: FileAnalysis, plan: RunPlan | null): RolloutJoin | null {
  const store = r.report?.detail?.store;
  if (r.report?.format !== 'miles-pt' || store === undefined || plan === null) return null;
  let joined = joinedByPlan.get(plan);
  if (joined === undefined) joinedByPlan.set(plan, (joined = trainDataRollouts(plan)));
  return joined.has(r.report.path) ? joinRolloutDump(r.report.path, store) : null;
}

export interface TrainDataRead {
  steps: TrainStepReport[];
  /** The steps' own findings (train-data-misaligned, unreadable files) and the drift finder's. */
  findings: Finding[];
  /** What each step gives its metrics log (`train/train_rollout_*`, `rollout/log_probs`, …), as `check` compares them. */
  recomputed: RecomputedMetrics[];
}

/** Reads the train_data steps of `plan` (a folder's); `joins` by the rollout dump's path. */
export async function readTrainData(
  ctx: ServerContext,
  plan: RunPlan | null,
  joins: ReadonlyMap<string, RolloutJoin>,
  token: CancellationToken,
): Promise<TrainDataRead> {
  const out: TrainDataRead = { steps: [], findings: [], recomputed: [] };
  if (plan === null) return out;
  let cache = kept.get(ctx);
  if (cache === undefined) kept.set(ctx, (cache = new Map()));
  for (const t of trainDataSteps(plan)) {
    if (token.isCancellationRequested) throw new CancelledError();
    const files = t.files.map((f) => ({ path: f.path, displayPath: f.displayPath }));
    const join = t.of === null ? null : (joins.get(t.of) ?? null);
    let read: TrainStepRead;
    try {
      const stamps = await Promise.all(
        [...files.map((f) => f.path), ...(join ? [t.of!] : [])].map(async (p) => `${p}\u0000${fileStamp(await ctx.overlay.stat(p))}`),
      );
      const key = `${t.root}\u0000${t.step}`;
      const stamp = stamps.join('\u0001');
      const held = cache.get(key);
      if (held !== undefined && held.stamp === stamp) read = held.read;
      else {
        read = await readTrainStep(ctx.overlay, { step: t.step, files, join }, t.root);
        if (cache.size >= MAX_KEPT_STEPS) cache.clear();
        cache.set(key, { stamp, read });
      }
    } catch (err) {
      if (err instanceof CancelledError) throw err;
      ctx.connection.console.warn(`rollout-lens: skipping train_data of step ${t.step}: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    // Copies: a kept step is handed to every later visit.
    out.steps.push({ ...read.step });
    out.findings.push(...read.findings);
    out.recomputed.push({ ...read.recomputed });
  }
  out.findings.push(...driftFindings(out.steps));
  return out;
}
