// What normalisation needs besides the record: where the line is, the file's format and kind,
// settings, and the one piece of state that spans lines (legacy verl grouping by identical input).
import type { ShapeNotes } from './fieldShape';
import type { ReferencePaths } from './referencePaths';
import type { RolloutLensSettings } from '../vocabulary/settings';
import type { FileKind, FormatId, MetricsRecord, SampleRecord } from '../vocabulary/types';

export interface LineInfo {
  line: number;
  offset: number;
  byteLength: number;
}

/**
 * Legacy verl dumps have no uid: rows with the same input hash form one group wherever they are,
 * since `_balance_batch` scatters a prompt's rows over the file (docs/framework-files.md#verl-legacy).
 * `ids` numbers the inputs in order of first appearance.
 */
export interface InputRunState {
  ids: Map<string | null, number>;
}

/** A copy to resume from while the original moves on. */
export function copyInputRun(s: InputRunState): InputRunState {
  return { ids: new Map(s.ids) };
}

export interface NormalizeContext {
  format: FormatId;
  kind: FileKind;
  settings: RolloutLensSettings;
  /** Reward key for this file's kind (docs/semantics.md#reward-value). */
  rewardKey: string | null;
  /**
   * An eval file read with its own reward key: `rewardKey` of the settings, under which miles' eval
   * `zero_std/*` read an object reward (`SampleRecord.zeroStdReward`). Undefined: the same key.
   */
  zeroStdRewardKey?: string | null;
  inputRun: InputRunState;
  /** Test-only: the reference paths to take instead of the fast ones (the differential tests). */
  reference?: ReferencePaths;
  /** Where a field of another shape is noted (the file's store: formats/fieldShape.ts). */
  shapes?: ShapeNotes;
}

export type Normalized =
  | { type: 'sample'; sample: SampleRecord; rewardProblem: string | null }
  | { type: 'metrics'; metrics: MetricsRecord }
  | { type: 'invalid'; message: string }
  /** A row the framework itself never counts (verl's batch padding, docs/framework-files.md#verl-v1). */
  | { type: 'padding' };

/** Dataset order (docs/semantics.md#dataset-of-a-sample): `dataset`, `metadata.dataset`, `metadata.dataset_name`, `data_source`. */
export function recordDatasetName(
  record: { dataset?: string | null; data_source?: string | null },
  metadata: { dataset?: string | null; dataset_name?: string | null } | null | undefined,
): string | null {
  return datasetInOrder(record.dataset, metadata?.dataset, metadata?.dataset_name, record.data_source);
}

/** `recordDatasetName` over values already found (the per-line and `.pt` paths, which build no objects). */
export function datasetInOrder(
  dataset: string | null | undefined,
  metaDataset: string | null | undefined,
  metaDatasetName: string | null | undefined,
  dataSource: string | null | undefined,
): string | null {
  return dataset ?? metaDataset ?? metaDatasetName ?? dataSource ?? null;
}

/** An empty cause is no cause. */
export function causeOf(v: string | null | undefined): string | null {
  return v === undefined || v === null || v === '' ? null : v;
}

export function rewardKeyFor(kind: FileKind, settings: RolloutLensSettings): string | null {
  return kind === 'eval' ? (settings.evalRewardKey ?? settings.rewardKey) : settings.rewardKey;
}

/** `NormalizeContext.zeroStdRewardKey` of a file of `kind`: the settings' `rewardKey` where the file's reward key is another. */
export function zeroStdRewardKeyFor(kind: FileKind, settings: RolloutLensSettings): string | null | undefined {
  return rewardKeyFor(kind, settings) === settings.rewardKey ? undefined : settings.rewardKey;
}

/**
 * `sample` moved to `info`'s line: a copy with the fields written out (an object spread here made
 * V8 build each record slowly, which a replay of every kept line of an open document pays;
 * BENCHMARKS.md, "Design measurements").
 */
export function sampleMovedTo(s: SampleRecord, info: LineInfo): SampleRecord {
  const out: SampleRecord = {
    line: info.line,
    offset: info.offset,
    byteLength: info.byteLength,
    groupKey: s.groupKey,
    index: s.index,
    dataset: s.dataset,
    promptKey: s.promptKey,
    status: s.status,
    aborted: s.aborted,
    reward: s.reward,
    rewardIsInt: s.rewardIsInt,
    cause: s.cause,
    responseLength: s.responseLength,
    step: s.step,
  };
  if (s.rolloutId !== undefined && s.rolloutId !== null) out.rolloutId = s.rolloutId;
  if (s.vars !== undefined) out.vars = s.vars;
  if (s.session !== undefined) out.session = s.session;
  if (s.output !== undefined) out.output = s.output;
  if (s.miles !== undefined) out.miles = s.miles;
  if (s.zeroStdReward !== undefined) out.zeroStdReward = s.zeroStdReward;
  return out;
}

export function metricsAt(m: MetricsRecord, info: LineInfo): MetricsRecord {
  return { line: info.line, offset: info.offset, byteLength: info.byteLength, step: m.step, stepKey: m.stepKey, metrics: m.metrics };
}
