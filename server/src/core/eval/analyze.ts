// PLACEHOLDER: replaced by the evaluation analysis (issue 4).
import type { RolloutLensSettings } from '../../../../shared/protocol';
import type { DatasetSummary, FormatId, Finding, SampleRecord } from '../types';

/** The parsed miles eval config (spec §3.1), with where each value sits for quick fixes. */
export interface EvalConfig {
  path: string;
  defaults: { nSamplesPerEvalPrompt: number | null };
  datasets: { name: string; nSamplesPerEvalPrompt: number | null; line: number }[];
}

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
