// `rollout-lens diff`'s text: the changes first (causes, datasets, flipped prompts), each with the
// `file:line` of an example sample, then the steps, then the gate. Log text (paths, reasons, ids,
// dataset names) is escaped for the terminal.
import type { Delta, IntervalDelta, Place, RunDiff } from '../../../shared/runDiff';

import { escapeInline } from './escape';

function num(x: number | null): string {
  if (x === null) return '–';
  return String(Math.round(x * 1e4) / 1e4);
}

function signed(x: number | null): string {
  if (x === null) return '–';
  const r = Math.round(x * 1e4) / 1e4;
  return r > 0 ? `+${r}` : String(r === 0 ? 0 : r);
}

function change(d: Delta, unit = ''): string {
  return `${num(d.baseline)}${unit} → ${num(d.candidate)}${unit} (${signed(d.delta)})`;
}

function withInterval(d: IntervalDelta): string {
  return `${change(d)}${d.interval ? ` 95% [${num(d.interval[0])}, ${num(d.interval[1])}]` : ''}`;
}

function place(p: Place | null): string {
  return p === null ? '–' : `${escapeInline(p.file)}:${p.line}`;
}

export function renderDiffText(diff: RunDiff, gated: boolean): string {
  const out: string[] = [];
  const side = (s: RunDiff['baseline']) => `${escapeInline(s.source)} (${s.framework ?? 'no run'}, ${s.steps} steps, ${s.samples} samples)`;
  out.push(`baseline:  ${side(diff.baseline)}`, `candidate: ${side(diff.candidate)}`);
  out.push(`paired steps: ${diff.steps.length} (unpaired: ${diff.unpaired.baseline} baseline, ${diff.unpaired.candidate} candidate)`, '');

  out.push('drop causes (groups and rate over the paired rollout steps):');
  if (diff.causes.length === 0) out.push('  none');
  for (const c of diff.causes) {
    const tag = c.status === 'both' ? '' : ` [${c.status}]`;
    out.push(`  ${escapeInline(c.reason)}${tag}: groups ${change(c.groups)}, rate ${change(c.ratePoints, '%')}`);
    for (const p of c.evidence.candidate) out.push(`    candidate ${place(p)}`);
    for (const p of c.evidence.baseline) out.push(`    baseline  ${place(p)}`);
  }
  out.push('');

  out.push('eval datasets:');
  if (diff.datasets.length === 0) out.push('  none');
  for (const d of diff.datasets) {
    out.push(
      `  ${escapeInline(d.name)} (step ${d.baselineStep ?? '?'} → ${d.candidateStep ?? '?'}, ${d.pairedPrompts} prompts in both)${d.shrank ? ' [shrank]' : ''}: samples ${change(d.samples)}, no reward ${change(d.noneReward)}`,
    );
    out.push(`    score ${withInterval(d.score)}`);
    for (const [k, v] of Object.entries(d.passAtK)) out.push(`    ${k} ${withInterval(v)}`);
    out.push(`    baseline ${place(d.evidence.baseline)}, candidate ${place(d.evidence.candidate)}`);
  }
  out.push('');

  const p = diff.prompts;
  const flips = Object.entries(p.flips);
  out.push(`prompts: ${p.paired} paired prompt-steps, ${flips.reduce((n, [, c]) => n + c, 0)} flipped`);
  for (const [what, n] of flips) out.push(`  ${escapeInline(what)}: ${n}`);
  for (const f of p.listed) {
    const where =
      f.dataset === null
        ? `${f.kind} step ${f.baselineStep ?? '?'} → ${f.candidateStep ?? '?'}`
        : `${escapeInline(f.dataset)} step ${f.baselineStep ?? '?'} → ${f.candidateStep ?? '?'}`;
    out.push(`  ${where} ${escapeInline(f.id)}: ${escapeInline(f.from)} → ${escapeInline(f.to)}`);
    out.push(`    baseline ${place(f.baseline)}, candidate ${place(f.candidate)}`);
  }
  if (p.omitted > 0) out.push(`  … ${p.omitted} more (--max-prompts)`);
  out.push('');

  out.push('steps:');
  for (const s of diff.steps) {
    const head = `  ${s.kind} ${s.baseline ?? '?'} → ${s.candidate ?? '?'}: samples ${change(s.samples)}`;
    if (s.kind === 'eval') {
      out.push(`${head}, no reward ${change(s.noneRewardRatio)}`);
      continue;
    }
    out.push(`${head}, groups ${change(s.groups)}`);
    out.push(
      `    drop rate ${change(s.dropRate)}, zero-std share ${change(s.zeroStdShare)}, reward mean ${change(s.rewardMean)}, truncated ${change(s.truncatedRatio)}`,
    );
  }
  out.push('');

  const g = diff.gate;
  out.push(`gate${gated ? '' : ' (not enforced: --gate)'}: ${g.passed ? 'passed' : `failed (${g.failures.length})`}`);
  for (const f of g.failures) {
    out.push(`  [${f.rule}] ${escapeInline(f.message)}`);
    for (const e of f.evidence) out.push(`    ${place(e)}`);
  }
  return `${out.join('\n')}\n`;
}
