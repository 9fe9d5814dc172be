// The inspection facade: what one sample is, which group it belongs to, what happened to that
// group and why, which metric counted it, and what its log line says about a failure. Editors
// (hover), the CLI and the sample view all ask here, so none of them re-parses lines or recomputes
// groups itself; they only render what this returns.
//
//   inspectSample(file, line)        → SampleInspection (no file read), or undefined: not a sample
//   readRecordDetail(file, sample)   → the failure message and short fields of the sample's line
//                                      (recordDetail.ts)
//   inspectLine(file, line)          → both at once (detail read only when the sample failed)
//
// The lookups in a file's detail (by line, group, dataset) live in detail/detailLookup.ts; the facade
// hands on those the hosts read.
import { classifyCause, formerNames, isAbortedReason, type CauseClass, type CauseSettings, type FormerName } from './vocabulary/causes';
import { datasetSummaryOf, eachSample, evalPartsOf, groupOf, membersOf, sampleAt } from './detail/detailLookup';
import type { FileAccess } from './seams/fileAccess';
import { fileStep } from './vocabulary/logFiles';
import { readRecordDetail, type RecordDetail } from './recordDetail';
import type { DatasetSummary, FileDetail, FileKind, FileReport, FormatId, GroupOutcome, MissingMember, SampleRecord } from './vocabulary/types';

export { eachSample, evalDatasetSamples, firstLineOf, groupMembersOfRows, groupOf, membersOf, sampleAt, sampleCount, verdictOf } from './detail/detailLookup';

/** An analysed file as the facade needs it: its report (with detail) and how to read it again. */
export interface InspectedFile {
  /** Null or without `detail`: nothing to inspect (the file was analysed without per-sample detail). */
  report: FileReport | null;
  /** The path the report was read from, handed to `access` to re-read a sample's line. */
  path: string;
  access: FileAccess;
  /** `tokenizer`: the run's tokenizer (settings.ts), for the sample view's token texts. */
  settings: CauseSettings & { tokenizer?: string | null };
  /** Whether a path a log file names may be read (core/tokenizer/runTokenizer.ts); absent: it may (the CLI). */
  mayFollow?: (path: string) => Promise<string | null>;
}

/** An eval prompt group: the dataset's samples in index order, cut into groups of its n (docs/semantics.md#eval-grouping). */
export interface EvalGroup {
  /** 0-based group number within the dataset. */
  index: number;
  n: number;
  /** The group's samples in index order. */
  members: SampleRecord[];
}

/** Which filter dropped a rollout group (docs/semantics.md). */
export type DropFilter = 'aborted-group' | 'reward-std';

/** A rollout group and the verdict of the filters on it. */
export interface GroupVerdict {
  outcome: GroupOutcome;
  /** Members in group order (lines the detail does not hold are left out). */
  members: SampleRecord[];
  kept: boolean;
  /** The framework's reason (`group_has_aborted_<cause>`, `zero_std_<r>`); null when kept. */
  reason: string | null;
  /** Null when kept. */
  droppedBy: DropFilter | null;
  /** The first aborted member in group order that this file has a line for. */
  firstAborted: SampleRecord | null;
  /** Members this file has no line for, with what the file that has them says (a trajectory sidecar's `.pt`). */
  missing: MissingMember[];
  /**
   * The cause that named an aborted-group drop: that of the first aborted member in group order,
   * present or missing, classified; null when the group was not dropped so, or no cause was recorded.
   */
  dropCause: { name: string; class: CauseClass } | null;
  /** Metric the drop is counted in, and the names older framework versions used for it. */
  metric: string | null;
  formerly: FormerName[];
}

export interface SampleInspection {
  kind: FileKind;
  format: FormatId;
  /** The record summary the analysis kept for the line. */
  sample: SampleRecord;
  /** Rollout files: the sample's group and what the filters did to it. */
  group: GroupVerdict | undefined;
  /** Eval files: the prompt group pass@k counts the sample in. */
  evalGroup: EvalGroup | undefined;
  /** The dataset the sample counted in (eval files, or a rollout file that names one). */
  dataset: DatasetSummary | undefined;
  /** The sample's failure cause and whether the policy could have caused it (`failureCause`); null: it did not fail, or no cause recorded. */
  cause: { name: string; class: CauseClass } | null;
  /** The exit status the line records (`metadata.exit_status`), failure or not (`Submitted`); null: none. */
  exitStatus: string | null;
  /** True when the sample failed (`isFailedSample`): its line's failure detail is worth reading. */
  failed: boolean;
  /**
   * The sample's step: its record's (verl's `step`), else its file's. A miles sample names none: its
   * `rollout_id` is its rollout (docs/framework-files.md#compact-rollouts). Null: nothing says.
   */
  step: number | null;
}

/**
 * A sample's eval dataset and prompt group (docs/semantics.md#eval-grouping): the dataset the
 * analysis put it in, its samples in grouping order cut into consecutive groups of the dataset's n.
 */
function evalPlaceOf(report: FileReport, detail: FileDetail, sample: SampleRecord): { dataset: DatasetSummary | undefined; group: EvalGroup | undefined } {
  const parts = evalPartsOf(report, detail);
  if (parts === null) {
    const dataset = datasetSummaryOf(detail, sample);
    return { dataset, group: dataset ? namedEvalGroupOf(detail, sample, dataset) : undefined };
  }
  for (const part of parts) {
    const list = part.ordered;
    let position = -1;
    for (let k = 0; k < list.length && position < 0; k++) if (list.line(k) === sample.line) position = k;
    if (position < 0) continue;
    const dataset = detail.datasets.find((d) => d.name === part.name);
    if (!dataset || dataset.n < 1) return { dataset, group: undefined };
    const index = Math.floor(position / dataset.n);
    const members: SampleRecord[] = [];
    // Records of their own: a view would read a store the caller may release.
    for (let k = index * dataset.n; k < Math.min(list.length, index * dataset.n + dataset.n); k++) members.push(k === position ? sample : list.detached(k));
    return { dataset, group: { index, n: dataset.n, members } };
  }
  return { dataset: undefined, group: undefined };
}

/**
 * The prompt group of a sample of a file whose rows name their dataset (verl): the dataset's
 * samples with an index, sorted by it, cut into consecutive groups of the dataset's n.
 */
function namedEvalGroupOf(detail: FileDetail, sample: SampleRecord, dataset: DatasetSummary): EvalGroup | undefined {
  if (sample.index === null || dataset.n < 1) return undefined;
  const only = detail.datasets.length === 1;
  const inDataset = [...eachSample(detail)].filter((s) => (only || s.dataset === dataset.name) && s.index !== null);
  inDataset.sort((a, b) => a.index! - b.index! || a.line - b.line);
  const position = inDataset.findIndex((s) => s.line === sample.line);
  if (position < 0) return undefined;
  const index = Math.floor(position / dataset.n);
  const members = inDataset.slice(index * dataset.n, index * dataset.n + dataset.n);
  return { index, n: dataset.n, members: members.map((s) => (s.line === sample.line ? sample : s)) };
}

/** The filters' verdict on a rollout group, with its members. */
function groupVerdict(detail: FileDetail, group: GroupOutcome, settings: CauseSettings): GroupVerdict {
  const members = membersOf(detail, group);
  const missing = group.missing ?? [];
  const droppedBy: DropFilter | null = group.kept || group.reason === null ? null : isAbortedReason(group.reason) ? 'aborted-group' : 'reward-std';
  const firstAborted = members.find((m) => m.aborted) ?? null;
  let dropCause: GroupVerdict['dropCause'] = null;
  if (droppedBy === 'aborted-group') {
    // The first aborted member in group order, present or missing, names the drop.
    const first = membersInOrder({ members, missing }).find((x) => ('sample' in x ? x.sample.aborted : x.missing.aborted));
    const name = first === undefined ? null : 'sample' in first ? first.sample.cause : first.missing.cause;
    dropCause = name === null ? null : { name, class: classifyCause(name, settings) };
  }
  return {
    outcome: group,
    members,
    kept: group.kept,
    reason: group.reason,
    droppedBy,
    firstAborted,
    missing,
    dropCause,
    metric: group.metric,
    formerly: group.metric !== null && group.reason !== null ? formerNames(group.reason) : [],
  };
}

/** A group's members in group order: those of the file, and those it lacks in their places. */
export function membersInOrder(group: Pick<GroupVerdict, 'members' | 'missing'>): ({ sample: SampleRecord } | { missing: MissingMember })[] {
  const out: ({ sample: SampleRecord } | { missing: MissingMember })[] = [];
  let k = 0;
  let j = 0;
  while (k < group.members.length || j < group.missing.length) {
    if (j < group.missing.length && (k >= group.members.length || group.missing[j].position <= out.length)) out.push({ missing: group.missing[j++] });
    else out.push({ sample: group.members[k++] });
  }
  return out;
}

/**
 * The sample's failure cause: its recorded exit status when the sample failed (aborted, or status
 * `failed`), or when that exit status is itself a failure the cause lists know (infrastructure or
 * policy: a failure kept and scored). A finished attempt's `Submitted`, or an exit status in
 * neither list on a sample that did not fail, is its exit status, not a cause.
 */
export function failureCause(sample: Pick<SampleRecord, 'cause' | 'aborted' | 'status'>, settings: CauseSettings): { name: string; class: CauseClass } | null {
  if (sample.cause === null) return null;
  const cls = classifyCause(sample.cause, settings);
  if (sample.aborted || sample.status === 'failed' || cls === 'infrastructure' || cls === 'policy') return { name: sample.cause, class: cls };
  return null;
}

/** Whether a sample failed: aborted, status `failed`, or a failure cause recorded (`failureCause`). Hovers, the sample view and CodeLens ask here. */
export function isFailedSample(sample: SampleRecord, settings: CauseSettings): boolean {
  return sample.aborted || sample.status === 'failed' || failureCause(sample, settings) !== null;
}

/** Everything the analysis knows about the sample on a 1-based line; undefined when no sample is there. */
export function inspectSample(file: Pick<InspectedFile, 'report' | 'settings'>, line1: number): SampleInspection | undefined {
  const report = file.report;
  const detail = report?.detail;
  if (!report || !detail) return undefined;
  const sample = sampleAt(detail, line1);
  if (!sample) return undefined;
  const group = groupOf(detail, sample);
  const place = report.kind === 'eval' ? evalPlaceOf(report, detail, sample) : { dataset: datasetSummaryOf(detail, sample), group: undefined };
  return {
    kind: report.kind,
    format: report.format,
    sample,
    group: group ? groupVerdict(detail, group, file.settings) : undefined,
    evalGroup: place.group,
    dataset: place.dataset,
    cause: failureCause(sample, file.settings),
    exitStatus: sample.cause,
    failed: isFailedSample(sample, file.settings),
    step: sample.step ?? report.step ?? fileStep(report.path, []),
  };
}

/** `inspectSample` plus the line's detail, read only for a failed sample (null otherwise). */
export async function inspectLine(file: InspectedFile, line1: number): Promise<{ inspection: SampleInspection; detail: RecordDetail | null } | undefined> {
  const inspection = inspectSample(file, line1);
  if (!inspection) return undefined;
  return { inspection, detail: inspection.failed ? await readRecordDetail(file, inspection.sample) : null };
}
