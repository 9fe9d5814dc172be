// Eval datasets of paired steps, by name (docs/compare.md#datasets): score and pass@k (each
// dataset by its own n) with paired bootstrap intervals over the prompts both runs evaluated, and
// whether the denominator shrank (fewer samples, more missing rewards).
import { passAtKEstimate, passKValues } from '../eval/passAtK';
import { pairedBootstrapOf } from './bootstrap';
import type { DatasetDiff, IntervalDelta, Place } from '../../../../shared/runDiff';
import { delta } from './delta';
import type { StepPair } from './diff';
import { datasetPrompts, type PromptCounts } from './summarySteps';
import type { StepSummary } from './summary';

function placeOf(step: StepSummary, name: string): Place | null {
  for (const f of step.files) for (const d of f.datasets) if (d.name === name) return { file: f.path, line: d.line };
  return null;
}

/** The prompts both runs evaluated, in the baseline's order: baseline's, candidate's, … */
function pairedPrompts(b: Map<string, PromptCounts>, c: Map<string, PromptCounts>): PromptCounts[] {
  const out: PromptCounts[] = [];
  for (const [id, bp] of b) {
    const cp = c.get(id);
    if (cp) out.push(bp, cp);
  }
  return out;
}

/** The paired items' figures (`pairedBootstrapOf`), each side's [numerator, denominator] by `item`. */
function figuresOf(paired: readonly PromptCounts[], item: (p: PromptCounts, at: number, out: Float64Array) => void): Float64Array {
  const out = new Float64Array(paired.length * 2);
  for (let j = 0; j < paired.length; j++) item(paired[j], j * 2, out);
  return out;
}

export function diffDatasets(pairs: readonly StepPair[], seed: number, resamples: number): DatasetDiff[] {
  const out: DatasetDiff[] = [];
  for (const [b, c] of pairs) {
    if (b.kind !== 'eval') continue;
    const names = new Set([...b.datasets.map((d) => d.name), ...c.datasets.map((d) => d.name)]);
    for (const name of [...names].sort()) {
      const bd = b.datasets.find((d) => d.name === name);
      const cd = c.datasets.find((d) => d.name === name);
      const bp = datasetPrompts(b.files, name);
      const cp = datasetPrompts(c.files, name);
      const label = `${b.step ?? ''}/${c.step ?? ''}/${name}`;
      const paired = pairedPrompts(bp, cp);
      const scoreFigures = figuresOf(paired, (p, at, out) => {
        out[at] = p.rewardSum;
        out[at + 1] = p.samples;
      });
      const passAtK: Record<string, IntervalDelta> = {};
      // k by each dataset's own n; a k only one side logs is compared where both have it.
      const ks = new Set([...passKValues(bd?.n ?? 0), ...passKValues(cd?.n ?? 0)]);
      for (const k of [...ks].sort((x, y) => x - y)) {
        const key = `pass@${k}`;
        const figures = figuresOf(paired, (p, at, out) => {
          // Fewer samples than k: the item counts on neither side (0 / 0).
          if (p.samples >= k) {
            out[at] = passAtKEstimate(p.samples, p.passes, k);
            out[at + 1] = 1;
          }
        });
        passAtK[key] = {
          ...delta(bd?.passAtK[key] ?? null, cd?.passAtK[key] ?? null),
          interval: pairedBootstrapOf(figures, seed, `${label}/${key}`, resamples),
        };
      }
      const samples = delta(bd?.samples ?? null, cd?.samples ?? null);
      const noneReward = delta(bd?.noneReward ?? null, cd?.noneReward ?? null);
      out.push({
        name,
        baselineStep: b.step,
        candidateStep: c.step,
        n: delta(bd?.n ?? null, cd?.n ?? null),
        samples,
        noneReward,
        truncated: delta(bd?.truncated ?? null, cd?.truncated ?? null),
        shrank: bd !== undefined && ((cd?.samples ?? 0) < bd.samples || (cd !== undefined && cd.noneReward > bd.noneReward)),
        pairedPrompts: paired.length / 2,
        score: { ...delta(bd?.score ?? null, cd?.score ?? null), interval: pairedBootstrapOf(scoreFigures, seed, `${label}/score`, resamples) },
        passAtK,
        evidence: { baseline: placeOf(b, name), candidate: placeOf(c, name) },
      });
    }
  }
  return out;
}
