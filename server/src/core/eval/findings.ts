// Finding texts of the evaluation analysis (each code in docs/diagnostics.md); the tests and the
// README compare them character for character.
import { severityOf } from '../vocabulary/catalog';
import type { FindingCode } from '../vocabulary/catalog';
import { pyFloatRepr } from '../vocabulary/python';
import type { Finding, Fix, Location } from '../vocabulary/types';

export interface FindingAt {
  file: string;
  line: number;
  dataset: string | null;
  group?: string | null;
  fix?: Fix | null;
  related?: Location[];
}

export function makeFinding(code: FindingCode, at: FindingAt, message: string): Finding {
  const f: Finding = {
    code,
    severity: severityOf(code),
    file: at.file,
    line: at.line,
    message,
    group: at.group ?? null,
    dataset: at.dataset,
    fix: at.fix ?? null,
  };
  if (at.related && at.related.length > 0) f.related = at.related;
  return f;
}

/** `pass@1 = 0.5, pass@2 = 0.75` with Python's float repr. */
function listPassAtK(values: Record<string, number>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} = ${pyFloatRepr(v)}`)
    .join(', ');
}

/**
 * passk-group-size-mismatch. miles main (31f1ca9) groups every dataset's pass@k by
 * `--n-samples-per-eval-prompt` (`log_eval_rollout_data`), so the only advice that agrees with the
 * log (and with misgrouped-dataset, which sets the dataset's n to what the log shows) is that flag.
 */
export function passkMismatchMessage(
  ds: string,
  n: number,
  g: number,
  wrong: { crash: string } | { values: Record<string, number>; missing: readonly string[] },
  right: Record<string, number>,
): string {
  const head = `pass@k group-size mismatch: dataset ${ds} has ${n} samples per prompt but pass@k is grouped by ${g}`;
  const rightText = Object.keys(right).length > 0 ? `right: ${listPassAtK(right)}` : `right: no pass@k with ${n} per prompt`;
  let body: string;
  if ('crash' in wrong) body = `miles main (31f1ca9) fails with ${wrong.crash}`;
  else {
    const parts: string[] = [];
    if (Object.keys(wrong.values).length > 0) parts.push(`reports ${listPassAtK(wrong.values)} over wrong groups`);
    if (wrong.missing.length > 0) parts.push(`logs no ${wrong.missing.join(', ')}`);
    body = `miles main (31f1ca9) ${parts.join(' and ')}`;
  }
  return `${head}: ${body} (${rightText}); run miles with --n-samples-per-eval-prompt ${n} (it groups every dataset's pass@k by that flag)`;
}

export function misgroupedRepeatMessage(ds: string, m: number, n: number, crash: string | null): string {
  const tail = crash ? `; miles fails with ${crash}` : '';
  return `dataset ${ds} is misgrouped: prompts repeat ${m} time${m === 1 ? '' : 's'} in a row but n_samples_per_eval_prompt is ${n}, so every pass@k is over wrong groups${tail}; set it to ${m}`;
}

export function misgroupedCountMessage(ds: string, count: number, n: number, crash: string): string {
  return `dataset ${ds} is misgrouped: ${count} samples are not a whole number of groups of ${n}, so miles fails with ${crash}`;
}

export function misgroupedMixedMessage(ds: string, n: number, line: number): string {
  return `dataset ${ds} is misgrouped: the group of ${n} samples starting at line ${line} holds different prompts, so every pass@k is over wrong groups`;
}

export function allAbortedMessage(ds: string, count: number, allAborted: boolean): string {
  const what = allAborted ? `every attempt of dataset ${ds} aborted` : `no attempt of dataset ${ds} has a reward`;
  return `${what} (${count} of ${count}): miles main (31f1ca9) crashes evaluation with TypeError: type NoneType doesn't define __round__ method; the correct result is eval/${ds} = 0.0 with eval/${ds}-none_reward_ratio = 1.0`;
}

/** slime sums eval rewards as they are: a None reward makes `sum` raise. */
export function sumCrashMessage(ds: string, k: number, count: number, error: string, versionOwner: string): string {
  return `${k} of ${count} attempts of dataset ${ds} have no reward: ${versionOwner} eval/${ds} = sum(rewards) / len(rewards) raises ${error}, so nothing of this evaluation is logged (slime logs no none_reward_ratio and does not score a missing reward 0)`;
}

export function noneRewardMessage(ds: string, k: number, count: number): string {
  return `${k} of ${count} attempts of dataset ${ds} have no reward (likely errored/aborted trials); they are scored 0`;
}

export function inferredMessage(ds: string, n: number, why: 'uniform' | 'uneven' | 'no-prompt'): string {
  const reason =
    why === 'uniform'
      ? `every prompt repeats ${n} times in a row`
      : why === 'uneven'
        ? 'prompt runs have different lengths'
        : 'the log records no prompt identity';
  return `n_samples_per_eval_prompt of dataset ${ds} inferred from the log as ${n} (${reason}); set it in the eval config or with --n-samples-per-eval-prompt`;
}

/**
 * An eval dataset whose attempts fan out into several samples sharing rollout_id (compact / sub-agent
 * rollouts, docs/framework-files.md#compact-rollouts): what the framework's eval path (miles main
 * (31f1ca9)'s, slime 624b824's: the same) logs for them, and pass@k by attempts (`byRollouts`; null: no whole groups of n attempts).
 */
export function compactEvalMessage(
  ds: string,
  versionOwner: string,
  s: { fannedOut: number; rollouts: number; samples: number; n: number; crash: string | null; byRollouts: Record<string, number> | null },
): string {
  const head =
    `${s.fannedOut} of ${s.rollouts} attempts of dataset ${ds} fan out into several samples that share rollout_id (compact / sub-agent rollouts):` +
    ` ${versionOwner} eval path logs every sample, so eval/${ds} and its ratios are over ${s.samples} samples`;
  const pass = s.crash
    ? `, and its pass@k, over chunks of ${s.n} samples in index order, raises ${s.crash}, so nothing of this evaluation is logged`
    : s.n > 1
      ? `, and its pass@k is over chunks of ${s.n} samples in index order, which are not a prompt's ${s.n} attempts`
      : '';
  const by =
    s.n <= 1
      ? ''
      : s.byRollouts === null
        ? `; the ${s.rollouts} attempts are not a whole number of groups of ${s.n}, so there is no pass@k by attempts either`
        : `; pass@k by attempts (one reward each, its first sample's): ${listPassAtK(s.byRollouts)}`;
  return `${head}${pass}${by}.`;
}
