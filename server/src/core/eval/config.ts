// PLACEHOLDER: the miles eval config loader (issue 4; the eval engineer replaces this).
import type { FileAccess } from '../fileAccess';

/** The parsed miles eval config (spec §3.1), with where each value sits for quick fixes. */
export interface EvalConfig {
  path: string;
  defaults: { nSamplesPerEvalPrompt: number | null };
  /** In config order (index-restart matching relies on it). */
  datasets: { name: string; nSamplesPerEvalPrompt: number | null; line: number }[];
}

/** Reads and parses an eval config (YAML or JSON). Throws an Error with a readable message. */
export async function loadEvalConfig(path: string, access: FileAccess): Promise<EvalConfig> {
  void access;
  return { path, defaults: { nSamplesPerEvalPrompt: null }, datasets: [] };
}
