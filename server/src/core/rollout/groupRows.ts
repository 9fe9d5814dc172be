// A file's groups from the store's columns: rows counted and placed by group id, visited in file order.
import type { SampleColumns } from '../store/sampleColumns';
import { rowList } from '../store/sampleList';
import type { SampleGroup } from './groups';

/**
 * Calls `visit` with each group (members in group order, `rows[m]` member m's row in the store) in file
 * order (by the line of the first-written member); returns the rows without a group key. Each
 * group's rows (in group order, `rows[from, to)`) go to `visitRows` first: when it takes the group
 * (true), `visit` is not called for it.
 */
export function eachGroup(
  store: SampleColumns,
  visitRows: (groupId: number, rows: Int32Array, from: number, to: number) => boolean,
  visit: (g: SampleGroup, rows: Int32Array) => void,
): Int32Array {
  const n = store.length;
  const groupCount = store.groupKeys.size;
  const starts = new Int32Array(groupCount + 1);
  const firstLine = new Float64Array(groupCount).fill(Infinity);
  let ungroupedCount = 0;
  for (let i = 0; i < n; i++) {
    const g = store.groupId(i);
    if (g < 0) {
      ungroupedCount++;
      continue;
    }
    starts[g + 1]++;
    const line = store.lineAt(i);
    if (line < firstLine[g]) firstLine[g] = line;
  }
  for (let g = 0; g < groupCount; g++) starts[g + 1] += starts[g];
  const rows = new Int32Array(n - ungroupedCount);
  const ungrouped = new Int32Array(ungroupedCount);
  const fill = starts.slice(0, groupCount);
  let u = 0;
  for (let i = 0; i < n; i++) {
    const g = store.groupId(i);
    if (g < 0) ungrouped[u++] = i;
    else rows[fill[g]++] = i;
  }
  // Group ids are first-appearance ordinals, which is file order when the rows are (a scan's are).
  let order: ArrayLike<number> | null = null;
  for (let g = 1; g < groupCount && order === null; g++) {
    if (firstLine[g] < firstLine[g - 1]) order = Array.from({ length: groupCount }, (_, k) => k).sort((a, b) => firstLine[a] - firstLine[b]);
  }
  for (let k = 0; k < groupCount; k++) {
    const g = order === null ? k : order[k];
    const from = starts[g];
    const to = starts[g + 1];
    toGroupOrder(store, rows, from, to);
    // The group's rows are rows[from, to): passed as a range (no subarray made for each group).
    if (visitRows(g, rows, from, to)) continue;
    const memberRows = rows.subarray(from, to);
    // The rows themselves, not records: a group of a million members (one key for a whole file)
    // holds no object per member, and only the fields the checks read are read.
    visit({ key: store.groupKeys.value(g) as string, members: rowList(store, memberRows) }, memberRows);
  }
  return ungrouped;
}

/**
 * Puts one group's rows `rows[from, to)` (in row order) in group order, as `inGroupOrder` orders
 * its records: by index then line when every member has an index, else by line. Groups are mostly
 * written in that order already; a shuffled or reordered file's are sorted here, by their columns,
 * so they too are decided without records.
 */
function toGroupOrder(store: SampleColumns, rows: Int32Array, from: number, to: number): void {
  // One pass: whether every member has an index, and whether the rows are already in order (the
  // usual case, checked without a comparator made for each group).
  let indexed = true;
  let inIndexOrder = true;
  let inLineOrder = true;
  let lastIndex = 0;
  let lastLine = -1;
  for (let r = from; r < to; r++) {
    const row = rows[r];
    const line = store.lineAt(row);
    if (line < lastLine) inLineOrder = false;
    if (indexed) {
      const index = store.indexAt(row);
      if (index === null) indexed = false;
      else {
        if (r > from && (index < lastIndex || (index === lastIndex && line < lastLine))) inIndexOrder = false;
        lastIndex = index;
      }
    }
    lastLine = line;
  }
  if (indexed ? inIndexOrder : inLineOrder) return;
  const before = indexed
    ? (a: number, b: number) => (store.indexAt(a) as number) - (store.indexAt(b) as number) || store.lineAt(a) - store.lineAt(b)
    : (a: number, b: number) => store.lineAt(a) - store.lineAt(b);
  rows.subarray(from, to).sort(before);
}
