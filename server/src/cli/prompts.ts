// `rollout-lens prompts <run|summary>`: each rollout prompt's history across the run's steps
// (core/compare/promptHistory.ts, from the run's summary), as text with the `file:line` of a
// sample of each group, or as JSON (docs/compare.md#prompt-history). Log text (ids, paths,
// reasons) is escaped for the terminal.
import { type PromptHistory, promptsReport, type PromptsReport, type StepPlace } from '../core/compare/promptHistory';
import type { PromptExample } from '../../../shared/runViewModel';

import type { Io } from './check';
import type { PromptsArgs } from './compareArgs';
import { sideOf } from './diff';
import { escapeInline } from './escape';
import { UnreadableInput } from './summarize';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function stepText(step: number | null): string {
  return step === null ? '?' : String(step);
}

function place(p: { file: string; line: number }): string {
  return `${escapeInline(p.file)}:${p.line}`;
}

function share(part: number, whole: number): string {
  return whole > 0 ? ` (${Math.round((1000 * part) / whole) / 10}%)` : '';
}

function exampleLines(title: string, list: PromptExample[], tokens: string): string[] {
  return list.map((e) => `  ${title} ${escapeInline(e.id)}: ${plural(e.groups, 'group')}, ${e.tokens} ${tokens}, step ${stepText(e.step)} ${place(e)}`);
}

function solvedAt(p: StepPlace | null): string {
  return p === null ? 'never solved' : `first solved at step ${stepText(p.step)} ${place(p)}`;
}

function historyLines(h: PromptHistory): string[] {
  const out = [
    `prompt ${escapeInline(h.id)}: ${plural(h.groups.length, 'group')}, ${solvedAt(h.firstSolved)}, ${plural(h.regressions.length, 'regression')}, ` +
      `${plural(h.stepsDropped, 'step')} dropped, ${h.wastedTokens} of ${h.tokens} response tokens without gradient`,
  ];
  for (const g of h.groups) out.push(`  step ${stepText(g.step)}: ${escapeInline(g.state)}, ${g.passes}/${g.samples} passed, ${g.tokens} tokens  ${place(g)}`);
  for (const r of h.regressions)
    out.push(`  regression: solved at step ${stepText(r.solvedStep)}, unsolved at step ${stepText(r.unsolved.step)}  ${place(r.unsolved)}`);
  return out;
}

function renderPromptsText(report: PromptsReport): string {
  const l = report.learning;
  const out = [
    `${escapeInline(report.source)} (${report.framework ?? 'no run'}): ${plural(report.rolloutSteps, 'rollout step')}, ${plural(l.prompts, 'prompt')} in ${plural(l.groups, 'group')}`,
    `never learned: ${plural(l.neverLearned.count, 'prompt')}${share(l.neverLearned.count, l.prompts)}, ${l.neverLearned.tokens} response tokens`,
    ...exampleLines('never learned', l.neverLearned.examples, 'tokens'),
    `solved and still sampled: ${plural(l.solvedStillSampled.count, 'prompt')}, ${plural(l.solvedStillSampled.groups, 'later group')}, ${l.solvedStillSampled.tokens} response tokens after solved`,
    ...exampleLines('still sampled', l.solvedStillSampled.examples, 'tokens after solved'),
    `no gradient: ${l.waste.tokens} of ${l.waste.totalTokens} response tokens${share(l.waste.tokens, l.waste.totalTokens)} in ${plural(l.waste.groups, 'dropped group')}`,
    ...exampleLines('no gradient', l.waste.examples, 'tokens without gradient'),
    '',
  ];
  for (const h of report.prompts) out.push(...historyLines(h));
  return `${out.join('\n')}\n`;
}

export async function runPrompts(args: PromptsArgs, io: Io): Promise<number> {
  let report: PromptsReport | null;
  try {
    report = promptsReport(await sideOf(args.run, args.check, io), args.run, args.prompt);
  } catch (err) {
    if (!(err instanceof UnreadableInput)) throw err;
    io.stderr(`rollout-lens: prompts: ${escapeInline(err.message)}\n`);
    return 2;
  }
  if (report === null) {
    io.stderr(`rollout-lens: prompts: no rollout prompt ${escapeInline(JSON.stringify(args.prompt))} in ${escapeInline(args.run)}\n`);
    return 2;
  }
  io.stdout(args.check.format === 'json' ? `${JSON.stringify(report, null, 1)}\n` : renderPromptsText(report));
  await io.drained?.();
  return 0;
}
