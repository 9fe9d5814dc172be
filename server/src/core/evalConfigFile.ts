// An eval config file as the hosts read and fix it: `check --eval-config` and the editor read one
// (core/eval/config.ts), `check --fix` and the editor's quick fix set a dataset's
// `n_samples_per_eval_prompt` in its text (core/eval/fixConfig.ts), keeping the rest of it as written.
// Which config applies to a log is core/locate/evalConfig.ts's decision.
import { loadEvalConfig, type EvalConfig } from './eval/config';
import { applyNSamplesFix, type ConfigFixResult } from './eval/fixConfig';
import type { FileAccess } from './seams/fileAccess';

export type { EvalConfig } from './eval/config';

/** The eval config at `path`, parsed; `EvalConfigError` when it cannot be read or is not one. */
export function readEvalConfig(path: string, access: FileAccess): Promise<EvalConfig> {
  return loadEvalConfig(path, access);
}

/** `text` with `fix.dataset`'s `n_samples_per_eval_prompt` set to `fix.value` (added when missing), and the one edit that does it. */
export function fixEvalConfigText(text: string, path: string, fix: { dataset: string; value: number }): ConfigFixResult {
  return applyNSamplesFix(text, path, fix);
}
