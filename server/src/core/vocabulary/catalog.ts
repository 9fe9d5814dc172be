// The findings catalog: every code the engine emits, its default severity and a one-line summary.
// `docs/diagnostics.md` documents each code under an anchor of the same name (the diagnostics'
// `codeDescription.href`).
import type { Severity } from './types';

export interface CatalogEntry {
  severity: Severity;
  summary: string;
  /** The finding carries a `Fix` editors offer as a quick fix (and `check --fix` applies). */
  fixable?: true;
}

export const CATALOG = {
  'invalid-json': { severity: 'error', summary: 'A line is not valid JSON (Python NaN/Infinity are accepted).' },
  'invalid-record': { severity: 'warning', summary: 'A record has a field of the wrong type for its format.' },
  'field-shape': { severity: 'warning', summary: 'A field a metric reads has another shape than its writer gives it; the metric is not recomputed.' },
  'truncated-line': { severity: 'information', summary: 'The last line has no end yet (the file may still be written).' },
  'unknown-format': { severity: 'warning', summary: 'No known log format matched the file.' },
  'group-dropped': { severity: 'warning', summary: 'A group was dropped by the aborted-group filter.' },
  'zero-std-group': { severity: 'information', summary: 'A group was dropped by check_reward_nonzero_std.' },
  'filter-crash': {
    severity: 'error',
    summary: 'check_reward_nonzero_std would raise on a group: a null reward (miles main (31f1ca9), slime 624b824), a fanned-out rollout (slime 624b824).',
  },
  'train-data-crash': {
    severity: 'error',
    summary: "miles main (31f1ca9)'s convert_samples_to_train_data would raise on the step's kept samples (GRPO's reward per rollout).",
  },
  'abort-cause-unknown': { severity: 'information', summary: 'An aborted sample records no exit_status.' },
  'infra-failure-scored': { severity: 'warning', summary: 'An infrastructure failure was kept and scored (trained as a policy failure).' },
  'policy-failure-discarded': { severity: 'warning', summary: 'A failure the policy can cause was aborted (hidden from training).' },
  'incomplete-group': { severity: 'warning', summary: 'A group has another size than n_samples_per_prompt.' },
  'compact-rollouts': {
    severity: 'information',
    summary:
      "Rollouts fan out into several samples sharing rollout_id: counted once; miles main (31f1ca9)'s pass@k leaves their groups out, slime 624b824 normalises the step's rewards as one row.",
  },
  misgrouped: { severity: 'warning', summary: 'A group holds different prompts, or a prompt is spread over groups.' },
  'group-size-inferred': { severity: 'information', summary: 'Samples per eval prompt were inferred from the log.' },
  'passk-group-size-mismatch': { severity: 'warning', summary: "pass@k is grouped by the global n, not the dataset's own.", fixable: true },
  'misgrouped-dataset': { severity: 'error', summary: "Prompts repeat m times but the dataset's n is not m.", fixable: true },
  'eval-all-aborted': { severity: 'error', summary: 'Every attempt of a dataset aborted.' },
  'none-reward': { severity: 'warning', summary: 'Attempts without a reward are scored 0.' },
  'denominator-inflation': { severity: 'warning', summary: 'A mean leaves failed attempts out of its denominator.' },
  'verl-score-source': { severity: 'information', summary: 'critic/score/* were recomputed from score + overlong_reward (DAPO).' },
  'verl-padding-rows': { severity: 'information', summary: "verl's batch padding rows are not samples; its metrics leave them out." },
  'verl-not-recomputed': { severity: 'information', summary: 'Metrics verl logs from data its rollout dump does not hold.' },
  'verl-no-data-source': { severity: 'information', summary: 'The verl dump has no data_source: per-source metrics cannot be recomputed.' },
  'metrics-crash': { severity: 'warning', summary: "miles main (31f1ca9)'s metric code would crash on this log." },
  'metric-mismatch': { severity: 'warning', summary: 'A logged metric differs from the recomputed value.' },
  'pt-unsafe-callable': { severity: 'error', summary: 'A .pt pickle names a callable that is not data; it was not run.' },
  'pt-unreadable': { severity: 'error', summary: 'A .pt file could not be read (past this point).' },
  'pt-bad-tensor': { severity: 'error', summary: "A .pt tensor's view does not fit its storage (or overlaps itself)." },
  'train-data-misaligned': {
    severity: 'warning',
    summary: "A train_data rank's samples cannot be joined: lists of other lengths, a slice that is not its cp rank's, or samples not in the step's rollout.",
  },
  'logprob-drift': { severity: 'warning', summary: "A step's train-inference log-prob mismatch leaves the band of the run's early steps." },
  'trajectory-verdicts-from-pt': { severity: 'information', summary: "A trajectory dump's verdicts come from the step's .pt." },
  'partial-step': { severity: 'information', summary: "A trajectory dump read without its step's .pt: only the samples that recorded messages." },
  'trajectory-missing-members': { severity: 'warning', summary: 'A trajectory group has fewer rows than its members; the .pt has them.' },
  'config-unreadable': { severity: 'warning', summary: 'A settings file or eval config the log depends on cannot be used (editor only).' },
  'too-many-problems': { severity: 'information', summary: 'More findings than maxProblems; the rest are summarised.' },
} as const satisfies Record<string, CatalogEntry>;

export type FindingCode = keyof typeof CATALOG;

export function severityOf(code: FindingCode): Severity {
  return CATALOG[code].severity;
}

/** True for the codes whose findings carry a quick fix (any string: diagnostics come back from clients). */
export function isFixable(code: string): boolean {
  return Object.hasOwn(CATALOG, code) && (CATALOG[code as FindingCode] as CatalogEntry).fixable === true;
}
