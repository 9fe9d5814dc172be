// A step's figures from its files, and the merge of summaries (docs/compare.md#merging). Every
// figure is derived from the step's files sorted by path, so the same files give the same bits
// however they were split into shards.
import { npMean } from '../eval/numeric';
import { passAtKEstimate, passKValues } from '../eval/passAtK';
import type { StepKind } from '../run/model';
import type { GroupCounts } from '../vocabulary/types';
import { type DatasetStep, type FileSummary, type RewardStats, type RunSummary, type StepMismatch, type StepSummary } from './summary';
import { sortSteps, stepKey, SUMMARY_VERSION } from './summaryFormat';

function byPath(a: FileSummary, b: FileSummary): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** A step's summary from its files (sorted here by path). */
export function stepOfFiles(kind: StepKind, step: number | null, partial: boolean, files: FileSummary[], mismatch?: StepMismatch): StepSummary {
  const sorted = [...files].sort(byPath);
  const groups: GroupCounts = { total: 0, kept: 0, dropped: 0 };
  const droppedByCause: Record<string, number> = {};
  const reward: RewardStats = { count: 0, sum: 0, sumSq: 0, none: 0 };
  let samples = 0;
  let responseTokens = 0;
  let droppedTokens = 0;
  let truncated = 0;
  let withStatus = 0;
  for (const f of sorted) {
    samples += f.samples;
    groups.total += f.groups.total;
    groups.kept += f.groups.kept;
    groups.dropped += f.groups.dropped;
    for (const [reason, n] of Object.entries(f.droppedByCause)) droppedByCause[reason] = (droppedByCause[reason] ?? 0) + n;
    reward.count += f.reward.count;
    reward.sum += f.reward.sum;
    reward.sumSq += f.reward.sumSq;
    reward.none += f.reward.none;
    responseTokens += f.responseTokens;
    droppedTokens += f.droppedTokens;
    truncated += f.truncated;
    withStatus += f.withStatus;
  }
  return {
    kind,
    step,
    partial,
    samples,
    groups,
    droppedByCause: sortedRecord(droppedByCause),
    responseTokens,
    droppedTokens,
    reward,
    truncated,
    withStatus,
    datasets: datasetsOfStep(sorted),
    ...(mismatch ? { mismatch } : {}),
    files: sorted,
  };
}

function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** An eval prompt's counts over a step's files: samples, passes, reward sum. */
export interface PromptCounts {
  samples: number;
  passes: number;
  rewardSum: number;
}

/** A dataset's prompts over a step's files (files in path order), by identity, in first-seen order. */
export function datasetPrompts(files: readonly FileSummary[], name: string): Map<string, PromptCounts & { file: string; line: number }> {
  const out = new Map<string, PromptCounts & { file: string; line: number }>();
  for (const f of files) {
    for (const d of f.datasets) {
      if (d.name !== name) continue;
      for (const [id, samples, passes, rewardSum, line] of d.prompts) {
        const p = out.get(id);
        if (p) {
          p.samples += samples;
          p.passes += passes;
          p.rewardSum += rewardSum;
        } else out.set(id, { samples, passes, rewardSum, file: f.path, line });
      }
    }
  }
  return out;
}

/**
 * pass@k over prompts with at least k samples, each by its own sample count, averaged as numpy
 * does (`np.mean`, as miles); null: no such prompt.
 */
export function passAtKOfPrompts(prompts: readonly PromptCounts[], k: number): number | null {
  const estimates: number[] = [];
  for (const p of prompts) if (p.samples >= k) estimates.push(passAtKEstimate(p.samples, p.passes, k));
  return estimates.length === 0 ? null : npMean(estimates);
}

/** Mean reward (None as 0) over the prompts' samples; null without samples. */
export function scoreOfPrompts(prompts: readonly PromptCounts[]): number | null {
  let reward = 0;
  let samples = 0;
  for (const p of prompts) {
    reward += p.rewardSum;
    samples += p.samples;
  }
  return samples === 0 ? null : reward / samples;
}

function datasetsOfStep(files: readonly FileSummary[]): DatasetStep[] {
  const names: string[] = [];
  const byName = new Map<string, DatasetStep>();
  for (const f of files) {
    for (const d of f.datasets) {
      let step = byName.get(d.name);
      if (!step) {
        step = { name: d.name, n: d.n, samples: 0, noneReward: 0, truncated: 0, score: null, passAtK: {} };
        byName.set(d.name, step);
        names.push(d.name);
      }
      step.n = Math.max(step.n, d.n);
      step.samples += d.samples;
      step.noneReward += d.noneReward;
      step.truncated += d.truncated;
    }
  }
  return names.sort().map((name) => {
    const step = byName.get(name)!;
    const prompts = [...datasetPrompts(files, name).values()];
    step.score = scoreOfPrompts(prompts);
    for (const k of passKValues(step.n)) step.passAtK[`pass@${k}`] = passAtKOfPrompts(prompts, k);
    return step;
  });
}

/** Thrown when summaries cannot be merged (another version, two frameworks, a file in two of them). */
export class MergeError extends Error {}

/** The summary of the union of the summaries' files: exactly the summary of those files read together. */
export function mergeSummaries(summaries: readonly RunSummary[]): RunSummary {
  let framework: RunSummary['framework'] = null;
  const steps = new Map<string, { kind: StepKind; step: number | null; partial: boolean; files: FileSummary[]; mismatch?: StepMismatch }>();
  const seen = new Set<string>();
  for (const summary of summaries) {
    if (summary.version !== SUMMARY_VERSION) throw new MergeError(`summary version ${String(summary.version)} (this build reads ${SUMMARY_VERSION})`);
    if (summary.framework !== null) {
      if (framework !== null && framework !== summary.framework)
        throw new MergeError(`a ${summary.framework} summary and a ${framework} summary (a summary holds one run)`);
      framework = summary.framework;
    }
    for (const s of summary.steps) {
      for (const f of s.files) {
        if (seen.has(f.path)) throw new MergeError(`${f.path} is in two of the summaries (it would count twice)`);
        seen.add(f.path);
      }
      // Unnumbered steps stay one per file, keyed by their first file as when summarised whole.
      const key = stepKey(s.kind, s.step, s.files[0]?.path ?? '');
      let acc = steps.get(key);
      if (!acc) steps.set(key, (acc = { kind: s.kind, step: s.step, partial: false, files: [] }));
      acc.partial ||= s.partial;
      acc.files.push(...s.files);
      if (s.mismatch) {
        // A p99 of parts is not the p99 of the whole: a step's train_data is summarised in one piece.
        if (acc.mismatch) throw new MergeError(`step ${String(s.step)}'s train_data mismatch is in two of the summaries (summarise all its ranks together)`);
        acc.mismatch = s.mismatch;
      }
    }
  }
  return {
    version: SUMMARY_VERSION,
    framework,
    steps: sortSteps([...steps.values()].map((s) => stepOfFiles(s.kind, s.step, s.partial, s.files, s.mismatch))),
  };
}
