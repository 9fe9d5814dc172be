// A summarize worker (bundled as `dist/summarizeWorker.js`): `summarize --jobs <n>` hands each of
// n of these one file at a time (node/parallelSummarize.ts). A file is scanned, analysed by an
// analyzer of its own and summarised exactly as on the main thread (core/compare/summary.ts);
// the main thread puts the files back in the run's order and builds the summary from them.
// Metrics logs are left to the main thread: they are compared with every file's recomputed values.
import { parentPort } from 'node:worker_threads';

import type { RolloutLensSettings } from '../../../shared/protocol';
import { type PromptTableParts, attachedTable } from '../core/compare/promptTable';
import { type FileSummary, type SummarizedFile, summarizeFile } from '../core/compare/summary';
import { RunAnalyzer, scanFile } from '../core/engine';
import type { RecomputedMetrics } from '../core/eval/compareMetrics';
import type { EvalConfig } from '../core/eval/config';
import type { RunPlan } from '../core/run/plan';
import type { Finding } from '../core/types';
import { nodeFileAccess } from './nodeFileAccess';

/** What a worker is told once: the run's plan. */
export interface SummarizeSetup {
  plan: RunPlan;
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

async function summarize(job: SummarizeJob, plan: RunPlan): Promise<SummarizedResult> {
  const options = { access: nodeFileAccess, settings: job.settings, evalConfig: job.evalConfig, keepDetail: 'store' as const };
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

const port = parentPort;
if (port) {
  let plan: RunPlan | null = null;
  // Jobs one after the other: the main thread sends the next before this one is done (so the
  // worker never waits for it), and two files read at once would only hold twice the memory.
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (m: SummarizeSetup | SummarizeJob) => {
    if ('plan' in m) {
      plan = m.plan;
      return;
    }
    queue = queue.then(() => run(m));
  });
  const run = (m: SummarizeJob) =>
    summarize(m, plan!)
      .catch((err: unknown): SummarizedResult => ({ index: m.index, type: 'error', message: err instanceof Error ? err.message : String(err) }))
      .then((r) =>
        port.postMessage(
          r,
          r.type === 'summarized' && r.table
            ? [
                r.table.spans.buffer as ArrayBuffer,
                r.table.ints.buffer as ArrayBuffer,
                r.table.rewardSums.buffer as ArrayBuffer,
                r.table.tokens.buffer as ArrayBuffer,
              ]
            : [],
        ),
      );
}
