// PLACEHOLDER: replaced by the evaluation analysis (issue 4).
import type { RolloutLensSettings } from '../../../../shared/protocol';
import type { DatasetSummary, FormatId, Finding, SampleRecord } from '../types';

import type { EvalConfig } from './config';

export interface EvalResult {
  datasets: DatasetSummary[];
  metrics: Record<string, number>;
  findings: Finding[];
}

export function analyzeEval(
  file: string,
  format: FormatId,
  samples: readonly SampleRecord[],
  settings: RolloutLensSettings,
  config: EvalConfig | null,
): EvalResult {
  void file; void format; void samples; void settings; void config;
  return { datasets: [], metrics: {}, findings: [] };
}
