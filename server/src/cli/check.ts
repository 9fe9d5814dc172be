// `rollout-lens check`: settings (defaults < --config < flags), eval config, walk, analyse, print,
// optional --fix, exit status. Returns the exit status instead of exiting, so tests can call it.
import { dirname, resolve } from 'node:path';

import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../core/vocabulary/settings';
import { RunAnalyzer, scanFile } from '../core/engine';
import { type EvalConfig, readEvalConfig } from '../core/evalConfigFile';
import type { KeptPtLines } from '../core/recordDetail';
import type { FileReport, Finding, RunReport, TrainStepReport } from '../core/vocabulary/types';
import { findRunTokenizer, followAny, withStepTokenTexts } from '../core/tokenizer/runTokenizer';
import type { RunTokenizerFound } from '../core/views/runViewMismatch';
import { walkPaths, type WalkTarget } from '../core/locate/walk';
import { filesToRead, planRun, type RunPlan, trainDataRollouts, trainDataSteps } from '../core/run/plan';
import { buildRuns } from '../core/run/model';
import { DeflateThread, wantsDeflateThread } from '../node/deflateThread';
import { WorkerPool } from '../node/parallelScan';

import { applyFixes } from './applyFixes';
import { type CheckArgs, UsageError } from './args';
import { findRunSettings, loadSettingsFile } from './configFile';
import { escapeInline } from './escape';
import { cliFileAccess } from './fileAccess';
import { renderJsonPieces } from './jsonReport';
import { renderTextPieces } from './textReport';

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Per-file progress (a terminal status line); omitted when stderr is not a terminal. */
  progress?: (done: number, total: number, file: string | null) => void;
  /** Resolves once stdout has taken what was written (a pipe whose reader lags queues a copy). */
  drained?: () => Promise<void>;
}

function settingsOf(args: CheckArgs, fromFile: Partial<RolloutLensSettings>): RolloutLensSettings {
  const settings: RolloutLensSettings = { ...DEFAULT_SETTINGS, ...fromFile, ...args.overrides };
  if (args.evalConfig) settings.evalConfig = args.evalConfig;
  return settings;
}

interface RunGroup {
  settings: RolloutLensSettings;
  targets: WalkTarget[];
}

/**
 * With `--config`, one set of settings for every file. Without it, each file takes the run
 * settings file nearest above its folder, as the editor does (core/locate/settingsFile.ts): files are
 * analysed in groups that share one, in the order the walk found them.
 */
async function runGroups(args: CheckArgs, targets: WalkTarget[]): Promise<RunGroup[]> {
  if (args.config) return [{ settings: settingsOf(args, await loadSettingsFile(args.config)), targets }];
  const byDir = new Map<string, Promise<{ path: string; settings: Partial<RolloutLensSettings> } | null>>();
  const groups = new Map<string, RunGroup>();
  for (const target of targets) {
    const dir = dirname(resolve(target.path));
    let found = byDir.get(dir);
    if (!found) {
      found = findRunSettings(dir);
      byDir.set(dir, found);
    }
    const file = await found;
    const key = file?.path ?? '';
    let group = groups.get(key);
    if (!group) {
      group = { settings: settingsOf(args, file?.settings ?? {}), targets: [] };
      groups.set(key, group);
    }
    group.targets.push(target);
  }
  return [...groups.values()];
}

/**
 * `--eval-config` applies to every eval log. An `evalConfig` from the settings is the fallback when
 * no eval config is found beside or above a log (core `locateEvalConfig`); either must be readable
 * (a usage error otherwise).
 */
async function evalConfigFor(args: CheckArgs, settings: RolloutLensSettings): Promise<EvalConfig | null | undefined> {
  if (!settings.evalConfig) return undefined;
  let config: EvalConfig;
  try {
    config = await readEvalConfig(settings.evalConfig, cliFileAccess);
  } catch (err) {
    throw new UsageError(`eval config: ${(err as Error).message}`);
  }
  return args.evalConfig ? config : undefined; // the engine finds one per eval log
}

/** A run's files to read, in groups that share their settings, and the run's plan. */
export interface PreparedRun {
  plan: RunPlan;
  groups: { settings: RolloutLensSettings; evalConfig: EvalConfig | null | undefined; targets: WalkTarget[] }[];
  total: number;
  /** A path given could not be walked (reported). */
  unreadable: boolean;
}

/** Walks the paths and plans the run (core/run/plan.ts); null: nothing to read (reported; exit 2). */
export async function prepareRun(args: CheckArgs, io: Io): Promise<PreparedRun | null> {
  const walk = await walkPaths(args.paths, cliFileAccess);
  let unreadable = false;
  for (const p of walk.problems) {
    io.stderr(`rollout-lens: ${escapeInline(p.message)}\n`);
    unreadable = true;
  }
  if (walk.targets.length === 0) {
    if (!unreadable) io.stderr(`rollout-lens: no *.jsonl or *.ndjson files in ${args.paths.map(escapeInline).join(', ')}\n`);
    return null;
  }
  // Each file's role in its run, from its path (core/run/plan.ts): files that only annotate a
  // step (trajectory sidecars beside their .pt, train_data, exports) are listed, never read.
  const plan = planRun(walk.targets, args.paths);
  const targets = filesToRead(plan, walk.targets);
  // A path holding only train_data (a shard of a run's files) still reads its steps: one group
  // with no file to read, its settings found as for those files.
  const groups = targets.length > 0 ? await runGroups(args, targets) : (await runGroups(args, walk.targets)).slice(0, 1).map((g) => ({ ...g, targets: [] }));
  const configs = await Promise.all(groups.map((g) => evalConfigFor(args, g.settings)));
  return { plan, groups: groups.map((g, i) => ({ ...g, evalConfig: configs[i] })), total: targets.length, unreadable };
}

/** The analysis `check` and `report` share: walk, scan file by file, analyse. Null: nothing to read (exit 2). */
export async function analyzeRun(
  args: CheckArgs,
  io: Io,
  // Gets each file's report with its store and groups' verdicts (`keepDetail: 'store'`), which it
  // must not keep: the store is released when it returns.
  onFile?: (file: FileReport, settings: RolloutLensSettings, plan: RunPlan) => void,
  // Lines of a `.pt` dump's samples to keep as it is read (`inspect`).
  keepPtLines?: KeptPtLines,
): Promise<{ report: RunReport; settings: RolloutLensSettings; unreadable: boolean; plan: RunPlan; tokenizers: Map<string, RunTokenizerFound> } | null> {
  const prepared = await prepareRun(args, io);
  if (prepared === null) return null;
  const { plan, groups, total } = prepared;
  let unreadable = prepared.unreadable;
  // Each run's tokenizer, by its root: what its token texts came from (the report says it).
  const tokenizers = new Map<string, RunTokenizerFound>();
  // Files of 64 MB and more are scanned by worker threads over byte ranges (same results).
  const pool = args.jobs === 1 ? undefined : new WorkerPool({ workers: args.jobs ?? undefined });
  // miles' has_repetition compression shared with a second thread, where there is a second core.
  const deflate = args.jobs !== 1 && wantsDeflateThread() ? new DeflateThread() : undefined;
  const progress = io.progress ?? (args.progress ? lineProgress(io.stderr) : undefined);
  const report: RunReport = { version: 1, files: [], findings: [] };
  let done = 0;
  try {
    for (const [g, group] of groups.entries()) {
      const options = {
        access: cliFileAccess,
        settings: group.settings,
        evalConfig: group.evalConfig,
        parallel: pool,
        deflate,
        keepDetail: onFile ? ('store' as const) : false,
        keepPtLines,
        trainDataRollouts: trainDataRollouts(plan),
      };
      const run = new RunAnalyzer(options);
      for (const target of group.targets) {
        progress?.(done++, total, target.displayPath);
        // One file at a time: its samples are released before the next file is read. `onFile`
        // keeps no view of the store (the report folds each file's into its model, as the editor's
        // run view does): the next file reuses its memory.
        try {
          const scan = await scanFile(target, options);
          const file = await run.add(scan);
          if (onFile) {
            onFile(file, group.settings, plan);
            const d = file.detail;
            file.detail = d && d.datasets.length > 0 ? { samples: [], groups: [], datasets: d.datasets, metricsRecords: [], source: d.source } : undefined;
          }
          scan.samples.release();
        } catch (err) {
          io.stderr(`rollout-lens: cannot read ${escapeInline(target.displayPath)}: ${escapeInline((err as Error).message)}\n`);
          unreadable = true;
        }
      }
      // Each step's train_data, read in the group of the rollout dump it annotates (the first
      // group when the run has none): its figures are compared with this group's metrics logs.
      const shown = new Set(group.targets.map((t) => t.displayPath));
      for (const t of trainDataSteps(plan)) {
        if (t.of !== null ? !shown.has(t.of) : g !== 0) continue;
        try {
          await run.addTrainStep({ step: t.step, files: t.files }, t.of, t.root);
        } catch (err) {
          io.stderr(`rollout-lens: cannot read ${escapeInline(t.files[0]?.displayPath ?? '')}: ${escapeInline((err as Error).message)}\n`);
          unreadable = true;
        }
      }
      const part = run.finish();
      const trainSteps = part.trainSteps ? await addTokenTexts(part.trainSteps, group.settings.tokenizer, tokenizers, io) : undefined;
      report.files.push(...part.files);
      report.findings.push(...part.findings);
      if (trainSteps) (report.trainSteps ??= []).push(...trainSteps);
    }
  } finally {
    await pool?.close();
    await deflate?.close();
  }
  progress?.(total, total, null);
  report.runs = buildRuns(report.files, plan, report.trainSteps);
  return { report, settings: groups[0]?.settings ?? settingsOf(args, {}), unreadable, plan, tokenizers };
}

/**
 * The worst tokens' text from each run's tokenizer (core/tokenizer/runTokenizer.ts: the `tokenizer`
 * setting, else what the dump folder holds or names; the CLI follows a path the run names, as it
 * reads any path it is given). A setting that cannot be read is said on stderr; the ids stay.
 */
async function addTokenTexts(steps: TrainStepReport[], setting: string | null, found: Map<string, RunTokenizerFound>, io: Io): Promise<TrainStepReport[]> {
  const out: TrainStepReport[] = [];
  for (const root of new Set(steps.map((s) => s.root))) {
    const mine = steps.filter((s) => s.root === root);
    const t = await findRunTokenizer(cliFileAccess, { setting: setting && resolve(setting), base: null, root, mayFollow: followAny });
    if (t.problem !== null && setting) io.stderr(`rollout-lens: tokenizer: ${escapeInline(t.problem)}\n`);
    found.set(root, { note: t.note, problem: t.problem });
    out.push(...(t.texts === null ? mine : withStepTokenTexts(mine, t.texts)));
  }
  return out;
}

export async function runCheck(args: CheckArgs, io: Io): Promise<number> {
  const analysed = await analyzeRun(args, io);
  if (analysed === null) return 2;
  const { report, unreadable } = analysed;
  // Piece by piece, each taken before the next is made: a run folder's report is megabytes.
  for (const piece of args.format === 'json' ? renderJsonPieces(report) : renderTextPieces(report)) {
    io.stdout(piece);
    await io.drained?.();
  }
  if (args.fix) await runFixes(report.findings, args.format === 'json' ? io.stderr : io.stdout);
  if (unreadable) return 2;
  return !args.exitZero && report.findings.some((f) => f.severity === 'error') ? 1 : 0;
}

/** `--progress` when stderr is not a terminal: one line per file. */
export function lineProgress(stderr: (text: string) => void): Io['progress'] {
  return (done, total, file) => {
    if (file !== null) stderr(`rollout-lens: [${done + 1}/${total}] ${escapeInline(file)}\n`);
  };
}

async function runFixes(findings: Finding[], print: (text: string) => void): Promise<void> {
  const applied = await applyFixes(findings);
  if (applied.length === 0) {
    print('--fix: no finding carries a fix\n');
    return;
  }
  for (const a of applied) {
    const where = a.file ? `${escapeInline(a.file)}: ` : '';
    const state = a.error ? `not applied: ${a.error}` : a.changed === false ? 'unchanged' : a.file ? 'applied' : 'advice';
    print(`--fix ${state}: ${where}${escapeInline(a.description)}\n`);
  }
}

export type { FileReport };
