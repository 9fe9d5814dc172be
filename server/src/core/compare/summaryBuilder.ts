// A run's summary built file by file, in the run's file order (docs/compare.md#the-summary): each
// file's summary under its step, then the run's findings and train_data mismatches.
import type { RunFramework, StepKind } from '../run/model';
import type { RunPlan } from '../run/plan';
import type { FileReport, Finding, TrainStepReport } from '../vocabulary/types';
import { summarizeFile } from './summarizeFile';
import { type FileSummary, type RunSummary, type StepMismatch, stepMismatchOf, type SummarizedFile } from './summary';
import { stepOfFiles } from './summarySteps';
import { sortSteps, stepKey, SUMMARY_VERSION } from './summaryFormat';

/** A file that belongs to a run of another framework than the files before it (a summary holds one run). */
export class MixedRunError extends Error {
  constructor(
    readonly first: RunFramework,
    readonly other: RunFramework,
    readonly path: string,
  ) {
    super(`${path}: a ${other} file in a ${first} run (a summary holds one run)`);
  }
}

/**
 * Builds a run's summary file by file (each file's store may be released once `add` returns),
 * then takes the run's findings (`finish`).
 */
export class SummaryBuilder {
  private framework: RunFramework | null = null;
  private readonly steps = new Map<string, { kind: StepKind; step: number | null; partial: boolean; files: FileSummary[] }>();
  private readonly byPath = new Map<string, FileSummary>();

  constructor(private readonly plan: RunPlan | null = null) {}

  /** The file's summary (null: it makes no step); throws `MixedRunError` when it belongs to a run of another framework. */
  add(report: FileReport): FileSummary | null {
    const summarized = summarizeFile(report, this.plan);
    if (summarized !== null) this.addSummarized(summarized);
    return summarized?.file ?? null;
  }

  /** A file summarised by `summarizeFile` (here or on another thread), in the run's file order. */
  addSummarized(summarized: SummarizedFile): void {
    const path = summarized.file.path;
    if (this.framework !== null && this.framework !== summarized.framework) throw new MixedRunError(this.framework, summarized.framework, path);
    this.framework = summarized.framework;
    const key = stepKey(summarized.kind, summarized.step, path);
    let step = this.steps.get(key);
    if (!step) this.steps.set(key, (step = { kind: summarized.kind, step: summarized.step, partial: false, files: [] }));
    step.partial ||= summarized.partial;
    step.files.push(summarized.file);
    this.byPath.set(path, summarized.file);
  }

  /** `trainSteps`: the run's train_data steps (RunReport.trainSteps), whose mismatch joins their rollout step. */
  finish(findings: readonly Pick<Finding, 'code' | 'file' | 'line' | 'related'>[], trainSteps: readonly TrainStepReport[] = []): RunSummary {
    for (const f of findings) {
      const own = this.byPath.get(f.file);
      const concerned = own ? [own] : [...new Set((f.related ?? []).map((r) => this.byPath.get(r.file)))];
      for (const file of concerned) {
        if (!file) continue;
        const seen = (file.findings[f.code] ??= { count: 0, file: f.file, line: f.line });
        seen.count++;
        if (f.file === seen.file && f.line < seen.line) seen.line = f.line;
      }
    }
    const mismatches = new Map<string, StepMismatch>();
    for (const t of trainSteps) {
      const m = stepMismatchOf(t);
      if (m === null) continue;
      const key = stepKey('rollout', t.step, '');
      mismatches.set(key, m);
      this.framework ??= 'miles'; // train_data is miles' dump (`--dump-details`)
      if (!this.steps.has(key)) this.steps.set(key, { kind: 'rollout', step: t.step, partial: false, files: [] });
    }
    const steps = [...this.steps.entries()].map(([key, s]) => stepOfFiles(s.kind, s.step, s.partial, s.files, mismatches.get(key)));
    return { version: SUMMARY_VERSION, framework: this.framework, steps: sortSteps(steps) };
  }
}
