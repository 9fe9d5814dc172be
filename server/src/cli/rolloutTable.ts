// The text report's table of dropped groups by cause for one rollout file: reason, how many
// groups, the metric they count in with per-cause drop reasons, the groups' keys, and the
// counters miles main (31f1ca9) logs them in.
import { FORMERLY_ABORTED, isAbortedReason } from '../core/vocabulary/causes';
import { fileOverview } from '../core/run/fileOverview';
import type { FileReport } from '../core/vocabulary/types';
import { escapeInline } from './escape';

interface Row {
  reason: string;
  metric: string;
  count: number;
  keys: string[];
}

/** Longest text a cell shows; causes come from the log and may be arbitrarily long. */
const MAX_CELL = 72;
const MAX_KEYS = 6;

/** The table, or '' when the file is not a rollout log. Ends without a newline. */
export function renderRolloutTable(file: FileReport): string {
  if (file.kind !== 'rollout') return '';
  const rowsOf = rows(file);
  const { total, kept, dropped } = file.groups;
  const head = `Dropped groups by cause: ${total} groups, ${kept} kept, ${dropped} dropped`;
  if (rowsOf.length === 0) return `${head}\n  (no group dropped)`;

  const withKeys = rowsOf.some((r) => r.keys.length > 0);
  const header = ['groups', 'reason', 'metric', ...(withKeys ? ['group keys'] : [])];
  const cells = rowsOf.map((r) => [
    String(r.count),
    cell(r.reason),
    cell(r.metric),
    ...(withKeys ? [cell(r.keys.slice(0, MAX_KEYS).join(', ') + (r.keys.length > MAX_KEYS ? ', …' : ''))] : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]): string =>
    '  ' +
    c
      .map((text, i) => (i === 0 ? text.padStart(widths[i]) : text.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [head, line(header), ...cells.map(line)];

  const aborted = rowsOf.filter((r) => isAbortedReason(r.reason)).reduce((n, r) => n + r.count, 0);
  if (aborted > 0) {
    out.push(
      `  miles main (31f1ca9) logs one counter for every aborted group, whatever its cause: ${FORMERLY_ABORTED.sync} = ${aborted} (sync),` +
        ` ${FORMERLY_ABORTED.fullyAsync} = ${aborted} (fully async)`,
    );
  }
  return out.join('\n');
}

/**
 * Rows from the file's overview (core/run/fileOverview.ts, the engine's drops by cause), each with
 * the keys of its groups when the file keeps its per-group outcomes.
 */
function rows(file: FileReport): Row[] {
  const keys = new Map<string, string[]>();
  for (const g of file.detail?.groups ?? []) {
    if (g.kept || g.reason === null) continue;
    const list = keys.get(g.reason) ?? [];
    list.push(g.key);
    keys.set(g.reason, list);
  }
  return sortRows(
    fileOverview(file).drops.map((d) => ({
      reason: d.reason,
      metric: d.metric ?? '',
      count: d.groups,
      keys: keys.get(d.reason) ?? [],
    })),
  );
}

function sortRows(rows: Row[]): Row[] {
  const rank = (r: Row): number => (isAbortedReason(r.reason) ? 0 : 1);
  return rows.sort((a, b) => rank(a) - rank(b) || b.count - a.count || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0));
}

/**
 * Log text made safe for a terminal: control characters (ESC sequences could rewrite the screen)
 * and bidirectional overrides (they reorder what is shown) as `\xNN`/`\uNNNN`; cut to MAX_CELL.
 */
export function cell(text: string): string {
  const safe = escapeInline(text);
  return safe.length > MAX_CELL ? `${safe.slice(0, MAX_CELL - 1)}…` : safe;
}
