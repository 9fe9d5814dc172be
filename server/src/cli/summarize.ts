// `rollout-lens summarize`: a run's summary (core/compare/summary.ts) written as JSON, and
// `--merge`: the summary of shards' summaries. Also how `diff` reads each side: a summary file
// as it is, a folder or log analysed as `check` would.
import { readFileSync, writeFileSync } from 'node:fs';

import { MergeError, mergeSummaries } from '../core/compare/summarySteps';
import { renderSummary, parseSummary, SummaryError } from '../core/compare/summaryJson';
import { type RunSummary, SummaryBuilder } from '../core/compare/summary';

import type { CheckArgs } from './args';
import { analyzeRun, type Io } from './check';
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
    return parseSummary(text);
  } catch (err) {
    if (err instanceof SummaryError) throw new UnreadableInput(`${path}: ${err.message}`);
    throw err;
  }
}

/** Analyses `args.paths` as `check` does and summarises them; null when nothing could be read. */
export async function summarizeRun(args: CheckArgs, io: Io): Promise<{ summary: RunSummary; unreadable: boolean } | null> {
  let builder: SummaryBuilder | null = null;
  const analysed = await analyzeRun(args, io, (file, _settings, plan) => {
    builder ??= new SummaryBuilder(plan);
    builder.add(file);
  });
  if (analysed === null) return null;
  const summary = (builder ?? new SummaryBuilder()).finish(analysed.report.findings, analysed.report.trainSteps);
  return { summary, unreadable: analysed.unreadable };
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
