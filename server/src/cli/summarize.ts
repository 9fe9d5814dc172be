// `rollout-lens summarize`: a run's summary (core/compare/summary.ts) written as JSON, and
// `--merge`: the summary of shards' summaries. Also how `diff` reads each side: a summary file
// as it is, a folder or log analysed as `check` would.
import { readFileSync, writeFileSync } from 'node:fs';

import { MergeError, mergeSummaries } from '../core/compare/summarySteps';
import { decodeSummary } from '../core/compare/summaryDecode';
import { renderSummary, SummaryError } from '../core/compare/summaryJson';
import { MixedRunError, type RunSummary, SummaryBuilder } from '../core/compare/summary';

import { RunAnalyzer, scanFile } from '../core/engine';
import type { RecomputedMetrics } from '../core/eval/compareMetrics';
import type { WalkTarget } from '../core/walk';
import { defaultSummarizeJobs, summarizeOnWorkers, summarizeWorkersAvailable } from '../node/parallelSummarize';
import { nodeFileAccess } from '../node/nodeFileAccess';
import type { SummaryFinding } from '../node/summarizeWorker';

import type { CheckArgs } from './args';
import { analyzeRun, type Io, lineProgress, prepareRun } from './check';
import type { SummarizeArgs } from './compareArgs';
import { escapeInline } from './escape';

/** A side that cannot be read; the CLI exits 2. */
export class UnreadableInput extends Error {}

/** A summary file by its name: `*.json` (logs are `*.jsonl`, `*.ndjson`, `*.pt`); the editor decides the same. */
export { isRunSummaryName as isSummaryPath } from '../../../shared/logFiles';

export function readSummaryFile(path: string): RunSummary {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UnreadableInput(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return decodeSummary(text);
  } catch (err) {
    if (err instanceof SummaryError) throw new UnreadableInput(`${path}: ${err.message}`);
    throw err;
  }
}

/** A run's summary, whether a file could not be read, and why the run is not one run (reported). */
export interface SummarizedRun {
  summary: RunSummary;
  unreadable: boolean;
  /** The paths hold runs of two frameworks: what they are. */
  mixed: string | null;
}

/**
 * Analyses `args.paths` as `check` does and summarises them, on worker threads with `--jobs` > 1
 * (default: every core on 4 cores or more); null when nothing could be read.
 */
export async function summarizeRun(args: CheckArgs, io: Io): Promise<SummarizedRun | null> {
  const jobs = args.jobs ?? defaultSummarizeJobs();
  const made = jobs > 1 && summarizeWorkersAvailable() ? await summarizeInParallel(args, io, jobs) : await summarizeHere(args, io);
  if (made === null) return null;
  const mixed = made.mixed.length === 0 ? null : mixedMessage(args.paths, made.mixed);
  if (mixed !== null) io.stderr(`rollout-lens: ${escapeInline(mixed)}\n`);
  return { summary: made.summary, unreadable: made.unreadable || mixed !== null, mixed };
}

function mixedMessage(paths: readonly string[], errors: readonly MixedRunError[]): string {
  const others = errors.map((e) => `a ${e.other} run (${e.path}, …)`);
  return `${paths.join(', ')}: a ${errors[0].first} run and ${others.join(' and ')}; a summary holds one run: give the folder or files of one of them`;
}

/** Records the first file of each other framework, keeping the run of the first. */
function addOrNote(add: () => void, mixed: MixedRunError[]): void {
  try {
    add();
  } catch (err) {
    if (!(err instanceof MixedRunError)) throw err;
    if (!mixed.some((m) => m.other === err.other)) mixed.push(err);
  }
}

async function summarizeHere(args: CheckArgs, io: Io): Promise<{ summary: RunSummary; unreadable: boolean; mixed: MixedRunError[] } | null> {
  let builder: SummaryBuilder | null = null;
  const mixed: MixedRunError[] = [];
  const analysed = await analyzeRun(args, io, (file, _settings, plan) => {
    const into = (builder ??= new SummaryBuilder(plan));
    addOrNote(() => into.add(file), mixed);
  });
  if (analysed === null) return null;
  const summary = (builder ?? new SummaryBuilder()).finish(analysed.report.findings);
  return { summary, unreadable: analysed.unreadable, mixed };
}

/**
 * The files on `threads` worker threads (node/parallelSummarize.ts), each analysed and summarised
 * as `summarizeHere` does; metrics logs here, once every file's recomputed values are in. The
 * files and findings are taken in the run's order, so the summary is the same to the byte.
 */
async function summarizeInParallel(
  args: CheckArgs,
  io: Io,
  threads: number,
): Promise<{ summary: RunSummary; unreadable: boolean; mixed: MixedRunError[] } | null> {
  const prepared = await prepareRun(args, io);
  if (prepared === null) return null;
  const { plan, total } = prepared;
  let unreadable = prepared.unreadable;
  const builder = new SummaryBuilder(plan);
  const findings: SummaryFinding[] = [];
  const mixed: MixedRunError[] = [];
  const progress = io.progress ?? (args.progress ? lineProgress(io.stderr) : undefined);
  const cannotRead = (target: WalkTarget, message: string) => {
    io.stderr(`rollout-lens: cannot read ${escapeInline(target.displayPath)}: ${escapeInline(message)}\n`);
    unreadable = true;
  };
  let done = 0;
  for (const group of prepared.groups) {
    const { settings, evalConfig, targets } = group;
    const recomputed: RecomputedMetrics[] = [];
    const metricsLogs: WalkTarget[] = [];
    const jobs = targets.map((t, index) => ({ index, path: t.path, displayPath: t.displayPath, settings, evalConfig }));
    await summarizeOnWorkers(plan, jobs, threads, (r) => {
      const target = targets[r.index];
      progress?.(done++, total, target.displayPath);
      if (r.type === 'error') return cannotRead(target, r.message);
      if (r.type === 'metrics-log') return void metricsLogs.push(target);
      recomputed.push(...r.recomputed);
      findings.push(...r.findings);
      const summarized = r.summarized;
      if (summarized) addOrNote(() => builder.addSummarized(summarized), mixed);
    });
    const options = { access: nodeFileAccess, settings, evalConfig };
    const run = new RunAnalyzer(options);
    run.addRecomputed(recomputed);
    for (const target of metricsLogs) {
      try {
        await run.add(await scanFile(target, options));
      } catch (err) {
        cannotRead(target, (err as Error).message);
      }
    }
    findings.push(...run.finish().findings);
  }
  progress?.(total, total, null);
  return { summary: builder.finish(findings), unreadable, mixed };
}

function write(out: string | null, text: string, io: Io): boolean {
  if (out === null) {
    io.stdout(text);
    return true;
  }
  try {
    writeFileSync(out, text);
    return true;
  } catch (err) {
    io.stderr(`rollout-lens: cannot write ${escapeInline(out)}: ${escapeInline((err as Error).message)}\n`);
    return false;
  }
}

export async function runSummarize(args: SummarizeArgs, io: Io): Promise<number> {
  let summary: RunSummary;
  let unreadable = false;
  if (args.merge) {
    try {
      summary = mergeSummaries(args.check.paths.map(readSummaryFile));
    } catch (err) {
      if (!(err instanceof UnreadableInput || err instanceof MergeError)) throw err;
      io.stderr(`rollout-lens: summarize --merge: ${escapeInline(err.message)}\n`);
      return 2;
    }
  } else {
    const made = await summarizeRun(args.check, io);
    if (made === null) return 2;
    ({ summary, unreadable } = made);
  }
  const text = renderSummary(summary);
  if (!write(args.out, text, io)) return 2;
  if (args.out !== null) {
    let files = 0;
    for (const s of summary.steps) files += s.files.length;
    io.stderr(`wrote ${escapeInline(args.out)}: ${summary.steps.length} steps, ${files} files, ${text.length} bytes\n`);
  }
  return unreadable ? 2 : 0;
}
