// The one file both sides import: the custom requests and notifications between the VS Code
// client and the language server, typed (`RequestType<P, R, E>`, `NotificationType<P>`: client and
// server name the type, never the method string), and the settings (shared/settings.ts), re-exported.
import { NotificationType, RequestType, type Diagnostic } from 'vscode-languageserver-protocol';

export { DEFAULT_SETTINGS, type GenericFieldMap, type RolloutLensSettings } from './settings';
import type { RolloutLensSettings } from './settings';
import type { RunDiff } from './runDiff';
import { isPtDumpName } from './logFiles';
import type { RunView } from './runViewModel';
import type { SampleView } from './sampleViewModel';

export const SETTINGS_SECTION = 'rolloutLens';
export const LANGUAGE_ID = 'jsonl';
export const DOCS_BASE = 'https://github.com/rollout-lens/rollout-lens/blob/main/docs/diagnostics.md';

// ---- custom requests and notifications ----

export interface AnalyzeFileParams {
  uri: string;
  /** Token for `$/progress` reports while the file streams from disk. */
  workDoneToken?: string | number;
}
export interface AnalyzeFileResult {
  uri: string;
  records: number;
  invalidLines: number;
  findings: number;
}
export const AnalyzeFileRequest = new RequestType<AnalyzeFileParams, AnalyzeFileResult, void>('rolloutLens/analyzeFile');

// Line numbers in these results are 0-based, as everywhere in LSP.
export interface SamplesRef {
  uri: string;
  line: number;
  status: string | null;
  reward: number | null;
  /** The exit status the line records (`metadata.exit_status`), failure or not (`Submitted`). */
  cause: string | null;
  /** Its failure cause (the engine's `failureCause`): null when it did not fail, or none is recorded. */
  failureCause: string | null;
}
export interface GroupItem {
  key: string;
  uri: string;
  line: number;
  kept: boolean;
  reason: string | null;
  metric: string | null;
  samples: SamplesRef[];
}
export interface CauseBucket {
  /** `group_has_aborted_<cause>`, `zero_std_<r>`, or `kept`. */
  reason: string;
  metric: string | null;
  /** How older charts named it (sync, fully async), when they did. */
  formerly: string[];
  /** Groups in this bucket. */
  count: number;
  /**
   * The bucket's first groups in file order (the server caps the list); empty when the file's
   * entry has `groupsListed: false`.
   */
  groups: GroupItem[];
  /** Groups of this bucket not listed in `groups`: `count - groups.length`. */
  omitted: number;
}
export interface GroupsByCauseParams {
  /**
   * A log file: its buckets with their groups. A folder (a run: one entry per step file): each
   * file's buckets with their counts only (`groupsListed: false`), since a run's files can hold
   * millions of groups; a client asks again with a file's `uri` for its groups (the VS Code tree
   * does when that file's node is expanded). Omitted: every analysed file, with groups.
   */
  uri?: string;
}
export interface FileGroups {
  uri: string;
  step: number | null;
  dropped: number;
  kept: number;
  /** False: `buckets` carry counts and no groups (a folder's answer); ask with this `uri` for them. */
  groupsListed: boolean;
  buckets: CauseBucket[];
}
/** One step of a run as the engine's run model has it (core/run/model.ts); files as URIs. */
export interface RunStepSummary {
  step: number | null;
  kind: 'rollout' | 'eval';
  /** Its files: those analysed first, then those that only annotate it (trajectory, train_data, …). */
  uris: string[];
  /** Read from a trajectory sidecar without its `.pt`. */
  partial: boolean;
  groups: { total: number; kept: number; dropped: number };
  /** Dropped groups per drop reason. */
  droppedByCause: Record<string, number>;
}
export interface RunSummary {
  /** The run's root folder (the dump folder of a miles `--dump-details` run) as a URI. */
  root: string;
  framework: 'miles' | 'verl' | 'slime' | 'other';
  steps: RunStepSummary[];
}
/**
 * What configured an analysis: the run settings files and eval configs in effect, as URIs (files
 * in subfolders may have their own). Empty `settingsFiles`: no `rollout-lens.yaml`/.yml/.json above
 * the files, the editor's `rolloutLens.*` settings alone apply; empty `evalConfigs`: the eval files
 * were checked without one (or there are none).
 */
export interface RunContext {
  settingsFiles: string[];
  evalConfigs: string[];
}
export interface GroupsByCauseResult {
  /** One entry per analysed rollout file (files that only annotate a step are not analysed). */
  files: FileGroups[];
  /** The runs of what was asked about, step by step: what a run's totals are counted from. */
  runs: RunSummary[];
  /** The settings file and eval configs of what was asked about. */
  context: RunContext;
}
export const GroupsByCauseRequest = new RequestType<GroupsByCauseParams, GroupsByCauseResult, void>('rolloutLens/groupsByCause');

export interface DatasetItem {
  uri: string;
  line: number;
  name: string;
  samples: number;
  n: number;
  nSource: string;
  metrics: Record<string, number>;
  wrongPassAtK?: { groupSize: number; metrics?: Record<string, number>; crash?: string };
  /** `fixable`: the finding's diagnostic carries a quick fix (the engine's catalog decides). */
  findings: { code: string; severity: string; message: string; line: number; fixable: boolean }[];
  /** The eval config its file was checked with (URI), null when none. */
  evalConfig: string | null;
  /** The run settings file that applies to its file (URI), null when none. */
  settingsFile: string | null;
}
export interface EvalDatasetsParams {
  uri?: string;
}
export interface EvalDatasetsResult {
  datasets: DatasetItem[];
}
export const EvalDatasetsRequest = new RequestType<EvalDatasetsParams, EvalDatasetsResult, void>('rolloutLens/evalDatasets');

export interface StepDrops {
  uri: string;
  step: number | null;
  drops: Record<string, number>;
}
export interface RunStepsParams {
  folderUri: string;
}
export interface RunStepsResult {
  steps: StepDrops[];
}
export const RunStepsRequest = new RequestType<RunStepsParams, RunStepsResult, void>('rolloutLens/runSteps');

/**
 * A run at the level of the editor (the Inspect command): its findings as diagnostics for every
 * file of the run (the client shows those of files that are not open; open ones have their own),
 * its totals as the run model counts them, and what configured it.
 */
export interface RunStatusParams {
  /** A run folder or a log. */
  uri: string;
}
export interface RunStatusFileDiagnostics {
  uri: string;
  diagnostics: Diagnostic[];
}
export interface RunStatusResult {
  /** The run folder or log asked about. */
  uri: string;
  runs: RunSummary[];
  /** Over the runs' rollout steps (each step counted once): groups, and those dropped. */
  rolloutSteps: number;
  groups: { total: number; kept: number; dropped: number };
  /** `metric-mismatch` findings: logged metrics (metrics.jsonl) that differ from the recomputed ones. */
  metricMismatches: number;
  /** Findings by severity over the run's files. */
  findings: { error: number; warning: number; information: number; hint: number };
  /**
   * The first step where the run's train–inference mismatch drifts (the `logprob-drift` finding of
   * core/train/drift.ts, as `check` reports it), with the finding's message; null when none does.
   */
  drift?: { step: number; message: string } | null;
  /** Files with at least one diagnostic. */
  files: RunStatusFileDiagnostics[];
  context: RunContext;
}
export const RunStatusRequest = new RequestType<RunStatusParams, RunStatusResult, void>('rolloutLens/runStatus');

/** The run view model (shared/runViewModel.ts) of a log or a run folder; file sources are URIs. */
export interface RunViewParams {
  /** A log file or a run folder. Omitted: every analysed file. */
  uri?: string;
  /** Samples listed per drop reason (default 20, at most 200). */
  samplesPerReason?: number;
}
export const RunViewRequest = new RequestType<RunViewParams, RunView, void>('rolloutLens/runView');

/**
 * Two runs compared as `rollout-lens diff --format json` compares them (docs/compare.md): each a
 * run folder, a log or a run summary (`*.json`), read as saved on disk (unsaved edits of an open
 * log do not count, as they do not for the CLI); steps paired by number. The gate is evaluated
 * with the rules of `gate:` in the settings file nearest above the candidate, else the defaults.
 * Places (`file`, 1-based `line`) are file-system paths.
 */
export interface CompareRunsParams {
  /** URI of the baseline run. */
  baseline: string;
  /** URI of the candidate run. */
  candidate: string;
  /** Flipped prompts listed (all are counted); default as `diff`'s `--max-prompts`, at most 1000. */
  maxPrompts?: number;
}
export type { RunDiff } from './runDiff';
export const CompareRunsRequest = new RequestType<CompareRunsParams, RunDiff, void>('rolloutLens/compareRuns');

/** The sample view model (shared/sampleViewModel.ts) of the sample on a line; null when the line holds none. */
export interface SampleViewParams {
  uri: string;
  /** 0-based. */
  line: number;
}
export const SampleViewRequest = new RequestType<SampleViewParams, SampleView | null, void>('rolloutLens/sampleView');

/**
 * Where the sample view steps to from a sample: the next (1) or previous (-1) failed sample
 * (aborted, status failed, or a failure cause), or the first line of the next or previous dropped
 * group, in the same file. No wrapping.
 */
export interface SampleNavigationParams {
  uri: string;
  /** 0-based. */
  line: number;
  target: 'failedSample' | 'droppedGroup';
  direction: 1 | -1;
}
export interface SampleNavigationResult {
  /** 0-based line of the target; null: there is none that way. */
  line: number | null;
}
export const SampleNavigationRequest = new RequestType<SampleNavigationParams, SampleNavigationResult, void>('rolloutLens/sampleNavigation');

/**
 * A miles `.pt` dump as JSON Lines, one sample a line (line N = sample N, as in the findings of its
 * analysis; docs/pt.md): for editors to show a read-only view of a file that is not text.
 */
export interface PtAsJsonlParams {
  uri: string;
}
export interface PtAsJsonlResult {
  text: string;
  samples: number;
  /** What was not run (blocked callables) or where reading stopped; inert text. */
  problems: string[];
}
export const PtAsJsonlRequest = new RequestType<PtAsJsonlParams, PtAsJsonlResult, void>('rolloutLens/ptAsJsonl');

/**
 * The URI scheme of a `.pt` dump's JSON Lines view in an editor: `rollout-lens-pt:<dump path>.jsonl`
 * with the dump's own URI as the query. Hover and the sample view read the dump it names.
 */
export const PT_VIEW_SCHEME = 'rollout-lens-pt';

/** The dump's own URI of a `.pt` JSON Lines view URI (as a string); null: `uri` is no such view. */
export function dumpUriOfPtView(uri: string): string | null {
  if (!uri.startsWith(`${PT_VIEW_SCHEME}:`)) return null;
  const q = uri.indexOf('?');
  if (q < 0) return null;
  let query: string;
  try {
    query = decodeURIComponent(uri.slice(q + 1).split('#')[0]);
  } catch {
    return null;
  }
  return query.startsWith('file:') && isPtDumpName(query) ? query : null;
}

/** Sent by the server whenever an analysis result changed. */
export interface AnalysisChangedParams {
  uri: string;
  dropped: number;
  causes: number;
  findings: number;
}
export const AnalysisChangedNotification = new NotificationType<AnalysisChangedParams>('rolloutLens/analysisChanged');

// ---- quick fix through the client's settings ----

/**
 * Client-side command a quick fix may carry: set `rolloutLens.nSamplesPerEvalPrompt` (the global
 * `--n-samples-per-eval-prompt` the analysis assumes) for the resource's scope. The server offers
 * it only to clients that list it in `initializationOptions.clientCommands`.
 */
export const SetNSamplesPerEvalPromptCommand = 'rolloutLens.setNSamplesPerEvalPrompt';
export interface SetNSamplesPerEvalPromptArgs {
  /** The log the diagnostic is on (settings scope). */
  resourceUri: string;
  value: number;
}

/**
 * Client-side command a CodeLens may carry: open the sample on a line in the sample view
 * (arguments: document URI, 0-based line). Offered only to clients that list it in
 * `initializationOptions.clientCommands`.
 */
export const OpenSampleCommand = 'rolloutLens.openSample';

/** `initializationOptions` the server reads. */
export interface RolloutLensInitializationOptions {
  /** Client-side commands the client implements (e.g. `SetNSamplesPerEvalPromptCommand`). */
  clientCommands?: string[];
  /**
   * Initial settings for clients that cannot answer `workspace/configuration` (Neovim 0.7 does not
   * announce it): `{ rolloutLens: { ... } }`, replaced by later `didChangeConfiguration` payloads.
   */
  settings?: { rolloutLens?: Partial<RolloutLensSettings> };
  /**
   * False when the editor's workspace is not trusted: then a path a log file names outside the
   * workspace folders (the dashboard's `hf_checkpoint`) is not read (docs/editors.md#token-text).
   * Absent: the client has no such notion, and the server reads it as the CLI does.
   */
  workspaceTrusted?: boolean;
}

/** The client's workspace became trusted (`RolloutLensInitializationOptions.workspaceTrusted` was false). */
export interface WorkspaceTrustParams {
  trusted: boolean;
}
export const WorkspaceTrustNotification = new NotificationType<WorkspaceTrustParams>('rolloutLens/workspaceTrust');
