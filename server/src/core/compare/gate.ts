// The diff's gate (docs/compare.md#gate): rules from `gate:` in the run settings file, else their
// defaults. Each failure names its rule and the samples that show it (file and line).
import type { z as Z } from 'zod';

import { zod } from '../lazy/zod';
import type { CauseDiff, DatasetDiff, GateFailure, GateResult, Place } from '../../../../shared/runDiff';
import type { StepPair } from './diff';

export interface GateRules {
  /** A drop reason the baseline never dropped a group for. */
  newDropCause: boolean;
  /** A reason's drop rate over the paired steps up by more than this many percentage points; null: off. */
  dropRateIncrease: number | null;
  /** An eval score lower, with the interval of the difference below 0. */
  scoreRegression: boolean;
  /** A pass@k lower, with the interval of the difference below 0. */
  passAtKRegression: boolean;
  /** An eval dataset with fewer samples, or more without a reward. */
  evalDenominatorShrank: boolean;
  /** More `metric-mismatch` findings about a step than about its baseline step (a logged metric the candidate's samples no longer give). */
  newMetricMismatch: boolean;
  /**
   * A paired step's train–inference mismatch (mean or p99 |Δ log-prob| over the loss mask, from its
   * train_data) above the baseline step's by more than this fraction of it; null: off.
   */
  mismatchIncrease: number | null;
}

export const DEFAULT_GATE_RULES: GateRules = {
  newDropCause: true,
  dropRateIncrease: 2,
  scoreRegression: true,
  passAtKRegression: true,
  evalDenominatorShrank: true,
  newMetricMismatch: true,
  mismatchIncrease: 0.5,
};

/** The `gate:` section of a settings file: any subset of the rules (`dropRateIncrease: false`, `mismatchIncrease: false` turn them off). */
export function gateSectionSchema(z: typeof Z = zod()) {
  return z
    .object({
      newDropCause: z.boolean(),
      dropRateIncrease: z.union([z.number().min(0, 'must be at least 0'), z.literal(false)]),
      scoreRegression: z.boolean(),
      passAtKRegression: z.boolean(),
      evalDenominatorShrank: z.boolean(),
      newMetricMismatch: z.boolean(),
      mismatchIncrease: z.union([z.number().min(0, 'must be at least 0'), z.literal(false)]),
    })
    .partial()
    .strict();
}

export type GateSection = Z.infer<ReturnType<typeof gateSectionSchema>>;

/** The rules a settings file's `gate:` section gives (defaults for the rules it leaves out). */
export function gateRulesOf(section: GateSection | undefined): GateRules {
  const rules = { ...DEFAULT_GATE_RULES };
  if (!section) return rules;
  const { dropRateIncrease, mismatchIncrease, ...switches } = section;
  Object.assign(rules, switches);
  if (dropRateIncrease !== undefined) rules.dropRateIncrease = dropRateIncrease === false ? null : dropRateIncrease;
  if (mismatchIncrease !== undefined) rules.mismatchIncrease = mismatchIncrease === false ? null : mismatchIncrease;
  return rules;
}

function fmt(x: number | null): string {
  return x === null ? 'none' : String(Math.round(x * 1e4) / 1e4);
}

function sidePlaces(...places: (Place | null)[]): Place[] {
  return places.filter((p): p is Place => p !== null);
}

const METRIC_MISMATCH = 'metric-mismatch';

/** A step's `metric-mismatch` findings: how many, and the first of each of its files. */
function mismatchesOf(step: StepPair[number]): { count: number; places: Place[] } {
  let count = 0;
  const places: Place[] = [];
  for (const f of step.files) {
    const seen = f.findings[METRIC_MISMATCH];
    if (!seen) continue;
    count += seen.count;
    if (!places.some((p) => p.file === seen.file && p.line === seen.line)) places.push({ file: seen.file, line: seen.line });
  }
  return { count, places };
}

export function evaluateGate(
  diff: { pairs: readonly StepPair[]; causes: readonly CauseDiff[]; datasets: readonly DatasetDiff[] },
  rules: GateRules,
): GateResult {
  const failures: GateFailure[] = [];
  for (const c of diff.causes) {
    const points = c.ratePoints;
    if (rules.newDropCause && c.status === 'new') {
      failures.push({
        rule: 'new-drop-cause',
        message: `${c.reason}: ${fmt(c.groups.candidate)} group(s) dropped, none in the baseline`,
        evidence: c.evidence.candidate,
      });
    } else if (rules.dropRateIncrease !== null && points.delta !== null && points.delta > rules.dropRateIncrease) {
      failures.push({
        rule: 'drop-rate-increase',
        message: `${c.reason}: drop rate ${fmt(points.baseline)}% → ${fmt(points.candidate)}% (+${fmt(points.delta)} points, more than ${rules.dropRateIncrease})`,
        evidence: c.evidence.candidate,
      });
    }
  }
  for (const d of diff.datasets) {
    const where = `${d.name} (step ${d.baselineStep ?? '?'} → ${d.candidateStep ?? '?'})`;
    const evidence = sidePlaces(d.evidence.candidate, d.evidence.baseline);
    if (rules.evalDenominatorShrank && d.shrank) {
      failures.push({
        rule: 'eval-denominator-shrank',
        message: `${where}: ${fmt(d.samples.baseline)} → ${fmt(d.samples.candidate)} samples, ${fmt(d.noneReward.baseline)} → ${fmt(d.noneReward.candidate)} without a reward`,
        evidence,
      });
    }
    if (rules.scoreRegression && d.score.interval !== null && d.score.interval[1] < 0) {
      failures.push({ rule: 'score-regression', message: `${where}: score ${regression(d.score)}`, evidence });
    }
    if (rules.passAtKRegression) {
      for (const [k, v] of Object.entries(d.passAtK)) {
        if (v.interval !== null && v.interval[1] < 0) failures.push({ rule: 'pass-at-k-regression', message: `${where}: ${k} ${regression(v)}`, evidence });
      }
    }
  }
  if (rules.newMetricMismatch) {
    for (const [b, c] of diff.pairs) {
      const found = mismatchesOf(c);
      const before = mismatchesOf(b).count;
      if (found.count <= before) continue;
      failures.push({
        rule: 'new-metric-mismatch',
        message: `${c.kind} step ${c.step ?? '?'}: ${found.count} ${METRIC_MISMATCH} finding(s), ${before} in baseline step ${b.step ?? '?'}`,
        evidence: found.places,
      });
    }
  }
  if (rules.mismatchIncrease !== null) {
    for (const pair of diff.pairs) {
      const failure = mismatchIncrease(pair, rules.mismatchIncrease);
      if (failure) failures.push(failure);
    }
  }
  return { passed: failures.length === 0, failures };
}

/**
 * The mismatch rule on one pair of steps: the figures (mean, p99) that rose above the baseline's
 * by more than `fraction` of it. A baseline of exactly 0 fails on any rise.
 */
function mismatchIncrease([b, c]: StepPair, fraction: number): GateFailure | null {
  const before = b.mismatch;
  const after = c.mismatch;
  if (!before || !after) return null;
  const risen: string[] = [];
  for (const figure of ['mean', 'p99'] as const) {
    const x = before[figure];
    const y = after[figure];
    if (y - x > fraction * x) risen.push(`${figure} ${fmtSmall(x)} → ${fmtSmall(y)} (×${x === 0 ? '∞' : fmtSmall(y / x)})`);
  }
  if (risen.length === 0) return null;
  const worst = after.worstSample === null ? '' : `; worst sample ${after.worstSample}`;
  return {
    rule: 'mismatch-increase',
    message: `${c.kind} step ${c.step ?? '?'} (baseline step ${b.step ?? '?'}): |Δ log-prob| ${risen.join(', ')}, up by more than ${fraction * 100}%${worst}`,
    evidence: [{ file: after.file, line: 1 }],
  };
}

/** Four significant digits: mismatch figures are often well below 1e-4. */
function fmtSmall(x: number): string {
  return String(Number(x.toPrecision(4)));
}

function regression(v: { baseline: number | null; candidate: number | null; delta: number | null; interval: [number, number] | null }): string {
  const [lo, hi] = v.interval!;
  return `${fmt(v.baseline)} → ${fmt(v.candidate)} (${fmt(v.delta)}; 95% interval [${fmt(lo)}, ${fmt(hi)}] excludes 0)`;
}
