// Lookups in one analysed file's detail (FileDetail): its samples by line, its rollout groups and
// their verdicts, its eval datasets as the analysis split and ordered them. Each lookup by line or
// group goes through an index kept per detail (WeakMap: it goes when the result goes), so a hover
// on a file of a million samples does not copy or scan the detail each time. The inspection
// facade (inspect.ts) builds on these and hands them to the hosts.
import { dropMetricName } from '../vocabulary/causes';
import { minLine, splitsDatasets } from '../eval/analyze';
import { splitDatasets } from '../eval/datasets';
import { groupingOrder } from '../eval/grouping';
import { inGroupOrder } from '../rollout/groups';
import { sampleList, type SampleList } from '../store/sampleList';
import type { SampleStore } from '../store/sampleStore';
import type { DatasetSummary, FileDetail, FileReport, GroupOutcome, SampleRecord } from '../vocabulary/types';

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
export interface EvalPart {
  name: string;
  ordered: SampleList;
}

const evalParts = new WeakMap<FileDetail, EvalPart[]>();

/**
 * An eval file's datasets, split and ordered by the analysis's own rules (`splitDatasets`,
 * `groupingOrder`): a sample without a recorded dataset belongs to the one its index restarts
 * name. Null for files whose datasets are named by their rows (verl).
 */
export function evalPartsOf(report: Pick<FileReport, 'path' | 'format'>, detail: FileDetail): EvalPart[] | null {
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
function storeGroupOutcome(detail: FileDetail, groupId: number): GroupOutcome {
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

/** The samples of a store's rows, in group order (a listing's group, read from rows already found). */
export function groupMembersOfRows(store: Pick<SampleStore, 'at'>, rows: readonly number[]): SampleRecord[] {
  return inGroupOrder(rows.map((r) => store.at(r)));
}
