// `rolloutLens/runView` and `rolloutLens/sampleView`: the run view model (core/views/runView.ts) of a log or a run folder, from
// the same analyses the Groups and Eval views use, with sources as URIs so the client can reveal
// them. Listed samples get their prompt/response excerpts read back through the overlay (open
// documents first, else disk).
import { ErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver';
import {
  DEFAULT_SETTINGS,
  type RolloutLensSettings,
  type RunViewParams,
  type SampleNavigationParams,
  type SampleNavigationResult,
  type SampleViewParams,
} from '../../../../shared/protocol';
import type { RunView } from '../../../../shared/runViewModel';
import type { SampleView } from '../../../../shared/sampleViewModel';
import { readSampleView } from '../../core/views/sampleView';
import { navigate } from '../../core/views/sampleNavigation';
import { DEFAULT_SAMPLES_PER_REASON, type FilePart, filePart, runViewBuilder } from '../../core/views/runView';
import { FindingRows } from '../../core/views/runViewRows';
import type { RunPlan } from '../../core/run/plan';
import { attachExcerpts } from '../../core/views/runViewExcerpts';
import { metricsLogFindings, type RecomputedMetrics } from '../../core/run/metricsLog';
import type { MetricsRecord } from '../../core/vocabulary/types';
import type { ServerContext } from '../serverContext';
import { sampleSource } from './sampleSource';
import { pathToUri } from '../documents/uris';
import { eachResult } from './runSummary';
import { joinOf, readTrainData } from './trainData';
import { mayFollow, runTokenizerOf } from './runTokenizers';
import { withStepTokenTexts } from '../../core/tokenizer/runTokenizer';
import type { RolloutJoin } from '../../core/run/trainData';

export const MAX_SAMPLES_PER_REASON = 200;

export async function runView(ctx: ServerContext, params: RunViewParams, token: CancellationToken): Promise<RunView> {
  if (params?.uri !== undefined && typeof params.uri !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'uri must be a string');
  const asked = params?.samplesPerReason;
  if (asked !== undefined && (!Number.isInteger(asked) || asked < 0))
    throw new ResponseError(ErrorCodes.InvalidParams, 'samplesPerReason must be a whole number');
  const samplesPerReason = Math.min(asked ?? DEFAULT_SAMPLES_PER_REASON, MAX_SAMPLES_PER_REASON);
  // The settings of the first file (as before), so the builder is made when that file is seen;
  // each file is folded in and dropped (a folder's samples are not all held at once). The
  // builder counts every finding and keeps only the first of each severity with their messages.
  let builder: ReturnType<typeof runViewBuilder> | null = null;
  const uriOf = new Map<string, string>();
  // What each file recomputed and the metrics logs' records: a metrics log is compared with its
  // run's files here (core/eval/compareMetrics.ts), as `check <folder>` compares it, so the run
  // view lists its metric-mismatch findings.
  const recomputed: RecomputedMetrics[] = [];
  const metricsLogs: { path: string; records: MetricsRecord[] }[] = [];
  const partKey = `run-view:${samplesPerReason}`;
  // Each miles rollout dump's samples by index, for joining its step's train_data (trainData.ts).
  const joins = new Map<string, RolloutJoin>();
  // The settings of the first file: its `tokenizer` setting applies to the run's worst tokens.
  let tokenizerSetting: string | null | undefined;
  const fold = (held: HeldRunViewPart, plan: RunPlan | null) => {
    if (tokenizerSetting === undefined) tokenizerSetting = held.settings.tokenizer;
    builder ??= runViewBuilder({ causes: held.settings, samplesPerReason, plan });
    uriOf.set(held.part.source, held.uri);
    if (held.join) joins.set(held.join.file, held.join);
    builder.addPart(held.part);
    builder.mergeFindings(held.findings);
    if (held.recomputed) recomputed.push(held.recomputed);
  };
  // Files read from disk: as their store and groups' verdicts (the least detail the view needs).
  // A step file of a folder unchanged since the last run view is not read again: its part of the
  // model is kept (by the file's stamp), so a run view drawn again when one step file appears
  // reads that file only (BENCHMARKS.md, "Run view following its run").
  const plan = await eachResult(
    ctx,
    params?.uri,
    token,
    () => 'store',
    (r, inFolder, plan, fromDisk) => {
      if (!r.report) return;
      const findings = new FindingRows();
      for (const f of r.findings) if (f.code !== 'metric-mismatch') findings.add(f);
      if (r.report.kind === 'metrics') {
        builder ??= runViewBuilder({ causes: r.settings, samplesPerReason, plan });
        builder.add(r.report);
        builder.mergeFindings(findings);
        metricsLogs.push({ path: r.path, records: r.report.detail?.metricsRecords ?? [] });
        return;
      }
      const held: HeldRunViewPart = {
        part: filePart(r.report, plan, samplesPerReason, r.settings),
        findings,
        recomputed: r.recomputed,
        uri: r.uri,
        settings: r.settings,
        join: joinOf(r, plan),
      };
      fold(held, plan);
      // Only a file read from disk for this folder is kept (an open document's text is not the file's).
      if (inFolder && fromDisk) ctx.disk.keepPart(r.path, partKey, r, held);
    },
    async (path, plan) => {
      const held = await ctx.disk.heldPart<HeldRunViewPart>(path, partKey);
      if (!held) return false;
      fold(held, plan);
      return true;
    },
  );
  builder ??= runViewBuilder({ causes: DEFAULT_SETTINGS, samplesPerReason, plan });
  const done = builder as ReturnType<typeof runViewBuilder>;
  // The folder's train_data, as `check <folder>` reads it: each step's mismatch, its findings and the drift finder's.
  const train = await readTrainData(ctx, plan, joins, token);
  // Each run's worst tokens with their text, from its tokenizer (the setting, else what its dump folder holds or names).
  for (const root of new Set(train.steps.map((t) => t.root))) {
    const steps = train.steps.filter((t) => t.root === root);
    const found = await runTokenizerOf(ctx, root, tokenizerSetting ?? null);
    done.addTokenizer(root, { note: found.note, problem: found.problem });
    for (const t of found.texts === null ? steps : withStepTokenTexts(steps, found.texts)) done.addTrainStep(t);
  }
  done.addFindings(train.findings);
  recomputed.push(...train.recomputed);
  for (const log of metricsLogs) done.addFindings(metricsLogFindings(log.path, log.records, recomputed));
  const view = done.finish();
  // The listed samples are the model's copies (core/views/runViewExcerpts.ts copyRef): a kept part's own are not changed.
  await attachExcerpts(view, ctx.overlay);
  const toUri = (source: string) => uriOf.get(source) ?? source;
  for (const step of view.steps) step.sources = step.sources.map(toUri);
  for (const refs of Object.values(view.samples)) for (const ref of refs) ref.source = toUri(ref.source);
  for (const run of view.runs) {
    const p = run.prompts;
    if (p) for (const e of [...p.neverLearned.examples, ...p.solvedStillSampled.examples, ...p.waste.examples]) e.source = toUri(e.source);
  }
  for (const row of view.findingRows) row.source = uriOf.get(row.file) ?? pathToUri(row.file);
  // A worst sample's or token's rollout dump, for the page's link to its sample view.
  for (const run of view.runs)
    for (const step of run.mismatch?.steps ?? [])
      for (const w of [...step.worstSamples, ...step.worstTokens]) if (w.file !== null) w.source = uriOf.get(w.file) ?? pathToUri(w.file);
  return view;
}

/** What the run view keeps of one file read from disk, for the next run view of its folder. */
interface HeldRunViewPart {
  part: FilePart;
  findings: FindingRows;
  recomputed: RecomputedMetrics | null;
  uri: string;
  settings: RolloutLensSettings;
  /** A miles rollout dump's samples by index (its step's train_data joins them); null for other files. */
  join: RolloutJoin | null;
}

/** `rolloutLens/sampleView`: the sample view model of the sample on a line (null: no sample there). */
export async function sampleView(ctx: ServerContext, params: SampleViewParams, token: CancellationToken): Promise<SampleView | null> {
  if (typeof params?.uri !== 'string' || !Number.isInteger(params.line) || params.line < 0) {
    throw new ResponseError(ErrorCodes.InvalidParams, 'sampleView needs { uri, line ≥ 0 }');
  }
  // An open document or a tailed file, else the file read from disk (as the run summaries do), as
  // its store and groups' verdicts: the sample is found by its line, its group by its id, and only
  // its line is read again (a file of a million samples is not turned into records).
  const source = (await sampleSource(ctx, params.uri, token, true))!;
  try {
    if (token.isCancellationRequested) return null;
    // A checkpoint a log names is read as the workspace's trust allows (runTokenizers.ts).
    const file = { ...source.result, mayFollow: (p: string) => mayFollow(ctx, p) };
    return (await readSampleView(file, params.line + 1, source.display)) ?? null;
  } finally {
    source.release();
  }
}

/** `rolloutLens/sampleNavigation`: the next or previous failed sample or dropped group from a sample's line. */
export async function sampleNavigation(ctx: ServerContext, params: SampleNavigationParams, token: CancellationToken): Promise<SampleNavigationResult> {
  const valid =
    typeof params?.uri === 'string' &&
    Number.isInteger(params.line) &&
    params.line >= 0 &&
    (params.target === 'failedSample' || params.target === 'droppedGroup') &&
    (params.direction === 1 || params.direction === -1);
  if (!valid)
    throw new ResponseError(ErrorCodes.InvalidParams, "sampleNavigation needs { uri, line ≥ 0, target: 'failedSample' | 'droppedGroup', direction: 1 | -1 }");
  const source = (await sampleSource(ctx, params.uri, token, true))!;
  try {
    const detail = source.result.report?.detail;
    if (!detail || token.isCancellationRequested) return { line: null };
    const line1 = navigate(detail, params.line + 1, params.target, params.direction, source.result.settings);
    return { line: line1 === null ? null : line1 - 1 };
  } finally {
    source.release();
  }
}
