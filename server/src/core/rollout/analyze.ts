// PLACEHOLDER: replaced by the rollout analysis (issue 3).
import type { RolloutLensSettings } from '../../../../shared/protocol';
import type { FormatId, Finding, GroupCounts, GroupOutcome, SampleRecord } from '../types';

export interface RolloutResult {
  groups: GroupOutcome[];
  counts: GroupCounts;
  metrics: Record<string, number>;
  findings: Finding[];
}

export function analyzeRollout(
  file: string,
  format: FormatId,
  samples: readonly SampleRecord[],
  settings: RolloutLensSettings,
): RolloutResult {
  void file; void format; void samples; void settings;
  return { groups: [], counts: { total: 0, kept: 0, dropped: 0 }, metrics: {}, findings: [] };
}
