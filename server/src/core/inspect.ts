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
// Lookups by line go through indexes kept per FileDetail (WeakMap: they go when the result goes),
// so a hover on a file of a million samples does not copy or scan the detail each time.
import { classifyCause, dropMetricName, formerNames, isAbortedReason, type CauseClass, type CauseSettings, type FormerName } from './causes';
import type { FileAccess } from './fileAccess';
import { fileStep } from './logFiles';
import { inGroupOrder } from './rollout/groups';
import { readRecordDetail, type RecordDetail } from './recordDetail';
import { minLine, splitsDatasets } from './eval/analyze';
import { splitDatasets } from './eval/datasets';
import { groupingOrder } from './eval/grouping';
import { sampleList, type SampleList } from './store/sampleList';
import type { DatasetSummary, FileDetail, FileKind, FileReport, FormatId, GroupOutcome, MissingMember, SampleRecord } from './types';

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

const sortedSamples = new WeakMap<FileDetail, readonly SampleRecord[]>();
const groupIndex = new WeakMap<FileDetail, Map<string, GroupOutcome[]>>();

const storeRows = new WeakMap<FileDetail, Int32Array>();

/** Every sample of a detail in stored order (rows of its store read one at a time). */
export function* eachSample(detail: FileDetail): Generator<SampleRecord> {
  const store = detail.store;
  if (!store) {
    yield* detail.samples;
    return;
  }
  for (let i = 0; i < store.length; i++) yield store.at(i);
}

/** An eval file's dataset as the analysis split it, its samples in the order they are grouped in. */
interface EvalPart {
  name: string;
  ordered: SampleList;
}

const evalParts = new WeakMap<FileDetail, EvalPart[]>();

/**
 * An eval file's datasets, split and ordered by the analysis's own rules (`splitDatasets`,
 * `groupingOrder`): a sample without a recorded dataset belongs to the one its index restarts
 * name. Null for files whose datasets are named by their rows (verl).
 */
function evalPartsOf(report: Pick<FileReport, 'path' | 'format'>, detail: FileDetail): EvalPart[] | null {
  if (!splitsDatasets(report.format)) return null;
  let parts = evalParts.get(detail);
  if (!parts) {
    const list = sampleList(detail.store ?? detail.samples);
    parts = splitDatasets(report.path, report.format, list, detail.evalDatasetOrder ?? [], detail.evalDatasetRenames).map((p) => ({
      name: p.name,
      ordered: groupingOrder(report.format, p.samples),
    }));
    evalParts.set(detail, parts);
  }
  return parts;
}

/**
 * An eval file's samples by dataset, as the analysis split them (`splitDatasets`), in grouping
 * order; for files whose rows name their dataset (verl), by `recordDatasetName`. Records of their own.
 */
export function evalDatasetSamples(report: Pick<FileReport, 'path' | 'format'>, detail: FileDetail): { name: string; samples: SampleRecord[] }[] {
  const parts = evalPartsOf(report, detail);
  if (parts !== null) {
    return parts.map((p) => {
      const samples: SampleRecord[] = [];
      for (let k = 0; k < p.ordered.length; k++) samples.push(p.ordered.detached(k));
      return { name: p.name, samples };
    });
  }
  const byName = new Map<string, SampleRecord[]>();
  for (const s of eachSample(detail)) {
    const d = datasetSummaryOf(detail, s);
    if (!d) continue;
    const list = byName.get(d.name);
    if (list) list.push(s);
    else byName.set(d.name, [s]);
  }
  return [...byName.entries()].map(([name, samples]) => ({ name, samples }));
}

/** The 1-based line where an eval file's dataset `name` starts (its first sample by line); null: no such dataset. */
export function firstLineOf(report: Pick<FileReport, 'path' | 'format'>, detail: FileDetail, name: string): number | null {
  const part = evalPartsOf(report, detail)?.find((p) => p.name === name);
  if (part) return part.ordered.length > 0 ? minLine(part.ordered) : null;
  // Datasets named by their rows: the first row that names it, or any row for a file of one.
  const only = detail.datasets.length === 1;
  for (const s of eachSample(detail)) if (only || s.dataset === name) return s.line;
  return null;
}

/** Samples a detail holds. */
export function sampleCount(detail: FileDetail): number {
  return detail.store?.length ?? detail.samples.length;
}

/** The store row of a 1-based line (-1: none), from an index of 4 bytes per line. */
function storeRowOf(detail: FileDetail, line1: number): number {
  const store = detail.store!;
  let rows = storeRows.get(detail);
  if (!rows) {
    let max = 0;
    for (let i = 0; i < store.length; i++) max = Math.max(max, store.lineAt(i));
    rows = new Int32Array(max + 1).fill(-1);
    for (let i = 0; i < store.length; i++) rows[store.lineAt(i)] = i;
    storeRows.set(detail, rows);
  }
  return line1 >= 0 && line1 < rows.length ? rows[line1] : -1;
}

function samplesByLine(detail: FileDetail): readonly SampleRecord[] {
  let sorted = sortedSamples.get(detail);
  if (!sorted) {
    const s = detail.samples;
    let inOrder = true;
    for (let i = 1; i < s.length && inOrder; i++) if (s[i - 1].line > s[i].line) inOrder = false;
    sorted = inOrder ? s : [...s].sort((a, b) => a.line - b.line);
    sortedSamples.set(detail, sorted);
  }
  return sorted;
}

/** The sample on a 1-based line, if the line holds one. */
export function sampleAt(detail: FileDetail, line1: number): SampleRecord | undefined {
  if (detail.store) {
    const row = storeRowOf(detail, line1);
    return row < 0 ? undefined : detail.store.at(row);
  }
  const s = samplesByLine(detail);
  let lo = 0;
  let hi = s.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (s[mid].line === line1) return s[mid];
    if (s[mid].line < line1) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** The drop reason of a store's group from the detail's verdicts; null: kept (or no verdicts). */
export function verdictOf(detail: FileDetail, groupId: number): string | null {
  const k = detail.verdicts?.reasonOf[groupId] ?? 0;
  return k === 0 ? null : detail.verdicts!.reasons[k - 1];
}

/** The last group built from a store's verdicts, per detail: a sample view and its siblings ask for the same group. */
const storeGroups = new WeakMap<FileDetail, { id: number; outcome: GroupOutcome }>();

/**
 * The outcome of a store's group `groupId` (members read from the store, in group order) from
 * the detail's verdicts. One pass over the store's group ids: for one group, not for a listing.
 */
export function storeGroupOutcome(detail: FileDetail, groupId: number): GroupOutcome {
  const cached = storeGroups.get(detail);
  if (cached?.id === groupId) return cached.outcome;
  const store = detail.store!;
  const members: SampleRecord[] = [];
  for (let i = 0; i < store.length; i++) if (store.groupId(i) === groupId) members.push(store.at(i));
  const reason = verdictOf(detail, groupId);
  const outcome: GroupOutcome = {
    key: store.groupKeys.value(groupId) as string,
    lines: inGroupOrder(members).map((s) => s.line),
    kept: reason === null,
    reason,
    metric: reason === null ? null : dropMetricName(reason),
  };
  storeGroups.set(detail, { id: groupId, outcome });
  return outcome;
}

/** The rollout group holding the sample (by key, then by line: a key can repeat across steps). */
export function groupOf(detail: FileDetail, sample: SampleRecord): GroupOutcome | undefined {
  if (sample.groupKey === null) return undefined;
  if (detail.verdicts && detail.store) {
    const row = storeRowOf(detail, sample.line);
    const id = row < 0 ? -1 : detail.store.groupId(row);
    return id < 0 ? undefined : storeGroupOutcome(detail, id);
  }
  let index = groupIndex.get(detail);
  if (!index) {
    index = new Map();
    for (const g of detail.groups) {
      const list = index.get(g.key);
      if (list) list.push(g);
      else index.set(g.key, [g]);
    }
    groupIndex.set(detail, index);
  }
  return index.get(sample.groupKey)?.find((g) => g.lines.includes(sample.line));
}

/** The group's members in group order (lines the detail does not hold are skipped). */
export function membersOf(detail: FileDetail, group: GroupOutcome): SampleRecord[] {
  return group.lines.map((l) => sampleAt(detail, l)).filter((s): s is SampleRecord => s !== undefined);
}

/** The dataset a sample counted in: by name, else the only dataset of the file. */
export function datasetSummaryOf(detail: FileDetail, sample: SampleRecord): DatasetSummary | undefined {
  if (sample.dataset !== null) {
    const named = detail.datasets.find((d) => d.name === sample.dataset);
    if (named) return named;
  }
  return detail.datasets.length === 1 ? detail.datasets[0] : undefined;
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
export function groupVerdict(detail: FileDetail, group: GroupOutcome, settings: CauseSettings): GroupVerdict {
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
