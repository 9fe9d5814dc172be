// One file of `summarize --jobs <n>` (node/parallelSummarize.ts), on a worker (summarizeWorker.ts)
// or on the thread that started them: scanned, analysed by an analyzer of its own and summarised
// exactly as `--jobs 1` does (core/compare/summary.ts); its prompt rows handed back as the table's
// typed arrays. That thread puts the files back in the run's order and builds the summary from
// them. Metrics logs are left to it: they are compared with every file's recomputed values.
import type { RolloutLensSettings } from '../../../shared/protocol';
import { attachedTable } from '../core/compare/attachedRows';
import type { PromptTableParts } from '../core/compare/promptTable';
import { summarizeFile } from '../core/compare/summarizeFile';
import type { FileSummary, SummarizedFile } from '../core/compare/summary';
import { RunAnalyzer, scanFile } from '../core/engine';
import type { RecomputedMetrics } from '../core/eval/compareMetrics';
import type { EvalConfig } from '../core/eval/config';
import type { RunPlan } from '../core/run/plan';
import type { Finding } from '../core/vocabulary/types';
import { syncFileAccess } from './syncFileAccess';

/** Files for the threads to share: each takes the next job's index from `counter` (slot 0) until none is left. */
export interface SummarizeBatch {
  plan: RunPlan;
  jobs: readonly SummarizeJob[];
  counter: Int32Array;
}

/** The next job of a batch, taken by whichever thread is free (slot 0 of the batch's shared counter). */
export function takeNextJob(counter: Int32Array): number {
  return Atomics.add(counter, 0, 1);
}

export interface SummarizeJob {
  /** The file's place in the run's order. */
  index: number;
  path: string;
  displayPath: string;
  settings: RolloutLensSettings;
  evalConfig: EvalConfig | null | undefined;
}

/** A finding as the summary keeps it. */
export type SummaryFinding = Pick<Finding, 'code' | 'file' | 'line' | 'related'>;

export type SummarizedResult =
  | {
      index: number;
      type: 'summarized';
      summarized: SummarizedFile | null;
      table: PromptTableParts | null;
      findings: SummaryFinding[];
      recomputed: RecomputedMetrics[];
    }
  | { index: number; type: 'metrics-log' }
  | { index: number; type: 'error'; message: string };

/** The file's fields in their order, its rows left empty (reading them would make every row). */
function withoutRows(file: FileSummary): FileSummary {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(file)) out[key] = key === 'prompts' ? [] : file[key as keyof FileSummary];
  return out as unknown as FileSummary;
}

/** A file summarised as a worker does (the thread that starts the workers takes files too). */
export function summarizeJob(job: SummarizeJob, plan: RunPlan): Promise<SummarizedResult> {
  return summarize(job, plan).catch((err: unknown): SummarizedResult => ({
    index: job.index,
    type: 'error',
    message: err instanceof Error ? err.message : String(err),
  }));
}

async function summarize(job: SummarizeJob, plan: RunPlan): Promise<SummarizedResult> {
  const options = { access: syncFileAccess, settings: job.settings, evalConfig: job.evalConfig, keepDetail: 'store' as const };
  const scan = await scanFile({ path: job.path, displayPath: job.displayPath }, options);
  try {
    if (scan.kind === 'metrics') return { index: job.index, type: 'metrics-log' };
    const run = new RunAnalyzer(options);
    const report = await run.add(scan);
    const summarized = summarizeFile(report, plan);
    // The prompt rows go as the table's typed arrays, not as rows.
    const table = summarized ? (attachedTable(summarized.file)?.parts() ?? null) : null;
    if (summarized && table) summarized.file = withoutRows(summarized.file);
    const findings = run.finish().findings.map(({ code, file, line, related }) => (related ? { code, file, line, related } : { code, file, line }));
    return { index: job.index, type: 'summarized', summarized, table, findings, recomputed: [...run.recomputedMetrics()] };
  } finally {
    scan.samples.release();
  }
}
