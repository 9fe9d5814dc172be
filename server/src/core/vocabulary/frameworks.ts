// Which framework wrote a file, and the rules of that framework the analyses re-run. One table: the
// filters (rollout/filters.ts, plainGroups.ts), the rollout and eval analyses and the per-sample
// metric code (eval/milesMetrics.ts, eval/datasetMetrics.ts) read their thresholds, filters and
// metric names from here (docs/semantics.md#frameworks). Each row names the version it was read from.
import type { FormatId } from './types';

/** The frameworks whose files the engine reads. */
export type Framework = 'miles' | 'slime' | 'verl';

/** The rules of a framework that writes miles-style `Sample.to_dict()` dumps (miles and its upstream slime). */
export interface SampleFrameworkRules {
  framework: 'miles' | 'slime';
  /** The version the rules were read from, as messages name it. */
  version: string;
  /** Possessives for messages: the framework's ("miles'") and its version's ("miles main (31f1ca9)'s"). */
  owner: string;
  versionOwner: string;
  /** `check_reward_nonzero_std` keeps a group iff the unbiased std of its rewards is greater than this. */
  zeroStdThreshold: number;
  /**
   * `check_no_aborted` drops a group with an aborted member before any dynamic filter (miles). Without
   * it (slime) an aborted sample stays in its group: in the dump, the zero-std filter and the metrics.
   */
  abortedGroupFilter: boolean;
  /**
   * Eval: miles logs `eval/<ds>-none_reward_ratio` and scores a None reward 0; slime sums the rewards
   * as they are, so a None reward makes `sum` raise (nothing of the step is logged).
   */
  evalNoneRewardRatio: boolean;
  /** `zero_std/all_zero_percentage`, `zero_std/all_one_percentage` are logged. */
  zeroStdPercentages: boolean;
  /** `weight_version/{mean,median,max,min,mixed_version_ratio}` are logged. */
  weightVersionMetrics: boolean;
  /**
   * `--log-passrate` logs `passrate/pass@k` from the step's samples (miles' `log_rollout_data`).
   * slime logs it from the trainer's batch (`log_passrate` over `raw_reward`), which no dump holds.
   */
  rolloutPassrateFromSamples: boolean;
  /**
   * Compact / sub-agent rollouts (docs/framework-files.md#compact-rollouts): samples sharing a
   * `rollout_id` are one rollout, counted once against n and given one reward in GRPO's baseline
   * (miles' `train_data_conversion`). Not checked against slime's code: slime's files are counted by sample.
   */
  compactRollouts: boolean;
}

export const MILES_RULES: SampleFrameworkRules = {
  framework: 'miles',
  version: 'miles main (31f1ca9)',
  owner: "miles'",
  versionOwner: "miles main (31f1ca9)'s",
  zeroStdThreshold: 1e-8,
  abortedGroupFilter: true,
  evalNoneRewardRatio: true,
  zeroStdPercentages: true,
  weightVersionMetrics: true,
  rolloutPassrateFromSamples: true,
  compactRollouts: true,
};

const SLIME_RULES: SampleFrameworkRules = {
  framework: 'slime',
  version: 'slime 624b824',
  owner: "slime's",
  versionOwner: "slime 624b824's",
  zeroStdThreshold: 1e-6,
  abortedGroupFilter: false,
  evalNoneRewardRatio: false,
  zeroStdPercentages: false,
  weightVersionMetrics: false,
  rolloutPassrateFromSamples: false,
  compactRollouts: false,
};

/** The framework that writes a format; null for `generic` and `unknown` (the user's mapping, nothing matched). */
export function frameworkOfFormat(format: FormatId): Framework | null {
  if (format.startsWith('miles-')) return 'miles';
  if (format.startsWith('slime-')) return 'slime';
  if (format.startsWith('verl-')) return 'verl';
  return null;
}

/** Formats read from a torch.save dump (its samples are numbered, not lines; docs/pt.md). */
export function isPtFormat(format: FormatId): boolean {
  return format === 'miles-pt' || format === 'slime-pt';
}

/** Formats holding whole `Sample.to_dict()` records, whose per-sample metrics are recomputed. */
export function isSampleDump(format: FormatId): boolean {
  return format === 'miles-sample' || format === 'miles-pt' || format === 'slime-sample' || format === 'slime-pt';
}

/**
 * The filter and metric rules a format's samples are judged by: slime's for slime's files, miles'
 * for every other format the filters run on (trajectories, eval trials, generic mappings).
 */
export function sampleRulesOf(format: FormatId): SampleFrameworkRules {
  return frameworkOfFormat(format) === 'slime' ? SLIME_RULES : MILES_RULES;
}
