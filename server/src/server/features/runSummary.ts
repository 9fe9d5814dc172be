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
  GroupsByCauseParams,
  GroupsByCauseResult,
  RunStepsParams,
  RunStepsResult,
  SamplesRef,
  StepDrops,
} from '../../../../shared/protocol';
import { isFixable } from '../../core/catalog';
import { DROP_METRIC_PREFIX, formerlyMetricNames } from '../../core/causes';
import { fileStep } from '../../core/logFiles';
import type { FileDetail, GroupOutcome } from '../../core/types';
import { CancelledError } from '../../core/cancellation';
import type { FileAnalysis } from '../analysis/fileAnalysis';
import { sampleAt } from '../../core/inspect';
import type { ServerContext } from '../serverContext';
import { uriToPath } from '../protocol/uris';

/** Groups listed per cause bucket (the rest are counted in `omitted`), samples listed per group. */
const MAX_BUCKET_GROUPS = 500;
const MAX_GROUP_SAMPLES = 64;

/**
 * Visits the analysis of a log, of every log of a folder, or (no URI) of every analysed file, one
 * at a time. A folder's files read from disk that the disk cache does not keep (over its sample
 * budget) are released after their visit (their store's chunks go to the next file's store), so
 * the peak is that of one file, not of the folder (BENCHMARKS.md, "Run view over a large run
 * folder"). `visit` must keep only what its view needs, never the analysis.
 */
export async function eachResult(ctx: ServerContext, uri: string | undefined, token: CancellationToken, visit: (result: FileAnalysis) => void): Promise<void> {
  if (uri === undefined) {
    for (const r of ctx.allResults()) visit(r);
    return;
  }
  if (typeof uri !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'uri must be a string');
  const path = uriToPath(uri);
  const st = await ctx.overlay.stat(path);
  const paths = st.isDirectory ? await ctx.disk.walk(path, token) : [path];
  for (const p of paths) {
    if (token.isCancellationRequested) throw new CancelledError();
    const open = ctx.documents.all().find((d) => uriToPath(d.uri) === p && ctx.isLog(d));
    let result: FileAnalysis;
    let fromDisk = false;
    try {
      const have = open ? await ctx.analyses.resultForCurrent(open.uri, token) : ctx.live.resultByPath(p);
      if (have) result = have;
      else {
        result = await ctx.disk.analyze(p, token, 'store');
        fromDisk = true;
      }
    } catch (err) {
      // One unreadable step file must not hide the rest of a run folder; a single file is an error.
      if (!st.isDirectory || err instanceof CancelledError || token.isCancellationRequested) throw err;
      ctx.connection.console.warn(`rollout-lens: skipping ${p}: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    visit(result);
    // Not held by the cache, visited, and `visit` keeps nothing of it: its store's chunks go to the
    // next file's store instead of waiting for the collector.
    if (fromDisk && !ctx.disk.holds(p)) result.report?.detail?.store?.release();
  }
}

/** What `pick` takes from each analysis `eachResult` visits. */
async function fromEach<T>(ctx: ServerContext, uri: string | undefined, token: CancellationToken, pick: (result: FileAnalysis) => T): Promise<T[]> {
  const out: T[] = [];
  await eachResult(ctx, uri, token, (r) => out.push(pick(r)));
  return out;
}

/** Step of a file: the engine's answer from its records, else from its name (`12.jsonl`, `eval_12.jsonl`). */
function stepOf(result: FileAnalysis): number | null {
  const detail = result.report?.detail;
  return fileStep(result.path, detail?.store ?? detail?.samples ?? []);
}

function groupItem(detail: FileDetail, uri: string, g: GroupOutcome): GroupItem {
  const samples: SamplesRef[] = [];
  for (const line of g.lines.slice(0, MAX_GROUP_SAMPLES)) {
    const s = sampleAt(detail, line);
    if (s) samples.push({ uri, line: line - 1, status: s.status ?? (s.aborted ? 'aborted' : null), reward: s.reward, cause: s.cause });
  }
  const first = g.lines.length ? g.lines.reduce((a, b) => Math.min(a, b)) : 1;
  return { key: g.key, uri, line: first - 1, kept: g.kept, reason: g.reason, metric: g.metric, samples };
}

function fileGroups(result: FileAnalysis): FileGroups | null {
  const detail = result.report?.detail;
  if (!detail || detail.groups.length === 0) return null;
  const buckets = new Map<string, CauseBucket>();
  for (const g of detail.groups) {
    const reason = g.kept ? 'kept' : (g.reason ?? 'unknown');
    let bucket = buckets.get(reason);
    if (!bucket) {
      bucket = { reason, metric: g.kept ? null : g.metric, formerly: g.kept ? [] : formerlyMetricNames(reason), groups: [], omitted: 0 };
      buckets.set(reason, bucket);
    }
    if (bucket.groups.length < MAX_BUCKET_GROUPS) bucket.groups.push(groupItem(detail, result.uri, g));
    else bucket.omitted = (bucket.omitted ?? 0) + 1;
  }
  const dropped = detail.groups.filter((g) => !g.kept).length;
  // Dropped causes first, largest first; `kept` last.
  const ordered = [...buckets.values()].sort((a, b) => {
    if (a.reason === 'kept' || b.reason === 'kept') return a.reason === 'kept' ? 1 : -1;
    return b.groups.length + (b.omitted ?? 0) - (a.groups.length + (a.omitted ?? 0)) || a.reason.localeCompare(b.reason);
  });
  return { uri: result.uri, step: stepOf(result), dropped, kept: detail.groups.length - dropped, buckets: ordered };
}

export async function groupsByCause(ctx: ServerContext, params: GroupsByCauseParams, token: CancellationToken): Promise<GroupsByCauseResult> {
  const files = await fromEach(ctx, params?.uri, token, fileGroups);
  return { files: files.filter((f): f is FileGroups => f !== null) };
}

function datasetItems(result: FileAnalysis): DatasetItem[] {
  const detail = result.report?.detail;
  if (!detail) return [];
  return detail.datasets.map((d) => {
    const only = detail.datasets.length === 1;
    const first = detail.samples.find((s) => only || s.dataset === d.name);
    const item: DatasetItem = {
      uri: result.uri,
      line: first ? first.line - 1 : 0,
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
  return { datasets: (await fromEach(ctx, params?.uri, token, datasetItems)).flat() };
}

export async function runSteps(ctx: ServerContext, params: RunStepsParams, token: CancellationToken): Promise<RunStepsResult> {
  if (typeof params?.folderUri !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'runSteps needs { folderUri }');
  const steps: StepDrops[] = [];
  await eachResult(ctx, params.folderUri, token, (r) => {
    if (r.report?.kind !== 'rollout') return;
    const drops: Record<string, number> = {};
    for (const [name, value] of Object.entries(r.report?.metrics ?? {})) if (name.startsWith(DROP_METRIC_PREFIX)) drops[name] = value;
    steps.push({ uri: r.uri, step: stepOf(r), drops });
  });
  steps.sort((a, b) => (a.step ?? Infinity) - (b.step ?? Infinity) || a.uri.localeCompare(b.uri));
  return { steps };
}
