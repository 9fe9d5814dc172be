// miles' trajectory sidecar `D/trajectory/<step>.jsonl` beside its `.pt` `D/rollout_data/<step>.pt`
// (docs/pt.md#the-trajectory-sidecar). The sidecar has no metadata (so no exit_status) and no row
// for a sample aborted before any model call; the `.pt` of the same step holds every sample.
// - With the `.pt` there, the sidecar's verdicts (groups, drop metrics, findings) come from the
//   `.pt`: its findings are shown on the sidecar rows of the same samples (by `index`).
// - Alone, the sidecar never names a cause it cannot see: a group with an aborted row is counted as
//   dropped under miles' plain `group_has_aborted` with the message saying where the cause is, no
//   `abort-cause-unknown` is raised for its rows, and a group with fewer rows than the others gets
//   `trajectory-missing-members` pointing to the `.pt`.
import { dropMetricName } from '../vocabulary/causes';
import { severityOf } from '../vocabulary/catalog';
import type { FileAccess } from '../seams/fileAccess';
import { readLines } from '../reader/lineReader';
import type { Finding, GroupOutcome, MissingMember, SampleRecord } from '../vocabulary/types';

import type { RolloutResult } from './analyze';

const PLAIN_ABORTED = 'group_has_aborted';

/** `D/trajectory/<stem>.jsonl` → `D/rollout_data/<stem>.pt`, or null when not in a `trajectory` folder. */
export function siblingPt(path: string): string | null {
  const m = /^(.*[\\/])?trajectory([\\/])([^\\/]+)\.jsonl$/i.exec(path);
  if (!m) return null;
  return `${m[1] ?? ''}rollout_data${m[2]}${m[3]}.pt`;
}

export async function existingFile(access: FileAccess, path: string | null): Promise<boolean> {
  if (path === null) return false;
  try {
    return (await access.stat(path)).isFile;
  } catch {
    return false;
  }
}

function finding(
  code: 'trajectory-missing-members' | 'trajectory-verdicts-from-pt' | 'partial-step',
  file: string,
  line: number,
  message: string,
  group: string | null,
): Finding {
  return { code, severity: severityOf(code), file, line, message, group, dataset: null, fix: null };
}

/**
 * The sidecar's result when its `.pt` is there: the `.pt`'s groups, metrics and findings, each
 * finding on the sidecar row of the same sample (else on the first row of its group, else line 1),
 * with the `.pt` line as related.
 */
export function verdictsFromPt(
  sidecar: { displayPath: string; samples: readonly SampleRecord[] },
  pt: { displayPath: string; samples: readonly SampleRecord[]; result: RolloutResult },
): RolloutResult {
  const rowOfIndex = new Map<number, number>();
  const firstRowOfGroup = new Map<string, number>();
  for (const s of sidecar.samples) {
    if (s.index !== null && !rowOfIndex.has(s.index)) rowOfIndex.set(s.index, s.line);
    if (s.groupKey !== null && !firstRowOfGroup.has(s.groupKey)) firstRowOfGroup.set(s.groupKey, s.line);
  }
  const ptByLine = new Map<number, SampleRecord>();
  for (const s of pt.samples) ptByLine.set(s.line, s);
  const toRow = (ptLine: number): number | null => {
    const s = ptByLine.get(ptLine);
    if (!s) return null;
    return (s.index !== null ? rowOfIndex.get(s.index) : undefined) ?? (s.groupKey !== null ? firstRowOfGroup.get(s.groupKey) : undefined) ?? null;
  };
  const findings: Finding[] = pt.result.findings.map((f) => ({
    ...f,
    file: sidecar.displayPath,
    line: toRow(f.line) ?? 1,
    related: [{ file: pt.displayPath, line: f.line }, ...(f.related ?? [])],
  }));
  const rows = sidecar.samples.length;
  findings.unshift(
    finding(
      'trajectory-verdicts-from-pt',
      sidecar.displayPath,
      1,
      `verdicts from ${pt.displayPath}: this trajectory dump has no metadata and rows for ${rows} of the step's ${pt.samples.length} samples, so groups, causes and drop metrics are those of the .pt`,
      null,
    ),
  );
  findings.sort((a, b) => a.line - b.line);
  // Members by their own row only: a member the sidecar lacks is missing, not its group's first row again.
  const rowOfSample = (ptLine: number): number | undefined => sidecarRowOf(rowOfIndex, ptByLine.get(ptLine)?.index ?? null);
  const groups: GroupOutcome[] = pt.result.groups.map((g) => {
    const lines: number[] = [];
    const missing: MissingMember[] = [];
    g.lines.forEach((ptLine, position) => {
      const row = rowOfSample(ptLine);
      if (row !== undefined) lines.push(row);
      else missing.push(missingMember(ptByLine.get(ptLine), position, pt.displayPath, ptLine));
    });
    return missing.length > 0 ? { ...g, lines, missing } : { ...g, lines };
  });
  return { groups, counts: pt.result.counts, metrics: { ...pt.result.metrics }, sampleMetrics: { ...pt.result.sampleMetrics }, findings, leftOut: 0 };
}

/**
 * The sidecar row (1-based line) of a `.pt` member, by `rowOfIndex` (`sample_index` → first row with
 * it); undefined: the sidecar lacks the member (miles writes no row for a sample aborted before any
 * model call). The trajectory view's missing members and the `.pt` view's marks both ask it.
 */
export function sidecarRowOf(rowOfIndex: ReadonlyMap<number, number>, index: number | null): number | undefined {
  return index === null ? undefined : rowOfIndex.get(index);
}

/**
 * A sidecar's `sample_index` → its first row (1-based line), from the rows that parse (lines longer
 * than `maxLineBytes` are skipped, as `readTrajectoryRow` skips them).
 */
export async function sidecarRows(access: FileAccess, path: string, maxLineBytes: number): Promise<Map<number, number>> {
  const decoder = new TextDecoder();
  const rows = new Map<number, number>();
  const consider = (bytes: Uint8Array, line: number): void => {
    if (bytes.byteLength > maxLineBytes) return;
    let row: unknown;
    try {
      row = JSON.parse(decoder.decode(bytes));
    } catch {
      return;
    }
    const index = row !== null && typeof row === 'object' && !Array.isArray(row) ? (row as Record<string, unknown>).sample_index : undefined;
    if (typeof index === 'number' && !rows.has(index)) rows.set(index, line);
  };
  const r = await readLines(access, path, { isCancelled: () => false }, (ref) => consider(ref.bytes.subarray(ref.start, ref.end), ref.line));
  if (r.pending !== null) consider(r.pending.bytes, r.pending.line);
  return rows;
}

function missingMember(s: SampleRecord | undefined, position: number, file: string, line: number): MissingMember {
  return {
    position,
    index: s?.index ?? null,
    status: s?.status ?? null,
    aborted: s?.aborted ?? false,
    reward: s?.reward ?? null,
    rewardIsInt: s?.rewardIsInt ?? false,
    cause: s?.cause ?? null,
    file,
    line,
  };
}

/** The sidecar alone: no cause called `unknown` that it cannot see; groups missing rows named. */
export function sidecarAlone(
  file: string,
  samples: readonly SampleRecord[],
  result: RolloutResult,
  nSamplesPerPrompt: number | null,
  ptPath: string | null,
): RolloutResult {
  const where = ptPath ?? 'the .pt of the same step (D/rollout_data/<step>.pt)';
  // Counted under miles main's own plain reason (its metric name exists there), never `_unknown`.
  const plainMetric = dropMetricName(PLAIN_ABORTED);
  const metrics: Record<string, number> = {};
  for (const [name, value] of Object.entries(result.metrics)) {
    const key = name === dropMetricName('group_has_aborted_unknown') ? plainMetric : name;
    metrics[key] = (metrics[key] ?? 0) + value;
  }
  const groups = result.groups.map((g) => (g.kept || g.reason !== 'group_has_aborted_unknown' ? g : { ...g, reason: PLAIN_ABORTED, metric: plainMetric }));
  const members = new Map<string, SampleRecord[]>();
  for (const s of samples) {
    if (s.groupKey === null) continue;
    const list = members.get(s.groupKey) ?? [];
    list.push(s);
    members.set(s.groupKey, list);
  }
  // Full groups have a row for every member, so without the setting the largest group is the size.
  let n = nSamplesPerPrompt;
  if (n === null) for (const list of members.values()) n = Math.max(n ?? 0, list.length);
  const findings: Finding[] = [];
  for (const f of result.findings) {
    if (f.code === 'abort-cause-unknown') continue;
    if (f.code === 'group-dropped' && f.message.startsWith('group dropped: group_has_aborted_unknown')) {
      const list = members.get(f.group ?? '') ?? [];
      const aborted = list.filter((s) => s.aborted).length;
      findings.push({
        ...f,
        message:
          `group dropped: ${PLAIN_ABORTED} — ${aborted} of ${list.length} rows of group ${f.group} aborted, so miles drops the group. ` +
          `Trajectory dumps carry no metadata, so the cause (metadata.exit_status) is not in this file: it is in ${where}, ` +
          `and miles counts the drop in rollout/dynamic_filter/drop_group_has_aborted_<cause> (miles main: ${plainMetric}).`,
      });
      continue;
    }
    findings.push(f);
  }
  if (n !== null) {
    for (const [key, list] of members) {
      if (list.length >= n) continue;
      findings.push(
        finding(
          'trajectory-missing-members',
          file,
          list[0].line,
          `group ${key} has ${list.length} rows where its groups have ${n}: samples aborted before any model call have no trajectory row, so this group may have been dropped (group_has_aborted) though no row here says so; read ${where} for its members and causes`,
          key,
        ),
      );
    }
  }
  findings.sort((a, b) => a.line - b.line);
  return { groups, counts: result.counts, metrics, sampleMetrics: result.sampleMetrics, findings, leftOut: 0 };
}

/**
 * A sidecar read without its `.pt` is a partial step and says so (docs/pt.md#a-dump-folder-is-one-run):
 * it holds rows only for the samples that recorded messages. A rollout sidecar's groups are
 * counted from its rows; an eval sidecar is not analysed at all, since miles computed the step's
 * eval metrics (and would have raised, or grouped, on them) from the `.pt`, never from these rows.
 */
export function partialStepFinding(file: string, kind: 'rollout' | 'eval', rows: number, ptPath: string | null): Finding {
  const where = ptPath ?? 'the .pt of the same step (D/rollout_data/<step>.pt)';
  const what =
    kind === 'eval'
      ? `miles computed this eval step's metrics from ${where}, so no dataset, pass@k or grouping is checked here: check that .pt`
      : `groups and drops here are counted from these rows; the step miles trained on is ${where}`;
  return finding(
    'partial-step',
    file,
    1,
    `partial step: this trajectory dump holds rows only for the ${rows} samples that recorded messages (samples aborted before any model call have none); ${what}`,
    null,
  );
}

/** `D/rollout_data/<stem>.pt` → `D/trajectory/<stem>.jsonl`, or null when not in a `rollout_data` folder. */
export function siblingTrajectory(path: string): string | null {
  const m = /^(.*[\\/])?rollout_data([\\/])([^\\/]+)\.pt$/i.exec(path);
  if (!m) return null;
  return `${m[1] ?? ''}trajectory${m[2]}${m[3]}.jsonl`;
}

/**
 * The sidecar row of sample `index` (its `sample_index`), parsed, with its 1-based line; null when
 * the sidecar has none. Lines longer than `maxLineBytes` are skipped; only a line whose text names
 * that `sample_index` is parsed, and reading stops at the first chunk after it is found.
 */
export async function readTrajectoryRow(
  access: FileAccess,
  path: string,
  index: number,
  maxLineBytes: number,
): Promise<{ line: number; row: Record<string, unknown> } | null> {
  const decoder = new TextDecoder();
  const key = /"sample_index"\s*:\s*(-?\d+)/g;
  let found: { line: number; row: Record<string, unknown> } | null = null;
  const consider = (bytes: Uint8Array, line: number): void => {
    if (found !== null || bytes.byteLength > maxLineBytes) return;
    const text = decoder.decode(bytes);
    let named = false;
    for (const m of text.matchAll(key)) if (Number(m[1]) === index) named = true;
    if (!named) return;
    let row: unknown;
    try {
      row = JSON.parse(text);
    } catch {
      return;
    }
    if (row !== null && typeof row === 'object' && !Array.isArray(row) && (row as Record<string, unknown>).sample_index === index) {
      found = { line, row: row as Record<string, unknown> };
    }
  };
  const r = await readLines(access, path, { isCancelled: () => found !== null }, (ref) => consider(ref.bytes.subarray(ref.start, ref.end), ref.line));
  // A last line without its newline is still a row of a finished dump.
  if (r.pending !== null) consider(r.pending.bytes, r.pending.line);
  return found;
}
