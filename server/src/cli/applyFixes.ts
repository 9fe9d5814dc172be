// `rollout-lens check --fix`: applies the findings' `set-n-samples-per-eval-prompt` fixes to the
// eval config files they name, one minimal edit per value (comments and layout kept). Without a
// config file there is nothing to edit: the fix says which flag to set.
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fixEvalConfigText } from '../core/evalConfigFile';
import type { Finding, SetNSamplesFix } from '../core/vocabulary/types';

export interface AppliedFix {
  file: string | null;
  description: string;
  /** True when the file on disk was changed by this fix. */
  changed?: boolean;
  /** Why the fix could not be applied (unreadable or invalid config). */
  error?: string;
}

/** When two fixes disagree about one dataset, the observed repetition (an error) wins. */
const PRIORITY: Record<string, number> = { 'misgrouped-dataset': 0, 'passk-group-size-mismatch': 1 };

/** Applies the findings' fixes to the eval config files they name; returns what was done. */
export async function applyFixes(findings: readonly Finding[], options: { cwd?: string } = {}): Promise<AppliedFix[]> {
  const chosen = chooseFixes(findings);
  const out: AppliedFix[] = [];
  const byFile = new Map<string, SetNSamplesFix[]>();
  for (const fix of chosen.fixes) {
    if (chosen.passk.has(fix)) {
      out.push({ file: null, description: passkAdvice(fix) });
      continue;
    }
    if (fix.configFile === null) {
      out.push({ file: null, description: flagAdvice(fix) });
      continue;
    }
    const list = byFile.get(fix.configFile);
    if (list) list.push(fix);
    else byFile.set(fix.configFile, [fix]);
  }
  for (const [file, fixes] of byFile) out.push(...(await applyToFile(file, fixes, options.cwd ?? process.cwd())));
  return out;
}

/** One fix per (config file, dataset): the highest-priority finding's, first seen. */
function chooseFixes(findings: readonly Finding[]): { fixes: SetNSamplesFix[]; passk: Set<SetNSamplesFix> } {
  const ranked = findings
    .map((f, i) => ({ f, i }))
    .filter(({ f }) => f.fix?.kind === 'set-n-samples-per-eval-prompt')
    .sort((a, b) => (PRIORITY[a.f.code] ?? 9) - (PRIORITY[b.f.code] ?? 9) || a.i - b.i);
  const seen = new Set<string>();
  const datasets = new Set<string>();
  const fixes: SetNSamplesFix[] = [];
  const passk = new Set<SetNSamplesFix>();
  for (const { f } of ranked) {
    const fix = f.fix!;
    const isPassk = f.code === 'passk-group-size-mismatch';
    // pass@k advice names no config: after a config fix of its dataset, the next check decides it.
    const key = isPassk ? `\u0000${fix.dataset}` : `${fix.configFile ?? ''}\u0000${fix.dataset}`;
    if (seen.has(key) || (isPassk && datasets.has(fix.dataset))) continue;
    seen.add(key);
    datasets.add(fix.dataset);
    fixes.push(fix);
    if (isPassk) passk.add(fix);
  }
  return { fixes, passk };
}

/**
 * pass@k grouped by the global n is how miles main (31f1ca9) computes it, not a fault of the
 * config: the log checked was made with the dataset's own n (else it is misgrouped, whose fix sets
 * the dataset's n to what the log shows). The fix names that n for the flag; no file is edited.
 */
function passkAdvice(fix: SetNSamplesFix): string {
  return `not applied to dataset ${fix.dataset}: miles main (31f1ca9) groups every dataset's pass@k by --n-samples-per-eval-prompt; run it with --n-samples-per-eval-prompt ${fix.value}, the n its eval config sets for it (no file to edit)`;
}

function flagAdvice(fix: SetNSamplesFix): string {
  return (
    `no eval config to edit for dataset ${fix.dataset}: run with --n-samples-per-eval-prompt ${fix.value}` +
    ` (or give an eval config with n_samples_per_eval_prompt: ${fix.value} for ${fix.dataset} via --eval-config)`
  );
}

async function applyToFile(file: string, fixes: SetNSamplesFix[], cwd: string): Promise<AppliedFix[]> {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    return fixes.map((f) => ({
      file,
      description: `not applied: set n_samples_per_eval_prompt of ${f.dataset} to ${f.value}`,
      error: `cannot read ${file}: ${(e as Error).message}`,
    }));
  }
  const done: AppliedFix[] = [];
  let current = text;
  for (const fix of fixes) {
    try {
      const r = fixEvalConfigText(current, file, fix);
      const changed = r.text !== current;
      current = r.text;
      const what =
        r.action === 'replaced'
          ? `set n_samples_per_eval_prompt of dataset ${fix.dataset} to ${fix.value} (was ${r.previous ?? 'unset'})`
          : r.action === 'added-key'
            ? `added n_samples_per_eval_prompt: ${fix.value} to dataset ${fix.dataset}`
            : `added dataset ${fix.dataset} with n_samples_per_eval_prompt: ${fix.value}`;
      done.push({ file, description: changed ? what : `dataset ${fix.dataset} already has n_samples_per_eval_prompt: ${fix.value}`, changed });
    } catch (e) {
      done.push({ file, description: `not applied: set n_samples_per_eval_prompt of ${fix.dataset} to ${fix.value}`, error: (e as Error).message });
    }
  }
  if (current !== text) await writeFile(path, current, 'utf8');
  return done;
}
