// The run model: runs → steps, folded from the engine's per-file reports and the run plan
// (plan.ts). The one owner of what a run is, what its steps are, which files describe each step,
// and how many groups each step dropped by cause (the files' overviews, fileOverview.ts, summed); `check` (text and JSON), `report`, the run view
// and the editor's Groups view all read it (docs/architecture.md, "What a run is").
import { DROP_METRIC_PREFIX } from '../vocabulary/causes';
import { fileOverview } from './fileOverview';
import { frameworkOfFormat, type Framework } from '../vocabulary/frameworks';
import type { TrainStepMismatch } from '../train/trainStep';
import type { FileReport, FormatId, GroupCounts, TrainStepReport } from '../vocabulary/types';
import type { PlannedFile, RunPlan } from './plan';
import type { StepKind } from '../../../../shared/runDiff';

// A step's kind is also on the wire (a diff's steps), so shared/ defines it.
export type { StepKind };

/** The framework whose files a run holds; `other` for the generic format. */
export type RunFramework = Framework | 'other';

export interface RunStep {
  /** The step number: from a dump's file name, else the records' step, else the last number in the name. */
  step: number | null;
  kind: StepKind;
  /** Its files as shown: the files analysed first, then those that annotate it (never read as steps). */
  files: string[];
  /** Read from a trajectory sidecar alone: the samples that recorded messages, not the step. */
  partial: boolean;
  groups: GroupCounts;
  /** Dropped groups per drop reason (`group_has_aborted_<cause>`, `zero_std_<r>`). */
  droppedByCause: Record<string, number>;
  /** The step's recomputed metrics, exactly as the framework names them. */
  metrics: Record<string, number>;
  /** Its train_data, when the run holds it (docs/semantics.md#train-inference-mismatch). */
  trainData?: { samples: number; mismatch: TrainStepMismatch | null };
}

export interface Run {
  /** The dump folder D for dump-layout files; else the folder given, or a given file's folder. */
  root: string;
  framework: RunFramework;
  steps: RunStep[];
}

/** The run framework of a log format (a run never mixes two); metrics files hold no steps. */
export function runFrameworkOf(format: FormatId): RunFramework | null {
  if (format === 'generic') return 'other';
  if (format === 'miles-metrics') return null;
  return frameworkOfFormat(format);
}

/** The step of a report: its plan's (a dump file's name), else the engine's (`FileReport.step`). */
export function stepNumberOf(report: Pick<FileReport, 'step'>, planned?: PlannedFile): number | null {
  return planned?.step?.step ?? report.step ?? null;
}

/**
 * The run a report's steps belong to: its framework and root (a dump file's D, else the folder
 * given, else its own folder); null for a file that makes no step (metrics logs, unknown kinds).
 */
export function runOf(
  report: Pick<FileReport, 'kind' | 'format' | 'path'>,
  planned?: PlannedFile,
): { framework: RunFramework; root: string; kind: StepKind } | null {
  if (report.kind !== 'rollout' && report.kind !== 'eval') return null;
  const framework = runFrameworkOf(report.format);
  if (framework === null) return null;
  return { framework, root: planned?.root ?? dirnameOf(report.path), kind: report.kind };
}

function dirnameOf(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i < 0 ? '.' : i === 0 ? path.slice(0, 1) : path.slice(0, i);
}

interface StepAcc {
  step: RunStep;
  primaries: string[];
}

/** Sums the drop counts; other metrics as the step's first file gives them. */
function mergeMetrics(into: Record<string, number>, from: Record<string, number>): void {
  for (const [name, value] of Object.entries(from)) {
    if (name.startsWith(DROP_METRIC_PREFIX)) into[name] = (into[name] ?? 0) + value;
    else if (!(name in into)) into[name] = value;
  }
}

/**
 * Folds file reports into runs. Reports of files the plan does not know (the editor's single file)
 * are primaries of a run rooted at their folder. Only rollout and eval files make steps.
 */
export class RunModelBuilder {
  private readonly runs = new Map<string, { run: Run; steps: Map<string, StepAcc> }>();
  /** Display path of an analysed file → its step. */
  private readonly stepOfFile = new Map<string, StepAcc>();
  private readonly trainSteps: TrainStepReport[] = [];

  constructor(private readonly plan: RunPlan | null = null) {}

  add(report: FileReport): void {
    const planned = this.plan?.byPath.get(report.path);
    const of = runOf(report, planned);
    if (of === null) return;
    const { framework, root, kind } = of;
    const runKey = `${framework}\u0000${root}`;
    let run = this.runs.get(runKey);
    if (!run) this.runs.set(runKey, (run = { run: { root, framework, steps: [] }, steps: new Map() }));
    const number = stepNumberOf(report, planned);
    const key = number === null ? `${kind}\u0000file\u0000${report.path}` : `${kind}\u0000${number}`;
    let acc = run.steps.get(key);
    if (!acc) {
      acc = {
        step: { step: number, kind, files: [], partial: false, groups: { total: 0, kept: 0, dropped: 0 }, droppedByCause: {}, metrics: {} },
        primaries: [],
      };
      run.steps.set(key, acc);
    }
    const step = acc.step;
    step.files.push(report.path);
    acc.primaries.push(report.path);
    step.partial ||= planned?.role === 'partial';
    const file = fileOverview(report);
    step.groups.total += file.groups.total;
    step.groups.kept += file.groups.kept;
    step.groups.dropped += file.groups.dropped;
    for (const d of file.drops) step.droppedByCause[d.reason] = (step.droppedByCause[d.reason] ?? 0) + d.groups;
    mergeMetrics(step.metrics, file.metrics);
    this.stepOfFile.set(report.path, acc);
  }

  /** A step's train_data, read: its figures and mismatch join the step its files annotate. */
  addTrainStep(t: TrainStepReport): void {
    this.trainSteps.push(t);
  }

  finish(): Run[] {
    // Annotations join the step of the file they describe, when it is in the run.
    const stepOfAnnotation = new Map<string, StepAcc>();
    for (const f of this.plan?.files ?? []) {
      if (f.role !== 'annotation' || f.annotation?.of == null) continue;
      const acc = this.stepOfFile.get(f.annotation.of);
      if (acc && !acc.step.files.includes(f.displayPath)) acc.step.files.push(f.displayPath);
      if (acc) stepOfAnnotation.set(f.displayPath, acc);
    }
    for (const t of this.trainSteps) {
      const acc = t.files.length > 0 ? stepOfAnnotation.get(t.files[0]) : undefined;
      if (acc === undefined) continue;
      for (const [name, value] of Object.entries(t.metrics)) if (!(name in acc.step.metrics)) acc.step.metrics[name] = value;
      acc.step.trainData = { samples: t.samples, mismatch: t.mismatch };
    }
    const runs = [...this.runs.values()].map(({ run, steps }) => ({ ...run, steps: [...steps.values()].map((a) => a.step).sort(stepOrder) }));
    return runs.sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : a.framework < b.framework ? -1 : a.framework > b.framework ? 1 : 0));
  }
}

/** Numbered steps in order (a rollout before the eval of the same number), then unnumbered ones by file. */
function stepOrder(a: RunStep, b: RunStep): number {
  if (a.step !== null && b.step !== null && a.step !== b.step) return a.step - b.step;
  if ((a.step === null) !== (b.step === null)) return a.step === null ? 1 : -1;
  if (a.kind !== b.kind) return a.kind === 'rollout' ? -1 : 1;
  const fa = a.files[0] ?? '';
  const fb = b.files[0] ?? '';
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

/** Runs of reports alone (every file a primary, rooted at its folder unless `plan` says otherwise). */
export function buildRuns(reports: readonly FileReport[], plan: RunPlan | null = null, trainSteps: readonly TrainStepReport[] = []): Run[] {
  const builder = new RunModelBuilder(plan);
  for (const r of reports) builder.add(r);
  for (const t of trainSteps) builder.addTrainStep(t);
  return builder.finish();
}
