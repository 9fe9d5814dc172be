// What the run view says about a run in one sentence, and how its drops are coloured and scaled:
// each drop reason's family (who caused the abort, or a zero-std group), each step's drops as a
// share of its groups (so a step that lost 5% shows a bar, not a sliver beside its kept groups),
// and the worst step with its drops counted by family ("step 1: 6 of 8 groups dropped: 2
// infrastructure aborts, 1 policy abort, 1 unknown, 2 zero-std"). The one owner of that sentence:
// the run view page and the report show it as given.
import { UNNAMED_DROPS } from '../run/fileOverview';
import type { ReasonFamily, ReasonInfo, RunSection, StepRow } from '../../../../shared/runViewModel';

/** An aborted group's family is its cause's class (an unclassified or scored cause is `other`); zero-std groups are their own. */
export function reasonFamily(info: Pick<ReasonInfo, 'kind' | 'causeClass'>): ReasonFamily {
  if (info.kind === 'zero-std') return 'zero-std';
  if (info.kind === 'aborted' && (info.causeClass === 'infrastructure' || info.causeClass === 'policy')) return info.causeClass;
  return 'other';
}

/** Each drop reason's groups as a share of the step's groups (0–1); empty for a step without groups. */
export function dropShares(row: Pick<StepRow, 'groups' | 'drops'>): Record<string, number> {
  const out: Record<string, number> = {};
  if (row.groups <= 0) return out;
  for (const [reason, n] of Object.entries(row.drops)) out[reason] = n / row.groups;
  return out;
}

/**
 * The step that lost the largest share of its groups; on a tie the one that lost more groups, then
 * the earlier one. Null when no step dropped a group.
 */
export function worstStep<T extends Pick<StepRow, 'groups' | 'dropped'>>(rows: readonly T[]): T | null {
  let worst: T | null = null;
  for (const row of rows) {
    if (row.dropped <= 0 || row.groups <= 0) continue;
    if (worst === null) {
      worst = row;
      continue;
    }
    const share = row.dropped / row.groups;
    const worstShare = worst.dropped / worst.groups;
    if (share > worstShare || (share === worstShare && row.dropped > worst.dropped)) worst = row;
  }
  return worst;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Why a step dropped its groups, by family: infrastructure aborts, policy aborts, other aborts
 * (a cause neither list names), unknown (an abort that recorded no cause, or a drop no metric
 * names), zero-std, then any other reason by its name.
 */
export function dropsByFamily(drops: Record<string, number>, reasons: ReadonlyMap<string, Pick<ReasonInfo, 'kind' | 'causeClass' | 'cause'>>): string[] {
  const counts = { infrastructure: 0, policy: 0, other: 0, unknown: 0, zeroStd: 0 };
  const named: [string, number][] = [];
  for (const [reason, n] of Object.entries(drops)) {
    if (n <= 0) continue;
    const info = reasons.get(reason);
    if (reason === UNNAMED_DROPS || (info?.kind === 'aborted' && info.cause === 'unknown')) counts.unknown += n;
    else if (info?.kind === 'zero-std') counts.zeroStd += n;
    else if (info?.kind === 'aborted') {
      const family = reasonFamily(info);
      if (family === 'infrastructure' || family === 'policy') counts[family] += n;
      else counts.other += n;
    } else named.push([reason, n]);
  }
  const parts: string[] = [];
  if (counts.infrastructure > 0) parts.push(plural(counts.infrastructure, 'infrastructure abort', 'infrastructure aborts'));
  if (counts.policy > 0) parts.push(plural(counts.policy, 'policy abort', 'policy aborts'));
  if (counts.other > 0) parts.push(plural(counts.other, 'other abort', 'other aborts'));
  if (counts.unknown > 0) parts.push(`${counts.unknown} unknown`);
  if (counts.zeroStd > 0) parts.push(`${counts.zeroStd} zero-std`);
  for (const [reason, n] of named.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) parts.push(`${n} ${reason}`);
  return parts;
}

/** "step 1: 6 of 8 groups dropped: 2 infrastructure aborts, …" of a step (a step without a number is named by its first file). */
export function stepHeadline(row: Pick<StepRow, 'step' | 'files' | 'groups' | 'dropped' | 'drops'>, reasons: ReadonlyMap<string, ReasonInfo>): string {
  const name = row.step === null ? (row.files[0] ?? 'a file') : `step ${row.step}`;
  const why = dropsByFamily(row.drops, reasons);
  return `${name}: ${row.dropped} of ${plural(row.groups, 'group', 'groups')} dropped${why.length > 0 ? `: ${why.join(', ')}` : ''}`;
}

/** Each run's headline (its worst step), and the view's: the worst step over all runs, naming its run when there are several. */
export function headlines(
  runs: RunSection[],
  rows: readonly StepRow[],
  reasons: ReadonlyMap<string, ReasonInfo>,
): { perRun: (string | null)[]; overall: string | null } {
  const perRun = runs.map((_, i) => {
    const worst = worstStep(rows.filter((r) => r.run === i));
    return worst === null ? null : stepHeadline(worst, reasons);
  });
  const worst = worstStep(rows);
  if (worst === null) return { perRun, overall: null };
  const run = runs[worst.run];
  // Several runs: named by framework, and by root too when two runs share a framework.
  const shared = run !== undefined && runs.filter((r) => r.framework === run.framework).length > 1;
  const name = run === undefined ? '' : shared ? `${run.framework} run ${run.root}` : `${run.framework} run`;
  const overall = runs.length > 1 && run ? `${name}, ${stepHeadline(worst, reasons)}` : stepHeadline(worst, reasons);
  return { perRun, overall };
}
