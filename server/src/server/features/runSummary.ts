// The run summary requests of the shared protocol: groups by cause, per-dataset eval metrics,
// per-step drop counts of a run folder. Sources, in order: the open document (its current
// text), a file the server tails, else the file read from disk (cached by its stamp).
import { ErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver';
import type {
  CauseBucket,
  DatasetItem,
  EvalDatasetsParams,
  EvalDatasetsResult,
  FileGroups,
  GroupItem,
  RunContext,
  RunSummary,
  GroupsByCauseParams,
  GroupsByCauseResult,
  RunStepsParams,
  RunStepsResult,
  SamplesRef,
  StepDrops,
} from '../../../../shared/protocol';
import { isFixable } from '../../core/vocabulary/catalog';
import { dropMetricName, formerlyMetricNames, type CauseSettings } from '../../core/vocabulary/causes';
import { fileStep } from '../../core/vocabulary/logFiles';
import { fileOverview } from '../../core/run/fileOverview';
import { type Run, RunModelBuilder } from '../../core/run/model';
import { filesToRead, planRun, type RunPlan } from '../../core/run/plan';
import type { FileDetail, FileReport, SampleRecord } from '../../core/vocabulary/types';
import { CancelledError } from '../../core/seams/cancellation';
import type { FileAnalysis } from '../analysis/fileAnalysis';
import type { DetailForm } from '../analysis/diskCache';
import { failureCause, firstLineOf, groupMembersOfRows, membersOf, verdictOf } from '../../core/inspect';
import type { ServerContext } from '../serverContext';
import { pathToUri, uriToPath } from '../documents/uris';
import { type Configured, runContextOf, settingsFileOf } from './runContext';

/** Groups listed per cause bucket (the rest are counted in `omitted`), samples listed per group. */
const MAX_BUCKET_GROUPS = 500;
const MAX_GROUP_SAMPLES = 64;

/**
 * Visits the analysis of a log, of every log of a folder, or (no URI) of every analysed file, one
 * at a time. Files read from disk are analysed with the detail `form` says their view needs (told
 * whether the URI is a folder); those the disk cache does not keep (over its budget) are released
 * after their visit (their store's chunks go to the next file's store), so the peak is that of one
 * file, not of the folder (BENCHMARKS.md, "Run view over a large run folder"). `visit` must keep
 * only what its view needs, never the analysis. A folder's files that only annotate a step
 * (core/run/plan.ts) are not analysed; the folder's run plan is returned (null for a file).
 */
export async function eachResult(
  ctx: ServerContext,
  uri: string | undefined,
  token: CancellationToken,
  form: (inFolder: boolean) => DetailForm,
  visit: (result: FileAnalysis, inFolder: boolean, plan: RunPlan | null, fromDisk: boolean) => void,
  /** Before a file of a folder is read from disk: true when the caller has what it needs of it already (the file is then not read). */
  reuse?: (path: string, plan: RunPlan | null) => Promise<boolean>,
): Promise<RunPlan | null> {
  if (uri === undefined) {
    for (const r of ctx.allResults()) visit(r, false, null, false);
    return null;
  }
  if (typeof uri !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'uri must be a string');
  const path = uriToPath(uri);
  const st = await ctx.overlay.stat(path);
  const inFolder = st.isDirectory;
  let plan: RunPlan | null = null;
  let paths = [path];
  if (inFolder) {
    const walked = (await ctx.disk.walk(path, token)).map((p) => ({ path: p, displayPath: p }));
    plan = planRun(walked, [path]);
    paths = filesToRead(plan, walked).map((t) => t.path);
  }
  for (const p of paths) {
    if (token.isCancellationRequested) throw new CancelledError();
    let result: FileAnalysis;
    let fromDisk = false;
    try {
      const have = await ctx.resultForPath(p, token);
      if (have) result = have;
      else if (inFolder && reuse && (await reuse(p, plan))) continue;
      else {
        result = await ctx.disk.analyze(p, token, form(inFolder));
        fromDisk = true;
      }
    } catch (err) {
      // One unreadable step file must not hide the rest of a run folder; a single file is an error.
      if (!inFolder || err instanceof CancelledError || token.isCancellationRequested) throw err;
      ctx.connection.console.warn(`rollout-lens: skipping ${p}: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    visit(result, inFolder, plan, fromDisk);
    // Not held by the cache, visited, and `visit` keeps nothing of it: its store's chunks go to the
    // next file's store instead of waiting for the collector.
    if (fromDisk && !ctx.disk.holds(p)) result.report?.detail?.store?.release();
  }
  return plan;
}

/** What `pick` takes from each analysis `eachResult` visits, and the runs of those analyses (core/run/model.ts). */
async function fromEach<T>(
  ctx: ServerContext,
  uri: string | undefined,
  token: CancellationToken,
  form: (inFolder: boolean) => DetailForm,
  pick: (result: FileAnalysis, inFolder: boolean) => T,
): Promise<{ picked: T[]; runs: Run[]; uriOf: (path: string) => string; context: RunContext }> {
  const picked: T[] = [];
  const reports: FileAnalysis['report'][] = [];
  const uris = new Map<string, string>();
  const configured: Configured[] = [];
  const plan = await eachResult(ctx, uri, token, form, (r, inFolder) => {
    picked.push(pick(r, inFolder));
    reports.push(r.report);
    uris.set(r.path, r.uri);
    configured.push({ path: r.path, evalConfig: r.report?.kind === 'eval' ? r.evalConfig : null });
  });
  const builder = new RunModelBuilder(plan);
  for (const r of reports) if (r) builder.add(r);
  return { picked, runs: builder.finish(), uriOf: (path) => uris.get(path) ?? pathToUri(path), context: await runContextOf(ctx, configured) };
}

/** A run with its files as URIs (the client reveals them). */
export function runSummary(run: Run, uriOf: (path: string) => string): RunSummary {
  return {
    root: pathToUri(run.root),
    framework: run.framework,
    steps: run.steps.map((s) => ({
      step: s.step,
      kind: s.kind,
      uris: s.files.map(uriOf),
      partial: s.partial,
      groups: { ...s.groups },
      droppedByCause: { ...s.droppedByCause },
    })),
  };
}

/** Step of a file: the engine's answer from its records, else from its name (`12.jsonl`, `eval_12.jsonl`). */
function stepOf(result: FileAnalysis): number | null {
  const detail = result.report?.detail;
  if (detail) return fileStep(result.path, detail.store ?? detail.samples);
  return result.recomputed?.step ?? fileStep(result.path, []);
}

function sampleRef(uri: string, s: SampleRecord, settings: CauseSettings): SamplesRef {
  const status = s.status ?? (s.aborted ? 'aborted' : null);
  return { uri, line: s.line - 1, status, reward: s.reward, cause: s.cause, failureCause: failureCause(s, settings)?.name ?? null };
}

/** A group as listed: its members in group order (the first `MAX_GROUP_SAMPLES`). */
function groupItem(uri: string, key: string, members: readonly SampleRecord[], reason: string | null, settings: CauseSettings): GroupItem {
  const first = members.length ? members.reduce((a, s) => Math.min(a, s.line), Infinity) : 1;
  const metric = reason === null ? null : dropMetricName(reason);
  return {
    key,
    uri,
    line: first - 1,
    kept: reason === null,
    reason,
    metric,
    samples: members.slice(0, MAX_GROUP_SAMPLES).map((s) => sampleRef(uri, s, settings)),
  };
}

function newBucket(reason: string, metric: string | null): CauseBucket {
  const kept = reason === 'kept';
  return { reason, metric: kept ? null : metric, formerly: kept ? [] : formerlyMetricNames(reason), count: 0, groups: [], omitted: 0 };
}

/** Dropped causes first, largest first; `kept` last. */
function bucketOrder(a: CauseBucket, b: CauseBucket): number {
  if (a.reason === 'kept' || b.reason === 'kept') return a.reason === 'kept' ? 1 : -1;
  return b.count - a.count || a.reason.localeCompare(b.reason);
}

/** A rollout file's buckets and their counts from its report alone: the engine's summary of the file (drops by cause). */
function countedBuckets(report: FileReport): CauseBucket[] {
  const buckets: CauseBucket[] = [];
  for (const { reason, groups } of fileOverview(report).drops) {
    const b = newBucket(reason, dropMetricName(reason));
    b.count = b.omitted = groups;
    buckets.push(b);
  }
  if (report.groups.kept > 0) {
    const b = newBucket('kept', null);
    b.count = b.omitted = report.groups.kept;
    buckets.push(b);
  }
  return buckets;
}

/** Buckets with their first groups, from per-group outcomes (records detail). */
function listedFromOutcomes(detail: FileDetail, uri: string, settings: CauseSettings): CauseBucket[] {
  const buckets = new Map<string, CauseBucket>();
  for (const g of detail.groups) {
    const reason = g.kept ? 'kept' : (g.reason ?? 'unknown');
    let bucket = buckets.get(reason);
    if (!bucket) buckets.set(reason, (bucket = newBucket(reason, g.metric)));
    bucket.count++;
    if (bucket.groups.length < MAX_BUCKET_GROUPS) bucket.groups.push(groupItem(uri, g.key, membersOf(detail, g), g.kept ? null : g.reason, settings));
  }
  return [...buckets.values()];
}

/**
 * Buckets with their first groups, from a store and its groups' verdicts: one pass over the rows,
 * keeping the rows of the listed groups only. Groups are met in file order (a scan's rows are in
 * line order; group ids are first-appearance ordinals).
 */
function listedFromStore(detail: FileDetail & { store: NonNullable<FileDetail['store']> }, uri: string, settings: CauseSettings): CauseBucket[] {
  const store = detail.store;
  const buckets = new Map<string, CauseBucket>();
  const seen = new Uint8Array(store.groupKeys.size);
  const listed = new Map<number, { bucket: CauseBucket; rows: number[] }>();
  for (let i = 0; i < store.length; i++) {
    const gid = store.groupId(i);
    if (gid < 0) continue;
    if (seen[gid] === 0) {
      seen[gid] = 1;
      const reason = verdictOf(detail, gid) ?? 'kept';
      let bucket = buckets.get(reason);
      if (!bucket) buckets.set(reason, (bucket = newBucket(reason, dropMetricName(reason))));
      if (bucket.count++ < MAX_BUCKET_GROUPS) listed.set(gid, { bucket, rows: [] });
    }
    listed.get(gid)?.rows.push(i);
  }
  for (const [gid, { bucket, rows }] of listed) {
    const members = groupMembersOfRows(store, rows);
    bucket.groups.push(groupItem(uri, store.groupKeys.value(gid) as string, members, verdictOf(detail, gid), settings));
  }
  return [...buckets.values()];
}

/** A rollout file's groups by cause: with its first groups listed, or (`list` false) counts only. */
function fileGroups(result: FileAnalysis, list: boolean): FileGroups | null {
  const report = result.report;
  if (!report || report.kind !== 'rollout' || report.groups.total === 0) return null;
  const detail = report.detail;
  let buckets: CauseBucket[];
  if (!list || !detail) buckets = countedBuckets(report);
  else
    buckets =
      detail.store && detail.verdicts
        ? listedFromStore(detail as FileDetail & { store: NonNullable<FileDetail['store']> }, result.uri, result.settings)
        : listedFromOutcomes(detail, result.uri, result.settings);
  for (const b of buckets) b.omitted = b.count - b.groups.length;
  const listed = list && detail !== undefined;
  return {
    uri: result.uri,
    step: stepOf(result),
    dropped: report.groups.dropped,
    kept: report.groups.kept,
    groupsListed: listed,
    buckets: buckets.sort(bucketOrder),
  };
}

export async function groupsByCause(ctx: ServerContext, params: GroupsByCauseParams, token: CancellationToken): Promise<GroupsByCauseResult> {
  // A folder's files: counts only, from reports without per-sample detail (docs/editors.md).
  const { picked, runs, uriOf, context } = await fromEach(
    ctx,
    params?.uri,
    token,
    (inFolder) => (inFolder ? 'none' : 'store'),
    (r, inFolder) => fileGroups(r, !inFolder),
  );
  return { files: picked.filter((f): f is FileGroups => f !== null), runs: runs.map((r) => runSummary(r, uriOf)), context };
}

function datasetItems(result: FileAnalysis): DatasetItem[] {
  const report = result.report;
  const detail = report?.detail;
  if (!report || !detail) return [];
  return detail.datasets.map((d) => {
    const first = firstLineOf(report, detail, d.name);
    const item: DatasetItem = {
      uri: result.uri,
      evalConfig: result.evalConfig === null ? null : pathToUri(result.evalConfig),
      settingsFile: null,
      line: first !== null ? first - 1 : 0,
      name: d.name,
      samples: d.samples,
      n: d.n,
      nSource: d.nSource,
      metrics: d.metrics,
      findings: result.findings
        .filter((f) => f.dataset === d.name)
        .map((f) => ({ code: f.code, severity: f.severity, message: f.message, line: f.line - 1, fixable: isFixable(f.code) })),
    };
    if (d.wrongPassAtK) item.wrongPassAtK = d.wrongPassAtK;
    return item;
  });
}

export async function evalDatasets(ctx: ServerContext, params: EvalDatasetsParams, token: CancellationToken): Promise<EvalDatasetsResult> {
  const datasets = (await fromEach(ctx, params?.uri, token, () => 'store', datasetItems)).picked.flat();
  const settingsOf = new Map<string, Promise<string | null>>();
  for (const d of datasets) {
    const path = uriToPath(d.uri);
    if (!settingsOf.has(path)) settingsOf.set(path, settingsFileOf(ctx, path));
    d.settingsFile = await settingsOf.get(path)!;
  }
  return { datasets };
}

/** A run folder's rollout steps in step order (the run model's), with their drop counts by metric name. */
export async function runSteps(ctx: ServerContext, params: RunStepsParams, token: CancellationToken): Promise<RunStepsResult> {
  if (typeof params?.folderUri !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'runSteps needs { folderUri }');
  const { runs, uriOf } = await fromEach(
    ctx,
    params.folderUri,
    token,
    () => 'none',
    () => null,
  );
  const steps: StepDrops[] = [];
  for (const run of runs) {
    for (const s of run.steps) {
      if (s.kind !== 'rollout') continue;
      const drops: Record<string, number> = {};
      for (const [reason, n] of Object.entries(s.droppedByCause)) drops[dropMetricName(reason)] = n;
      steps.push({ uri: uriOf(s.files[0]), step: s.step, drops });
    }
  }
  steps.sort((a, b) => (a.step ?? Infinity) - (b.step ?? Infinity) || a.uri.localeCompare(b.uri));
  return { steps };
}
