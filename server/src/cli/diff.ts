// `rollout-lens diff <baseline> <candidate>`: reads each side (a summary as it is; a folder or log
// analysed and summarised), diffs them (core/compare/diff.ts), prints text or JSON, and with
// `--gate` exits 1 when a rule fails.
import { dirname, resolve } from 'node:path';
import { statSync, writeFileSync } from 'node:fs';

import type { RunDiff } from '../../../shared/runDiff';
import { diffRuns } from '../core/compare/diff';
import { gateRulesOf, type GateRules } from '../core/compare/gate';
import type { RunSummary } from '../core/compare/summary';
import { findSettingsFile, loadGateSection, SettingsFileError } from '../core/locate/settingsFile';

import { type CheckArgs, UsageError } from './args';
import type { Io } from './check';
import type { DiffArgs } from './compareArgs';
import { diffChartScript, diffHtml } from './diffHtml';
import { renderDiffText } from './diffText';
import { escapeInline } from './escape';
import { cliFileAccess } from './fileAccess';
import { nonce } from './report';
import { isSummaryPath, readSummaryFile, summarizeRun, UnreadableInput } from './summarize';

/** A run's summary: a summary file as it is, a folder or log analysed (with `check`'s options) and summarised. */
export async function sideOf(path: string, check: CheckArgs, io: Io): Promise<RunSummary> {
  if (isSummaryPath(path)) return readSummaryFile(path);
  const made = await summarizeRun({ ...check, paths: [path] }, io);
  if (made?.mixed) throw new UnreadableInput(`${path} holds more than one run; diff compares one run with one run (see above)`);
  if (made === null || made.unreadable) throw new UnreadableInput(`cannot read the run ${path}`);
  return made.summary;
}

/** `gate:` of `--config`, else of the settings file nearest above the candidate, else the defaults. */
async function gateRules(args: DiffArgs): Promise<GateRules> {
  let file = args.check.config;
  if (file === null) {
    let dir = resolve(args.candidate);
    try {
      if (!statSync(dir).isDirectory()) dir = dirname(dir);
    } catch {
      dir = dirname(dir);
    }
    file = await findSettingsFile(dir, cliFileAccess);
  }
  if (file === null) return gateRulesOf(undefined);
  try {
    return gateRulesOf(await loadGateSection(resolve(file), cliFileAccess));
  } catch (err) {
    if (err instanceof SettingsFileError) throw new UsageError(`${file}: ${err.reason}`);
    throw err;
  }
}

/** Writes `--out`'s page; false (said on stderr) when it cannot be written. */
function writePage(out: string, diff: RunDiff, gated: boolean, io: Io, script: () => string): boolean {
  const html = diffHtml(diff, { gated, script: script(), nonce: nonce() });
  try {
    writeFileSync(out, html);
  } catch (err) {
    io.stderr(`rollout-lens: diff: cannot write ${escapeInline(out)}: ${escapeInline((err as Error).message)}\n`);
    return false;
  }
  io.stderr(`wrote ${escapeInline(out)}: ${diff.steps.length} paired steps, gate ${diff.gate.passed ? 'passed' : 'failed'}, ${html.length} bytes\n`);
  return true;
}

/** Exit status: 0 reported (or the gate passed), 1 the gate failed, 2 bad usage, unreadable input or an `--out` not written. */
export async function runDiff(args: DiffArgs, io: Io, script: () => string = diffChartScript): Promise<number> {
  const rules = await gateRules(args);
  let diff: RunDiff;
  try {
    const baseline = await sideOf(args.baseline, args.check, io);
    const candidate = await sideOf(args.candidate, args.check, io);
    diff = diffRuns(
      { source: args.baseline, summary: baseline },
      { source: args.candidate, summary: candidate },
      { align: args.align, seed: args.seed, resamples: args.resamples, rules, maxPrompts: args.maxPrompts },
    );
  } catch (err) {
    if (!(err instanceof UnreadableInput)) throw err;
    io.stderr(`rollout-lens: diff: ${escapeInline(err.message)}\n`);
    return 2;
  }
  io.stdout(args.check.format === 'json' ? `${JSON.stringify(diff, null, 1)}\n` : renderDiffText(diff, args.gate));
  await io.drained?.();
  if (args.out !== null && !writePage(args.out, diff, args.gate, io, script)) return 2;
  return args.gate && !diff.gate.passed ? 1 : 0;
}
