// Which rows of a verl dump its metrics count, and what they count (docs/framework-files.md#verl).
import type { SampleList } from '../store/sampleList';
import type { SampleRecord } from '../vocabulary/types';

/**
 * verl v1 writes one row per output of a session; its validation metrics count only the session's
 * last output (its training metrics count every row: verlRollout.ts). Rows of legacy dumps (no
 * session) all count. File order is kept.
 */
export function countedRows(samples: readonly SampleRecord[]): SampleRecord[] {
  if (!samples.some((s) => s.session !== undefined)) return samples.slice();
  const last = new Map<string, SampleRecord>();
  for (const s of samples) {
    if (s.session === undefined) continue;
    const seen = last.get(s.session);
    if (seen === undefined || (s.output ?? 0) >= (seen.output ?? 0)) last.set(s.session, s);
  }
  return samples.filter((s) => s.session === undefined || last.get(s.session) === s);
}

/** Sessions (v1) or rows (legacy) of a group: what counts against `n`. */
export function attemptCount(members: SampleList): number {
  let rows = 0;
  const sessions = new Set<string>();
  for (let k = 0; k < members.length; k++) {
    const session = members.session(k);
    if (session === undefined) rows++;
    else sessions.add(session);
  }
  return rows + sessions.size;
}

/** The column `critic/score/*` are recomputed from. */
export type ScoreSource = 'score' | 'score + overlong_reward' | 'reward';

/**
 * The per-row score verl sums into `critic/score`. With an `overlong_reward` column the reward
 * function returned its own `score` (DAPO): the dumped `score` is that raw score, and the trained
 * one is `score + overlong_reward`. Else the dump's `score` (the token-level sum), else the reward.
 */
export function verlScore(s: SampleRecord): { value: number | null; source: ScoreSource } {
  const score = s.vars?.score;
  if (typeof score !== 'number') return { value: s.reward, source: 'reward' };
  const overlong = s.vars?.overlong_reward;
  return typeof overlong === 'number' ? { value: score + overlong, source: 'score + overlong_reward' } : { value: score, source: 'score' };
}
