// Builders for rollout unit tests: SampleRecords as the reader produces them, so each test states
// only the fields its rule is about.
import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { analyzeRollout } from '../../../server/src/core/rollout/analyze';
import type { FileReport, Finding, SampleRecord } from '../../../server/src/core/vocabulary/types';

export const FILE = 'rollout/step_3.jsonl';

let nextLine = 1;

/** A completed sample, scored 1.0, of group `g` at sample index `index`; line numbers count up. */
export function sample(groupKey: string | null, index: number | null, over: Partial<SampleRecord> = {}): SampleRecord {
  const line = over.line ?? nextLine++;
  return {
    line,
    offset: (line - 1) * 100,
    byteLength: 99,
    groupKey,
    index,
    dataset: null,
    promptKey: groupKey === null ? null : `prompt-${groupKey}`,
    status: 'completed',
    aborted: false,
    reward: 1,
    rewardIsInt: false,
    cause: null,
    responseLength: 10,
    step: 3,
    ...over,
  };
}

/** An aborted sample as miles writes it: reward null, empty response, cause in exit_status. */
export function aborted(groupKey: string, index: number, cause: string | null, over: Partial<SampleRecord> = {}): SampleRecord {
  return sample(groupKey, index, { status: 'aborted', aborted: true, reward: null, responseLength: 0, cause, ...over });
}

/** A group of completed samples with these rewards (ints where `isInt`), indices from `firstIndex`. */
export function group(groupKey: string, rewards: readonly number[], firstIndex = 0, isInt = false): SampleRecord[] {
  return rewards.map((r, i) => sample(groupKey, firstIndex + i, { reward: r, rewardIsInt: isInt }));
}

export function settings(over: Partial<RolloutLensSettings> = {}): RolloutLensSettings {
  return { ...DEFAULT_SETTINGS, ...over };
}

export const ZERO_STD = settings({ dynamicFilter: 'check_reward_nonzero_std' });

/** Renumbers lines 1..n in the given order (the order the file holds them). */
export function inFileOrder(samples: readonly SampleRecord[]): SampleRecord[] {
  return samples.map((s, i) => ({ ...s, line: i + 1, offset: i * 100 }));
}

/** The findings of one code, in line order. */
export function codes(result: { findings: Finding[] }, code: string): Finding[] {
  return result.findings.filter((f) => f.code === code);
}

/** The report of a miles-sample rollout file holding `samples`, as the engine builds it (its detail too, unless `withDetail` is false). */
export function rolloutFileReport(path: string, samples: SampleRecord[], settings: RolloutLensSettings, withDetail = true): FileReport {
  const r = analyzeRollout(path, 'miles-sample', samples, settings);
  return {
    path,
    format: 'miles-sample',
    kind: 'rollout',
    records: samples.length,
    invalidLines: 0,
    groups: r.counts,
    metrics: r.metrics,
    ...(withDetail ? { detail: { samples, groups: r.groups, datasets: [], metricsRecords: [], source: `/abs/${path}` } } : {}),
  };
}
