// PLACEHOLDER contract, filled in by the foundation work (issue 2): reader → format detection →
// normalisation → rollout / eval / metrics analyses → one RunReport.
import type { RolloutLensSettings } from '../../../shared/protocol';
import type { EvalConfig } from './eval/config';
import type { FileAccess } from './fileAccess';
import type { RunReport } from './types';

/** Shape-compatible with LSP's CancellationToken, without importing it. */
export interface Cancellation {
  readonly isCancellationRequested: boolean;
}

export interface AnalyzeOptions {
  access: FileAccess;
  settings: RolloutLensSettings;
  evalConfig?: EvalConfig | null;
  cancellation?: Cancellation;
  /** Called as bytes are read: (file, bytesRead, totalBytes). */
  onProgress?: (file: string, bytesRead: number, totalBytes: number) => void;
  /** Keep per-sample detail (`FileReport.detail`) for editors; the CLI's JSON output omits it. */
  keepDetail?: boolean;
}

export interface AnalyzeTarget {
  /** Path handed to FileAccess. */
  path: string;
  /** Path shown in reports and findings. */
  displayPath: string;
}

export async function analyzeFiles(targets: AnalyzeTarget[], options: AnalyzeOptions): Promise<RunReport> {
  void targets; void options;
  return { version: 1, files: [], findings: [] };
}
