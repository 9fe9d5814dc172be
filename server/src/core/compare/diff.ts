// `rollout-lens diff`: what changed between a baseline run and a candidate, from their summaries
// (docs/compare.md#diff). Steps are paired by number (or by position, `--align first|last <n>`),
// eval datasets by name, prompts by identity. Pure: the CLI reads and prints.
import { isAbortedReason, ZERO_STD_REASON_PREFIX } from '../vocabulary/causes';
import { DIFF_VERSION, type CauseDiff, type Place, type RunDiff, type SideInfo, type StepDiff, type Delta } from '../../../../shared/runDiff';
import { diffDatasets } from './diffDatasets';
import { delta } from './delta';
import { diffPrompts } from './diffPrompts';
import { evaluateGate, type GateRules } from './gate';
import type { RunSummary, StepSummary } from './summary';

/** Flipped prompts a diff lists unless told otherwise (all are counted). */
export const DEFAULT_MAX_PROMPTS = 20;

export type Alignment = { mode: 'number' } | { mode: 'first' | 'last'; count: number };

export interface DiffOptions {
  align: Alignment;
  seed: number;
  resamples: number;
  rules: GateRules;
  /** Flipped prompts listed (all are counted). */
  maxPrompts: number;
}

function ratio(n: number, d: number): number | null {
  return d > 0 ? n / d : null;
}

function zeroStdGroups(step: StepSummary): number {
  let n = 0;
  for (const [reason, count] of Object.entries(step.droppedByCause)) if (reason.startsWith(ZERO_STD_REASON_PREFIX)) n += count;
  return n;
}

export type StepPair = [baseline: StepSummary, candidate: StepSummary];

/** Pairs the steps of each kind: by number, or the first/last `count` of each side by position. */
export function pairSteps(
  baseline: RunSummary,
  candidate: RunSummary,
  align: Alignment,
): { pairs: StepPair[]; unpaired: { baseline: number; candidate: number } } {
  const pairs: StepPair[] = [];
  for (const kind of ['rollout', 'eval'] as const) {
    const b = baseline.steps.filter((s) => s.kind === kind && s.step !== null);
    const c = candidate.steps.filter((s) => s.kind === kind && s.step !== null);
    if (align.mode === 'number') {
      const byNumber = new Map(c.map((s) => [s.step, s]));
      for (const s of b) {
        const partner = byNumber.get(s.step);
        if (partner) pairs.push([s, partner]);
      }
    } else {
      const take = (list: StepSummary[]) => (align.mode === 'first' ? list.slice(0, align.count) : list.slice(Math.max(0, list.length - align.count)));
      const bs = take(b);
      const cs = take(c);
      for (let i = 0; i < Math.min(bs.length, cs.length); i++) pairs.push([bs[i], cs[i]]);
    }
  }
  const paired = new Set(pairs.flat());
  return {
    pairs,
    unpaired: { baseline: baseline.steps.filter((s) => !paired.has(s)).length, candidate: candidate.steps.filter((s) => !paired.has(s)).length },
  };
}

function diffStep([b, c]: StepPair): StepDiff {
  const reasons = new Set([...Object.keys(b.droppedByCause), ...Object.keys(c.droppedByCause)]);
  const causes: Record<string, Delta> = {};
  for (const r of [...reasons].sort()) causes[r] = delta(ratio(b.droppedByCause[r] ?? 0, b.groups.total), ratio(c.droppedByCause[r] ?? 0, c.groups.total));
  return {
    kind: b.kind,
    baseline: b.step,
    candidate: c.step,
    groups: delta(b.groups.total, c.groups.total),
    samples: delta(b.samples, c.samples),
    dropRate: delta(ratio(b.groups.dropped, b.groups.total), ratio(c.groups.dropped, c.groups.total)),
    zeroStdShare: delta(ratio(zeroStdGroups(b), b.groups.total), ratio(zeroStdGroups(c), c.groups.total)),
    rewardMean: delta(ratio(b.reward.sum, b.reward.count), ratio(c.reward.sum, c.reward.count)),
    truncatedRatio: delta(ratio(b.truncated, b.withStatus), ratio(c.truncated, c.withStatus)),
    noneRewardRatio: delta(ratio(b.reward.none, b.samples), ratio(c.reward.none, c.samples)),
    causes,
  };
}

/** The first example of `reason` among a step's files (files are in path order). */
function exampleOf(step: StepSummary, reason: string): Place | null {
  for (const f of step.files) {
    const line = f.examples[reason];
    if (line !== undefined) return { file: f.path, line };
  }
  return null;
}

function diffCauses(pairs: readonly StepPair[]): CauseDiff[] {
  const rollout = pairs.filter(([b]) => b.kind === 'rollout');
  let bGroups = 0;
  let cGroups = 0;
  for (const [b, c] of rollout) {
    bGroups += b.groups.total;
    cGroups += c.groups.total;
  }
  const reasons = new Set<string>();
  for (const [b, c] of rollout) for (const r of [...Object.keys(b.droppedByCause), ...Object.keys(c.droppedByCause)]) reasons.add(r);
  const out: CauseDiff[] = [];
  for (const reason of [...reasons].sort()) {
    let bn = 0;
    let cn = 0;
    const evidence: CauseDiff['evidence'] = { baseline: [], candidate: [] };
    for (const [b, c] of rollout) {
      const bs = b.droppedByCause[reason] ?? 0;
      const cs = c.droppedByCause[reason] ?? 0;
      bn += bs;
      cn += cs;
      const side = cs > bs ? exampleOf(c, reason) : bs > cs ? exampleOf(b, reason) : null;
      if (side) (cs > bs ? evidence.candidate : evidence.baseline).push(side);
    }
    if (bn === 0 && cn === 0) continue;
    out.push({
      reason,
      status: bn === 0 ? 'new' : cn === 0 ? 'vanished' : 'both',
      groups: delta(bn, cn),
      ratePoints: delta(bGroups > 0 ? (100 * bn) / bGroups : null, cGroups > 0 ? (100 * cn) / cGroups : null),
      evidence,
    });
  }
  // Aborted causes first (they are the runs' infrastructure and policy), then the rest, by name.
  return out.sort((a, b) => Number(!isAbortedReason(a.reason)) - Number(!isAbortedReason(b.reason)) || (a.reason < b.reason ? -1 : 1));
}

function sideInfo(source: string, summary: RunSummary): SideInfo {
  let samples = 0;
  for (const s of summary.steps) samples += s.samples;
  return { source, framework: summary.framework, steps: summary.steps.length, samples };
}

/** The diff of two runs' summaries and its gate (evaluated always; only `--gate` makes it the exit status). */
export function diffRuns(baseline: { source: string; summary: RunSummary }, candidate: { source: string; summary: RunSummary }, options: DiffOptions): RunDiff {
  const { pairs, unpaired } = pairSteps(baseline.summary, candidate.summary, options.align);
  const steps = pairs.map(diffStep);
  const causes = diffCauses(pairs);
  const datasets = diffDatasets(pairs, options.seed, options.resamples);
  const prompts = diffPrompts(pairs, options.maxPrompts);
  const gate = evaluateGate({ pairs, causes, datasets }, options.rules);
  return {
    version: DIFF_VERSION,
    baseline: sideInfo(baseline.source, baseline.summary),
    candidate: sideInfo(candidate.source, candidate.summary),
    unpaired,
    steps,
    causes,
    datasets,
    prompts,
    gate,
  };
}
