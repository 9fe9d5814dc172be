// `rollout-lens summarize`: a run's summary (core/compare/summary.ts) written as JSON, and
// `--merge`: the summary of shards' summaries. Also how `diff` reads each side: a summary file
// as it is, a folder or log analysed as `check` would.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';

import { MergeError, mergeSummaries } from '../core/compare/summarySteps';
import { decodeSummary } from '../core/compare/summaryDecode';
import { renderSummaryPieces, SummaryError } from '../core/compare/summaryJson';
import type { RunSummary } from '../core/compare/summary';
import { MixedRunError, SummaryBuilder } from '../core/compare/summaryBuilder';

import { RunAnalyzer, scanFile } from '../core/engine';
import { trainDataSteps } from '../core/run/plan';
import type { RecomputedMetrics } from '../core/run/metricsLog';
import type { WalkTarget } from '../core/locate/walk';
import { defaultSummarizeJobs, SummarizePool, summarizeWorkersAvailable } from '../node/parallelSummarize';
import { KeptRows } from '../node/keptRows';
import type { SummaryFinding } from '../node/summarizeJob';

import type { CheckArgs } from './args';
import { analyzeRun, type Io, lineProgress, type PreparedRun, prepareRun } from './check';
import type { SummarizeArgs } from './compareArgs';
import { escapeInline } from './escape';
import { cliFileAccess } from './fileAccess';

/** A side that cannot be read; the CLI exits 2. */
export class UnreadableInput extends Error {}

/** A summary file by its name: `*.json` (logs are `*.jsonl`, `*.ndjson`, `*.pt`); the editor decides the same. */
export { isRunSummaryName as isSummaryPath } from '../../../shared/logFiles';

export function readSummaryFile(path: string): RunSummary {
  let bytes: Uint8Array;
  try {
    // Read from its bytes, no text made of them (a summary of 1 000 steps × 512 prompts is 22 MB).
    bytes = readFileSync(path);
  } catch (err) {
    throw new UnreadableInput(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return decodeSummary(bytes);
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
export async function summarizeRun(args: CheckArgs, io: Io, kept?: KeptRows): Promise<SummarizedRun | null> {
  const jobs = args.jobs ?? defaultSummarizeJobs();
  const made = jobs > 1 && summarizeWorkersAvailable() ? await summarizeInParallel(args, io, jobs, kept) : await summarizeHere(args, io, kept);
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

async function summarizeHere(args: CheckArgs, io: Io, kept?: KeptRows): Promise<{ summary: RunSummary; unreadable: boolean; mixed: MixedRunError[] } | null> {
  let builder: SummaryBuilder | null = null;
  const mixed: MixedRunError[] = [];
  const analysed = await analyzeRun(args, io, (file, _settings, plan) => {
    const into = (builder ??= new SummaryBuilder(plan));
    addOrNote(() => {
      const summarized = into.add(file);
      if (summarized) kept?.keep(summarized);
    }, mixed);
  });
  if (analysed === null) return null;
  const summary = (builder ?? new SummaryBuilder()).finish(analysed.report.findings, analysed.report.trainSteps);
  return { summary, unreadable: analysed.unreadable, mixed };
}

/**
 * The files on `threads` threads (node/parallelSummarize.ts), each analysed and summarised as
 * `summarizeHere` does; metrics logs here, once every file's recomputed values are in. The files
 * and findings are taken in the run's order, so the summary is the same to the byte.
 */
async function summarizeInParallel(
  args: CheckArgs,
  io: Io,
  threads: number,
  kept?: KeptRows,
): Promise<{ summary: RunSummary; unreadable: boolean; mixed: MixedRunError[] } | null> {
  // Started before the folder is listed: the workers' own start overlaps it.
  const pool = new SummarizePool(threads);
  try {
    const prepared = await prepareRun(args, io);
    if (prepared === null) return null;
    // A step's train_data is joined to its rollout dump in the analyzer that read the dump: such a
    // run is read on this thread, as `check` reads it.
    if (trainDataSteps(prepared.plan).length > 0) return await summarizeHere(args, io, kept);
    return await summarizePrepared(prepared, pool, args, io, kept);
  } finally {
    pool.close();
  }
}

async function summarizePrepared(
  prepared: PreparedRun,
  pool: SummarizePool,
  args: CheckArgs,
  io: Io,
  kept?: KeptRows,
): Promise<{ summary: RunSummary; unreadable: boolean; mixed: MixedRunError[] }> {
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
    await pool.run(plan, jobs, (r) => {
      const target = targets[r.index];
      progress?.(done++, total, target.displayPath);
      if (r.type === 'error') return cannotRead(target, r.message);
      if (r.type === 'metrics-log') return void metricsLogs.push(target);
      recomputed.push(...r.recomputed);
      findings.push(...r.findings);
      const summarized = r.summarized;
      if (summarized)
        addOrNote(() => {
          builder.addSummarized(summarized);
          kept?.keep(summarized.file);
        }, mixed);
    });
    const options = { access: cliFileAccess, settings, evalConfig };
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

/** Writes the summary piece by piece to `out` (stdout when null); its size in bytes, or null when it cannot be written (reported). */
async function write(out: string | null, summary: RunSummary, io: Io): Promise<number | null> {
  let bytes = 0;
  if (out === null) {
    for (const piece of renderSummaryPieces(summary)) {
      io.stdout(piece);
      bytes += Buffer.byteLength(piece);
      await io.drained?.();
    }
    return bytes;
  }
  let fd: number | null = null;
  try {
    fd = openSync(out, 'w');
    for (const piece of renderSummaryPieces(summary)) bytes += writeSync(fd, piece);
    return bytes;
  } catch (err) {
    io.stderr(`rollout-lens: cannot write ${escapeInline(out)}: ${escapeInline((err as Error).message)}\n`);
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export async function runSummarize(args: SummarizeArgs, io: Io): Promise<number> {
  if (args.merge) {
    let summary: RunSummary;
    try {
      summary = mergeSummaries(args.check.paths.map(readSummaryFile));
    } catch (err) {
      if (!(err instanceof UnreadableInput || err instanceof MergeError)) throw err;
      io.stderr(`rollout-lens: summarize --merge: ${escapeInline(err.message)}\n`);
      return 2;
    }
    return (await writeSummary(args.out, summary, io)) ? 0 : 2;
  }
  // Each file's prompt rows wait in a scratch file until the summary is written.
  const kept = new KeptRows();
  try {
    const made = await summarizeRun(args.check, io, kept);
    if (made === null) return 2;
    return (await writeSummary(args.out, made.summary, io)) && !made.unreadable ? 0 : 2;
  } finally {
    kept.close();
  }
}

/** Writes the summary (and says where to with --out); false when it cannot be written (reported). */
async function writeSummary(out: string | null, summary: RunSummary, io: Io): Promise<boolean> {
  const bytes = await write(out, summary, io);
  if (bytes === null) return false;
  if (out !== null) {
    let files = 0;
    for (const s of summary.steps) files += s.files.length;
    io.stderr(`wrote ${escapeInline(out)}: ${summary.steps.length} steps, ${files} files, ${bytes} bytes\n`);
  }
  return true;
}
