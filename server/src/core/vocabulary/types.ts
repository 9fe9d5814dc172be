// The engine's vocabulary. Everything here is plain data: no editor, no LSP, no file system.
import type { Run } from '../run/model';
import type { SampleStore } from '../store/sampleStore';
import type { BucketTable } from '../train/drift';
import type { TrainStepMismatch } from '../train/trainStep';

/** A JSON object (not null, not an array): what a parsed log value must be before its keys are read. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Log formats (docs/semantics.md#formats). `unknown` when nothing matched. */
export type FormatId =
  | 'miles-sample'
  | 'miles-pt'
  | 'miles-trajectory'
  | 'miles-eval-trials'
  | 'miles-metrics'
  | 'slime-sample'
  | 'slime-pt'
  | 'verl-rollout'
  | 'verl-validation'
  | 'generic'
  | 'unknown';

export type FileKind = 'rollout' | 'eval' | 'metrics' | 'unknown';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export type SampleStatus = 'pending' | 'completed' | 'truncated' | 'aborted' | 'failed';

/**
 * One sample (one attempt) reduced to what the analysis needs. Kept small on purpose: a run can
 * hold millions of them, and anything else is re-read from disk by `offset`/`byteLength`.
 */
export interface SampleRecord {
  /** 1-based line number in its file. */
  line: number;
  /** Byte offset of the line's first byte (after a BOM on line 1). */
  offset: number;
  /** Bytes of the line, without its end-of-line. */
  byteLength: number;
  /** Group key as text (`group_index`, prompt uid, `instance_id`, ...); null when the format has none. */
  groupKey: string | null;
  /** Sample index (`index`, `sample_index`, `trial_idx`); null when absent. */
  index: number | null;
  /** Dataset name as recorded (in the order of docs/semantics.md#dataset-of-a-sample); null when the log does not say. */
  dataset: string | null;
  /** Identity of the prompt (a hash of its text, `instance_id` or label); null when absent. */
  promptKey: string | null;
  status: SampleStatus | null;
  /** True when the sample counts as aborted for this format (miles `status`, verl empty output, ...). */
  aborted: boolean;
  /** Reward value per docs/semantics.md#reward-value (reward key resolved). NaN and ±Infinity are kept. Null: no reward. */
  reward: number | null;
  /** The reward's JSON text was an integer literal (`1`, not `1.0`): Python keeps it an int. */
  rewardIsInt: boolean;
  /** The reward was a JSON boolean: a Python bool, an int to arithmetic that prints as `True` / `False`. */
  rewardIsBool?: true;
  /** Failure cause: `metadata.exit_status` (miles), `exit_status` (trials); null when absent or empty. */
  cause: string | null;
  responseLength: number | null;
  /** Training or eval step when the record says (verl's `step`; a miles sample names none). */
  step: number | null;
  /**
   * miles' `Sample.rollout_id`: the rollout (execution) a sample came from, not the step. The
   * samples of one compact / sub-agent rollout share it (docs/framework-files.md#compact-rollouts);
   * absent or null: the sample is its own rollout.
   */
  rolloutId?: number | null;
  /** Other numeric per-sample variables a framework averages (verl `acc`, `score`, ...). */
  vars?: Record<string, number>;
  /**
   * verl v1 uid `<prompt uid>_<session>_<output>`: the session (`<prompt uid>_<session>`) and the
   * output's number in it. Only a session's last output counts in verl's metrics.
   */
  session?: string;
  output?: number;
  /** miles `Sample` fields its logged sample metrics read (docs/semantics.md#miles-sample-metrics). */
  miles?: MilesSampleFields;
  /**
   * An eval file read with its own reward key (`evalRewardKey` ≠ `rewardKey`) and an object
   * reward: the value `Sample.get_reward_value(args)` gives under `rewardKey`, which miles' eval
   * `zero_std/*` read (docs/semantics.md#miles-sample-metrics). Absent: the same as `reward`.
   */
  zeroStdReward?: KeyedReward;
}

/**
 * A reward as Python compares and rounds it: a number (bools are ints), None, or another value
 * (`pyType` `dict`, `str`, `list`) that `==` compares by `text` (equal texts: equal values) and
 * `round` refuses.
 */
export interface KeyedReward {
  reward: number | null;
  rewardIsInt: boolean;
  /** For a value that is not a number or None: its type as Python names it, and its equality text (null: it equals no other sample's value). */
  pyType: string | null;
  text: string | null;
}

export interface MilesSampleFields {
  /** `effective_response_length`: sum of `loss_mask`, else `response_length`; null when neither is readable. */
  effectiveLength: number | null;
  /** `weight_versions` as written (strings or numbers); null when absent or unreadable. */
  weightVersions: (string | number)[] | null;
  cachedTokens: number;
  totalPromptTokens: number;
  /**
   * miles' `has_repetition(response)`, decided when the sample was read (only the verdict is kept):
   * true or false; null when the response is not text (not recomputed); a string when miles raises
   * on this response, the exception as Python prints it (a lone surrogate in the compressed tail).
   */
  repetition: boolean | null | string;
}

/** One line of a metrics log (miles dashboard `metrics.jsonl`). */
export interface MetricsRecord {
  line: number;
  offset: number;
  byteLength: number;
  step: number | null;
  stepKey: string | null;
  metrics: Record<string, number>;
}

/** A fix a client can apply without re-analysis (carried as quick-fix data). */
export interface SetNSamplesFix {
  kind: 'set-n-samples-per-eval-prompt';
  dataset: string;
  value: number;
  /** The eval config to edit; null when there is none (then the fix names the flag to set). */
  configFile: string | null;
}
export type Fix = SetNSamplesFix;

export interface Location {
  file: string;
  line: number;
}

export interface Finding {
  code: string;
  severity: Severity;
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based column (UTF-16 code units) where the problem is, when it is a position in the line. Not in the CLI's JSON. */
  column?: number;
  message: string;
  group: string | null;
  dataset: string | null;
  fix: Fix | null;
  related?: Location[];
  /** On a `too-many-problems` summary: how many findings it stands for. Not in the CLI's JSON. */
  hiddenCount?: number;
  /** On a `too-many-problems` summary: those of `hiddenCount` whose code is known, by code (core/findingCap.ts). Not in the CLI's JSON. */
  hiddenByCode?: Record<string, number>;
}

export interface GroupCounts {
  total: number;
  kept: number;
  dropped: number;
}

/** What the filters did to one group. */
export interface GroupOutcome {
  key: string;
  /** Lines of the members in group order. */
  lines: number[];
  kept: boolean;
  /** `group_has_aborted_<cause>` or `zero_std_<r>`; null when kept. */
  reason: string | null;
  /** Metric the drop counted in, e.g. `rollout/dynamic_filter/drop_group_has_aborted_X`. */
  metric: string | null;
  /** Members this file has no line for, as another file of the step records them (a trajectory sidecar's `.pt`). */
  missing?: MissingMember[];
}

/**
 * A group member a file has no line for: miles' trajectory sidecar has no row for a sample aborted
 * before any model call (docs/pt.md#the-trajectory-sidecar); its step's `.pt` has it.
 */
export interface MissingMember {
  /** 0-based position in group order (among all members, present or missing). */
  position: number;
  index: number | null;
  status: SampleStatus | null;
  aborted: boolean;
  reward: number | null;
  rewardIsInt: boolean;
  cause: string | null;
  /** The file that has it (display path) and its 1-based line there (sample N of a `.pt`). */
  file: string;
  line: number;
}

/** What the filters did to each group of a store, by the store's group id (its key's first-appearance ordinal). */
export interface GroupVerdicts {
  /** By group id: 0 kept, k > 0 dropped for `reasons[k - 1]`. */
  reasonOf: Int32Array;
  /** Drop reasons (`group_has_aborted_<cause>`, `zero_std_<r>`), first-seen order. */
  reasons: string[];
}

/** Per-dataset evaluation summary (docs/semantics.md#eval-metrics). */
export interface DatasetSummary {
  name: string;
  samples: number;
  /** Samples per prompt the metrics were grouped by (the dataset's own n). */
  n: number;
  /** Where n came from: dataset entry, eval.defaults, the global flag, or inferred from the log. */
  nSource: 'dataset' | 'defaults' | 'global' | 'inferred' | 'default';
  metrics: Record<string, number>;
  /** pass@k as older miles computes it when grouping by the global n differs; absent otherwise. */
  wrongPassAtK?: { groupSize: number; metrics: Record<string, number> } | { groupSize: number; crash: string };
}

export interface FileReport {
  /** As given, or relative to the folder given. */
  path: string;
  format: FormatId;
  kind: FileKind;
  records: number;
  invalidLines: number;
  groups: GroupCounts;
  /** Metric name exactly as the framework logs it → value. */
  metrics: Record<string, number>;
  /**
   * Not part of the JSON contract (the run model's steps are): a rollout or eval file's step, from
   * its records, else the last number in its name (core/vocabulary/logFiles.ts `fileStep`).
   */
  step?: number | null;
  /** Not part of the JSON contract: detail for editors and the text report. */
  detail?: FileDetail;
}

export interface FileDetail {
  /** Empty when `store` holds the samples instead. */
  samples: SampleRecord[];
  /**
   * The samples as the scan stored them (columnar), kept instead of `samples` when the analysis
   * was asked for `keepDetail: 'store'` (the run views over large folders; read them through
   * inspect.ts `eachSample` / `sampleAt`).
   */
  store?: SampleStore;
  /** Empty when `verdicts` holds what the filters did instead. */
  groups: GroupOutcome[];
  /**
   * With `store`: each of its groups' verdict, by the store's group id, instead of a `GroupOutcome`
   * (key, member lines) per group: a file of a million samples has 125 000 groups (read them
   * through inspect.ts `groupOf`).
   */
  verdicts?: GroupVerdicts;
  datasets: DatasetSummary[];
  /** An eval file's dataset names in its eval config's order: they name datasets found by index restarts. */
  evalDatasetOrder?: readonly string[];
  /** An eval file's recorded dataset names its eval config's `metadata_overrides` wrote → the entry's name (`evalDatasetRenames`). */
  evalDatasetRenames?: ReadonlyMap<string, string | null>;
  metricsRecords: MetricsRecord[];
  /** Absolute path (or URI-path) of the file, for re-reading lines. */
  source: string;
}

export interface RunReport {
  version: 1;
  files: FileReport[];
  findings: Finding[];
  /** The runs and their steps (core/run/model.ts); absent: built from `files` when needed. */
  runs?: Run[];
  /** Each step's train_data, read (core/train/trainStep.ts); absent when the run has none. */
  trainSteps?: TrainStepReport[];
}

/** What a step's train_data gives its step (core/train/trainStep.ts `TrainStepResult`). */
export interface TrainStepReport {
  step: number;
  /** Every rank's file, as shown. */
  files: string[];
  samples: number;
  metrics: Record<string, number>;
  mismatch: TrainStepMismatch | null;
  /** The step's |Δ| by bucket (the drift finder reads them; core/train/drift.ts). */
  buckets: BucketTable;
  /** The run's root (a dump folder D). */
  root: string;
}
