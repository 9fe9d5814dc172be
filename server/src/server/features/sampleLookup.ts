// Finding a sample, its group and its dataset in a file's detail by line number, without copying
// the detail: samples are searched by line, groups indexed by key once per detail (WeakMap, so
// the index goes when the result goes).
import type { DatasetSummary, FileDetail, GroupOutcome, SampleRecord } from '../../core/types';

const sortedSamples = new WeakMap<FileDetail, readonly SampleRecord[]>();
const groupIndex = new WeakMap<FileDetail, Map<string, GroupOutcome[]>>();

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

export function sampleAt(detail: FileDetail, line1: number): SampleRecord | undefined {
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

export function groupOf(detail: FileDetail, sample: SampleRecord): GroupOutcome | undefined {
  if (sample.groupKey === null) return undefined;
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
export function datasetOf(detail: FileDetail, sample: SampleRecord): DatasetSummary | undefined {
  if (sample.dataset !== null) {
    const named = detail.datasets.find((d) => d.name === sample.dataset);
    if (named) return named;
  }
  return detail.datasets.length === 1 ? detail.datasets[0] : undefined;
}

/**
 * The eval prompt group of a sample (docs/semantics.md#eval-grouping): the dataset's samples sorted by `index`, cut into
 * consecutive groups of the dataset's n. Undefined when the sample has no index.
 */
export function evalGroupOf(
  detail: FileDetail,
  sample: SampleRecord,
  dataset: DatasetSummary,
): { index: number; n: number; members: SampleRecord[] } | undefined {
  if (sample.index === null || dataset.n < 1) return undefined;
  const only = detail.datasets.length === 1;
  const inDataset = detail.samples.filter((s) => (only || s.dataset === dataset.name) && s.index !== null);
  inDataset.sort((a, b) => a.index! - b.index! || a.line - b.line);
  const position = inDataset.indexOf(sample);
  if (position < 0) return undefined;
  const index = Math.floor(position / dataset.n);
  return { index, n: dataset.n, members: inDataset.slice(index * dataset.n, index * dataset.n + dataset.n) };
}
