// The engine: files → records (reader, format detection, normalisation) → rollout / eval analyses
// → one RunReport. Split so the language server can keep per-file scans and resume them when a
// live log grows: `scanFile` (one file, resumable), `analyzeScans` (analyses over scans), and
// `analyzeFiles` (both).
import { type EvalConfig, loadEvalConfig } from './eval/config';
import { locateEvalConfig } from './locate/evalConfig';
import { analyzeEval, evalDatasetOrder, evalDatasetRenames } from './eval/analyze';
import { recomputedOfEval, type RecomputedMetrics } from './eval/compareMetrics';
import { fileStep } from './vocabulary/logFiles';
import { analyzeVerlRollout } from './eval/verlRollout';
import type { EmptyRowRanges } from './eval/verlEmptyRows';
import { type Cancellation, CancelledError } from './seams/cancellation';
import { type ScanOptions, type ScanState, scanLineFile } from './scan/lineFileScan';
import { analyzeRollout, type RolloutResult } from './rollout/analyze';
import { existingFile, partialStepFinding, siblingPt, sidecarAlone, verdictsFromPt } from './rollout/trajectorySidecar';
import { capFindings } from './findingCap';
import { asRecords } from './store/rowView';
import type { SampleColumns } from './store/sampleColumns';
import type { FileDetail, FileReport, Finding, GroupCounts, RunReport, SampleRecord, TrainStepReport } from './vocabulary/types';
import { driftFinding, type DriftStep, findDrift } from './train/drift';
import { metricsLogFindings } from './run/metricsLog';
import { joinRolloutDump, readTrainStep, type RolloutJoin, type TrainStepRead } from './run/trainData';
import type { TrainStepTarget } from './train/trainStep';

export { CancelledError, type Cancellation, type ScanState };
/** Which framework a file's format is (miles, slime, verl; null for generic and unknown files). */
export { frameworkOfFormat, type Framework } from './vocabulary/frameworks';

/** What the engine is given: how to scan each file (scan/lineFileScan.ts) and what to analyse. */
export interface AnalyzeOptions extends Omit<ScanOptions, 'isCancelled'> {
  /** The eval config to use; `null`: none. Omitted: found per eval log (`locateEvalConfig`). */
  evalConfig?: EvalConfig | null;
  cancellation?: Cancellation;
  /**
   * Keep per-sample detail (`FileReport.detail`) for editors (the CLI's JSON output omits it): as
   * records (`true`), or for a rollout as the scan's columnar store with each group's verdict by
   * group id (`'store'`: the run views over large folders).
   */
  keepDetail?: boolean | 'store';
  /**
   * The miles rollout dumps a train_data step will be joined to (`trainDataRollouts` of the run's
   * plan): only these are indexed by `Sample.index` for `addTrainStep`; any other dump keeps nothing.
   */
  trainDataRollouts?: ReadonlySet<string>;
}

export interface AnalyzeTarget {
  /** Path handed to FileAccess. */
  path: string;
  /** Path shown in reports and findings. */
  displayPath: string;
}

/**
 * Reads, parses and normalises one file. With `previous` (an earlier scan of the same path), only
 * the bytes after its last complete line are read when the file grew; a shrunk or replaced file is
 * read from the start. Throws `CancelledError` when cancelled between chunks.
 */
export async function scanFile(target: AnalyzeTarget, options: AnalyzeOptions, previous?: ScanState): Promise<ScanState> {
  const cancellation = options.cancellation;
  // Every scan option goes through as given: a new one needs no line here.
  return scanLineFile(target, { ...options, isCancelled: cancellation ? () => cancellation.isCancellationRequested : undefined }, previous);
}

/** Eval config per eval log: given, from settings, or found beside the log (cached per path). */
function evalConfigResolver(options: AnalyzeOptions): (logPath: string) => Promise<EvalConfig | null> {
  const cache = new Map<string, Promise<EvalConfig | null>>();
  const load = (path: string) => {
    let p = cache.get(path);
    if (!p) {
      p = loadEvalConfig(path, options.access);
      cache.set(path, p);
    }
    return p;
  };
  return async (logPath) => {
    if (options.evalConfig !== undefined) return options.evalConfig;
    const found = await locateEvalConfig(logPath, { setting: options.settings.evalConfig, folders: [] }, options.access);
    return found ? load(found) : null;
  };
}

function evalGroups(datasets: { samples: number; n: number }[]): GroupCounts {
  const total = datasets.reduce((sum, d) => sum + (d.n > 0 ? Math.ceil(d.samples / d.n) : 0), 0);
  return { total, kept: total, dropped: 0 };
}

/**
 * Analyses scans one at a time (so a caller can drop each file's samples before reading the next)
 * and merges everything into one report. Metrics logs are compared with the recomputed values of
 * the other files (docs/semantics.md#logged-vs-recomputed) in `finish`, once every file has been added.
 */
export class RunAnalyzer {
  private readonly configFor: (logPath: string) => Promise<EvalConfig | null>;
  private readonly files: FileReport[] = [];
  private readonly findings: Finding[] = [];
  private readonly recomputed: RecomputedMetrics[] = [];
  private readonly metricsLogs: { scan: Pick<ScanState, 'displayPath' | 'metricsRecords' | 'droppedFindings'>; findings: Finding[] }[] = [];
  /** miles rollout dumps' samples by `Sample.index`, for joining their step's train_data. */
  private readonly joins = new Map<string, RolloutJoin>();
  private readonly trainSteps: TrainStepReport[] = [];

  constructor(private readonly options: AnalyzeOptions) {
    this.configFor = evalConfigResolver(options);
  }

  /** Analyses one file; returns its report (also kept for `finish`). */
  async add(scan: ScanState): Promise<FileReport> {
    const options = this.options;
    if (options.cancellation?.isCancellationRequested) throw new CancelledError();
    const report: FileReport = {
      path: scan.displayPath,
      format: scan.format,
      kind: scan.kind,
      records: scan.records,
      invalidLines: scan.invalidLines,
      groups: { total: 0, kept: 0, dropped: 0 },
      metrics: {},
    };
    let fileFindings: Finding[] = scan.findings.slice();
    // Records as objects only where they outlive the analysis: an editor's detail of records.
    // Otherwise the rollout analysis reads the store group by group, the eval analysis reads its
    // rows (an eval dump of a million short answers is a million samples), and verl's take row views.
    let records: SampleRecord[] | null = null;
    let leftOut = 0;
    const materialized = () => (records ??= scan.samples.toArray());
    const forAnalysis = (): readonly SampleRecord[] | SampleColumns => (options.keepDetail === true ? materialized() : scan.samples);
    const detail: FileDetail = { samples: [], groups: [], datasets: [], metricsRecords: scan.metricsRecords, source: scan.path };
    if (scan.kind === 'rollout') {
      let r = analyzeRollout(
        scan.displayPath,
        scan.format,
        scan.samples,
        options.settings,
        // A trajectory sidecar's verdicts come from its .pt, as outcomes (trajectorySidecar.ts).
        options.keepDetail === 'store' && scan.format !== 'miles-trajectory' ? 'verdicts' : options.keepDetail !== undefined && options.keepDetail !== false,
        // A trajectory sidecar's findings are rewritten against its .pt (trajectorySidecar.ts): all of them.
        scan.format === 'miles-trajectory' ? Infinity : options.settings.maxProblems,
      );
      let folded = false;
      if (scan.format === 'miles-trajectory') ({ r, folded } = await this.sidecar(scan, r));
      leftOut = r.leftOut;
      report.groups = r.counts;
      report.metrics = { ...r.metrics, ...r.sampleMetrics };
      detail.groups = r.groups;
      if (r.verdicts) detail.verdicts = r.verdicts;
      fileFindings = fileFindings.concat(r.findings);
      let ranges: EmptyRowRanges | undefined;
      if (scan.format === 'verl-rollout') {
        // verl's own training metrics (critic/score/mean skips empty outputs; docs/semantics.md#denominator-inflation).
        const v = analyzeVerlRollout(scan.displayPath, asRecords(forAnalysis()));
        Object.assign(report.metrics, v.metrics);
        fileFindings = fileFindings.concat(v.findings);
        ranges = v.ranges;
      }
      report.step = fileStep(scan.displayPath, scan.samples);
      if (scan.format === 'miles-pt' && this.options.trainDataRollouts?.has(scan.displayPath) === true)
        this.joins.set(scan.displayPath, joinRolloutDump(scan.displayPath, scan.samples));
      // A sidecar folded into its .pt repeats the .pt's metrics: counted once, from the .pt.
      if (!folded) this.recomputed.push({ file: scan.displayPath, step: report.step, metrics: report.metrics, ranges });
    } else if (scan.kind === 'eval' && scan.format === 'miles-trajectory') {
      // An eval sidecar alone is a partial step: nothing is computed from it (trajectorySidecar.ts).
      report.step = fileStep(scan.displayPath, scan.samples);
      fileFindings.push(partialStepFinding(scan.displayPath, 'eval', scan.samples.length, siblingPt(scan.displayPath)));
    } else if (scan.kind === 'eval') {
      const config = await this.configFor(scan.path);
      // The store itself unless the detail keeps records anyway: no object per sample.
      const r = analyzeEval(scan.displayPath, scan.format, forAnalysis(), options.settings, config);
      report.groups = evalGroups(r.datasets);
      report.metrics = r.metrics;
      report.step = r.step;
      detail.datasets = r.datasets;
      detail.evalDatasetOrder = evalDatasetOrder(config);
      detail.evalDatasetRenames = evalDatasetRenames(config);
      fileFindings = fileFindings.concat(r.findings);
      this.recomputed.push(recomputedOfEval(scan.displayPath, r));
    }
    // The run views keep a rollout or eval file's store, not its records (core/inspect.ts reads both).
    if (options.keepDetail === 'store' && (scan.kind === 'rollout' || scan.kind === 'eval')) report.detail = { ...detail, samples: [], store: scan.samples };
    else if (options.keepDetail) report.detail = { ...detail, samples: materialized() };
    // Eval dataset summaries are a few small objects: kept for the text report's eval table even
    // without per-sample detail (the JSON contract never includes `detail`).
    else if (detail.datasets.length > 0) report.detail = { samples: [], groups: [], datasets: detail.datasets, metricsRecords: [], source: scan.path };
    this.files.push(report);
    if (scan.kind === 'metrics') {
      const { displayPath, metricsRecords, droppedFindings } = scan;
      this.metricsLogs.push({ scan: { displayPath, metricsRecords, droppedFindings }, findings: fileFindings });
    } else {
      this.findings.push(...capFindings(fileFindings, options.settings.maxProblems, scan.displayPath, scan.droppedFindings + leftOut));
    }
    return report;
  }

  /** miles' trajectory sidecar: verdicts from the step's .pt when it is there (docs/pt.md). */
  private async sidecar(scan: ScanState, r: RolloutResult): Promise<{ r: RolloutResult; folded: boolean }> {
    const ptPath = siblingPt(scan.path);
    const ptDisplay = siblingPt(scan.displayPath) ?? ptPath;
    if (ptPath !== null && ptDisplay !== null && (await existingFile(this.options.access, ptPath))) {
      const pt = await scanFile({ path: ptPath, displayPath: ptDisplay }, this.options);
      if (pt.kind === 'rollout' && pt.samples.length > 0) {
        const result = analyzeRollout(ptDisplay, pt.format, pt.samples, this.options.settings);
        const sidecar = { displayPath: scan.displayPath, samples: scan.samples.toArray() };
        return { r: verdictsFromPt(sidecar, { displayPath: ptDisplay, samples: pt.samples.toArray(), result }), folded: true };
      }
    }
    const alone = sidecarAlone(scan.displayPath, scan.samples.toArray(), r, this.options.settings.nSamplesPerPrompt, ptDisplay);
    alone.findings.unshift(partialStepFinding(scan.displayPath, 'rollout', scan.samples.length, ptDisplay));
    return { r: alone, folded: false };
  }

  /**
   * A step's train_data (every rank's file; core/train/trainStep.ts), joined to its rollout dump
   * when that was added: what miles logs from it joins the recomputed metrics, its mismatch the
   * step (RunReport.trainSteps).
   */
  async addTrainStep(target: Omit<TrainStepTarget, 'join'>, rolloutFile: string | null, root = ''): Promise<TrainStepRead> {
    if (this.options.cancellation?.isCancellationRequested) throw new CancelledError();
    const read = await readTrainStep(this.options.access, { ...target, join: rolloutFile === null ? null : (this.joins.get(rolloutFile) ?? null) }, root);
    this.recomputed.push(read.recomputed);
    this.trainSteps.push(read.step);
    this.findings.push(...capFindings(read.findings, this.options.settings.maxProblems, read.step.files[0] ?? ''));
    return read;
  }

  /** What each rollout and eval file added so far recomputed, for comparing with metrics logs. */
  recomputedMetrics(): readonly RecomputedMetrics[] {
    return this.recomputed;
  }

  /**
   * What files analysed elsewhere recomputed (each by its own analyzer, in file order: worker
   * threads), for this analyzer's metrics logs to be compared with as if they had been added here.
   */
  addRecomputed(recomputed: readonly RecomputedMetrics[]): void {
    this.recomputed.push(...recomputed);
  }

  finish(): RunReport {
    const findings = this.findings.slice();
    for (const { scan, findings: own } of this.metricsLogs) {
      const mismatches = metricsLogFindings(scan.displayPath, scan.metricsRecords, this.recomputed);
      findings.push(...capFindings(own.concat(mismatches), this.options.settings.maxProblems, scan.displayPath, scan.droppedFindings));
    }
    findings.push(...driftFindings(this.trainSteps));
    return { version: 1, files: this.files.slice(), findings, ...(this.trainSteps.length > 0 ? { trainSteps: this.trainSteps.slice() } : {}) };
  }
}

/** The drift finder over each run's train_data steps (core/train/drift.ts): a finding per run at most. */
export function driftFindings(steps: readonly TrainStepReport[]): Finding[] {
  const byRoot = new Map<string, DriftStep[]>();
  for (const t of steps) {
    if (t.mismatch === null) continue;
    const list = byRoot.get(t.root) ?? [];
    list.push({ step: t.step, mean: t.mismatch.mean, tokens: t.mismatch.tokens, buckets: t.buckets, file: t.mismatch.rolloutFile ?? t.files[0] ?? '' });
    byRoot.set(t.root, list);
  }
  const out: Finding[] = [];
  for (const list of byRoot.values()) {
    const d = findDrift(list);
    if (d !== null) out.push(driftFinding(d));
  }
  return out;
}

/** Runs the analyses over finished scans and merges everything into one report. */
export async function analyzeScans(scans: readonly ScanState[], options: AnalyzeOptions): Promise<RunReport> {
  const run = new RunAnalyzer(options);
  for (const scan of scans) await run.add(scan);
  return run.finish();
}

/**
 * Scans and analyses every target in order. Each file's samples are released once it is analysed
 * (unless `keepDetail`), so memory follows the largest file, not the run.
 */
export async function analyzeFiles(targets: AnalyzeTarget[], options: AnalyzeOptions): Promise<RunReport> {
  const run = new RunAnalyzer(options);
  for (const target of targets) await run.add(await scanFile(target, options));
  return run.finish();
}
