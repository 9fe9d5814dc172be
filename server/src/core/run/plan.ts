// What each walked file is to its run, decided from its path alone, before anything is read
// (docs/architecture.md, "What a run is"). A miles `--dump-details D` folder is one run:
// `D/rollout_data/<id>.pt` and `D/rollout_data/eval_<id>.pt` are its steps; its trajectory
// sidecars, its per-rank train data and its dashboard files describe a step and are never read as
// steps of their own (docs/pt.md#a-dump-folder-is-one-run). A `.pt` beside its own JSON Lines
// export (`rollout-lens export`: same folder, same stem) counts once, as the `.pt`.
import { isLogFileName, runFileStem } from '../vocabulary/logFiles';
import type { StepKind } from './model';
import { siblingPt } from '../rollout/trajectorySidecar';

/**
 * - `primary`: read and analysed; its report makes (part of) a step.
 * - `partial`: a trajectory sidecar whose `.pt` is not in the run: read as a partial step, which
 *   says so (the sidecar holds only the samples that recorded messages).
 * - `annotation`: listed in its step's files, never read here.
 */
export type FileRole = 'primary' | 'partial' | 'annotation';

/** Why a file annotates a step. */
export type AnnotationKind = 'trajectory' | 'export' | 'train-data' | 'events' | 'dashboard';

export interface PlannedFile {
  path: string;
  displayPath: string;
  role: FileRole;
  /** The run's root as shown: the dump folder D for dump-layout files; else the folder given, or a given file's folder. */
  root: string;
  /** The step the path names (dump layout only); other files take theirs from their records once analysed. */
  step: { kind: StepKind; step: number } | null;
  /** For an annotation: what it is, and the display path of the primary file of its step when that is in the run. */
  annotation: { kind: AnnotationKind; of: string | null } | null;
}

export interface RunPlan {
  files: PlannedFile[];
  /** By display path. */
  byPath: Map<string, PlannedFile>;
}

/** The folders of a `--dump-details` folder that name their step in their file names. */
const DUMP_FOLDERS = ['rollout_data', 'trajectory', 'train_data', 'events', 'dashboard_columns'] as const;
type DumpFolder = (typeof DUMP_FOLDERS)[number];

interface DumpPlace {
  /** D, as shown ('' when the path starts at a dump folder). */
  root: string;
  folder: DumpFolder;
  /** Path below the dump folder. */
  rest: string;
  sep: string;
}

const DUMP_PATH = new RegExp(`^(?:(.*)([\\\\/]))?(${DUMP_FOLDERS.join('|')})([\\\\/])(.+)$`);

/** `D/<dump folder>/<rest>`, from the last dump folder in the path; null otherwise. */
export function dumpPlace(path: string): DumpPlace | null {
  const m = DUMP_PATH.exec(path);
  if (!m) return null;
  // The greedy prefix leaves the last dump folder: `a/trajectory/x/rollout_data/1.pt` is in `a/trajectory/x`.
  return { root: m[1] ?? '', folder: m[3] as DumpFolder, rest: m[5], sep: m[4] };
}

/** `<id>` or `eval_<id>` → the step it names. */
function stepOfStem(stem: string): { kind: StepKind; step: number } | null {
  const m = /^(eval_)?(\d+)$/.exec(stem);
  return m ? { kind: m[1] ? 'eval' : 'rollout', step: Number(m[2]) } : null;
}

function join(root: string, sep: string, folder: string, name: string): string {
  return root === '' ? `${folder}${sep}${name}` : `${root}${sep}${folder}${sep}${name}`;
}

function dirnameOf(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i < 0 ? '.' : i === 0 ? path.slice(0, 1) : path.slice(0, i);
}

function trimSeparators(path: string): string {
  return path.length > 1 ? path.replace(/[\\/]+$/, '') : path;
}

/** The folder given that holds `path` (the longest), else the file's own folder. */
function givenRoot(path: string, folders: readonly string[]): string {
  let best: string | null = null;
  for (const f of folders) {
    const folder = trimSeparators(f);
    if ((path.startsWith(`${folder}/`) || path.startsWith(`${folder}\\`) || folder === '/') && (best === null || folder.length > best.length)) best = folder;
  }
  return best ?? dirnameOf(path);
}

/**
 * Each file's role in its run. `targets` are the walked files (display paths as reports show
 * them); `givenFolders` the folders the user named (roots of files outside a dump layout).
 */
export function planRun(targets: readonly { path: string; displayPath: string }[], givenFolders: readonly string[] = []): RunPlan {
  const present = new Set(targets.map((t) => t.displayPath));
  const files: PlannedFile[] = targets.map((t) => planFile(t, present, givenFolders));
  return { files, byPath: new Map(files.map((f) => [f.displayPath, f])) };
}

function planFile(target: { path: string; displayPath: string }, present: ReadonlySet<string>, givenFolders: readonly string[]): PlannedFile {
  const shown = target.displayPath;
  const base = { path: target.path, displayPath: shown };
  const place = dumpPlace(shown);
  if (place !== null) {
    const root = place.root === '' ? '.' : place.root;
    const name = place.rest.split(/[\\/]/).pop() ?? place.rest;
    const stem = name.replace(/\.[^.]+$/, '');
    const ptOf = (s: string) => join(place.root, place.sep, 'rollout_data', `${s}.pt`);
    const annotate = (kind: AnnotationKind, step: { kind: StepKind; step: number } | null, of: string | null): PlannedFile => ({
      ...base,
      role: 'annotation',
      root,
      step,
      annotation: { kind, of: of !== null && present.has(of) ? of : null },
    });
    switch (place.folder) {
      case 'rollout_data': {
        const step = place.rest === name ? stepOfStem(stem) : null;
        // `rollout-lens export` beside its `.pt`: the same step, counted once (as the .pt).
        if (isLogFileName(name) && present.has(ptOf(stem)) && place.rest === name) return annotate('export', step, ptOf(stem));
        return { ...base, role: 'primary', root, step, annotation: null };
      }
      case 'trajectory': {
        const step = place.rest === name ? stepOfStem(stem) : null;
        if (step !== null && present.has(ptOf(stem))) return annotate('trajectory', step, ptOf(stem));
        return { ...base, role: step !== null ? 'partial' : 'primary', root, step, annotation: null };
      }
      case 'train_data': {
        // `<id>_<rank>.pt`: one rank's slice of rollout step <id> (never read here).
        const m = /^(\d+)_\d+$/.exec(stem);
        const step = m ? { kind: 'rollout' as const, step: Number(m[1]) } : null;
        return annotate('train-data', step, step ? ptOf(String(step.step)) : null);
      }
      case 'events':
      case 'dashboard_columns': {
        // `rollout_<stem>.parquet` and the like: the step its name ends with, when it names one.
        const m = /(eval_)?(\d+)$/.exec(stem);
        const step = m ? { kind: m[1] ? ('eval' as const) : ('rollout' as const), step: Number(m[2]) } : null;
        const of = step ? ptOf(`${step.kind === 'eval' ? 'eval_' : ''}${step.step}`) : null;
        return annotate(place.folder === 'events' ? 'events' : 'dashboard', step, of);
      }
    }
  }
  const root = givenRoot(shown, givenFolders);
  const exportOf = isLogFileName(shown) ? `${runFileStem(shown)}.pt` : null;
  if (exportOf !== null && present.has(exportOf)) return { ...base, role: 'annotation', root, step: null, annotation: { kind: 'export', of: exportOf } };
  return { ...base, role: 'primary', root, step: null, annotation: null };
}

/** The files to read and analyse, in walk order: primaries and partial steps. */
export function filesToRead<T extends { displayPath: string }>(plan: RunPlan, targets: readonly T[]): T[] {
  return targets.filter((t) => plan.byPath.get(t.displayPath)?.role !== 'annotation');
}

/** A step's train_data: every rank's file, and the step's rollout dump when it is in the run. */
export interface TrainDataStep {
  root: string;
  step: number;
  files: PlannedFile[];
  /** The display path of `D/rollout_data/<step>.pt`, when the run holds it. */
  of: string | null;
}

/** The train_data files of each rollout step, grouped by run root and step, in step order. */
export function trainDataSteps(plan: RunPlan): TrainDataStep[] {
  const steps = new Map<string, TrainDataStep>();
  for (const f of plan.files) {
    if (f.annotation?.kind !== 'train-data' || f.step === null) continue;
    const key = `${f.root}\u0000${f.step.step}`;
    let s = steps.get(key);
    if (s === undefined) steps.set(key, (s = { root: f.root, step: f.step.step, files: [], of: f.annotation.of }));
    s.files.push(f);
  }
  return [...steps.values()].sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : a.step - b.step));
}

/** The rollout dumps some train_data step of `plan` is joined to (their display paths): only those are indexed by `Sample.index`. */
export function trainDataRollouts(plan: RunPlan | null): ReadonlySet<string> {
  const out = new Set<string>();
  if (plan === null) return out;
  for (const t of trainDataSteps(plan)) if (t.of !== null) out.add(t.of);
  return out;
}

/**
 * The `.pt` dump a miles trajectory sidecar (`D/trajectory/<step>.jsonl`) takes its verdicts from,
 * `D/rollout_data/<step>.pt`; null for a file not in a `trajectory` folder.
 */
export function trajectoryDumpOf(path: string): string | null {
  return siblingPt(path);
}
