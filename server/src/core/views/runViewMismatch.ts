// The run view's train–inference mismatch (docs/editors.md#train-inference-mismatch): each run's
// steps' |Δ log-prob| over the loss mask as the engine read it from train_data (core/train/), and
// the drift finder's step and message, the same `logprob-drift` finding `check` reports. A few
// numbers per step: the model stays small for a run of thousands of steps.
import type { MismatchStep, RunMismatch } from '../../../../shared/runViewModel';
import { driftFinding, findDrift } from '../train/drift';
import type { TrainStepReport } from '../types';

export type { MismatchStep, RunMismatch };

/** Each root's mismatch over its train_data steps (`TrainStepReport.root`: the run's dump folder). */
export function mismatchByRoot(steps: readonly TrainStepReport[], sourceOf: (file: string) => string = (f) => f): Map<string, RunMismatch> {
  const byRoot = new Map<string, TrainStepReport[]>();
  for (const t of steps) {
    const list = byRoot.get(t.root) ?? [];
    list.push(t);
    byRoot.set(t.root, list);
  }
  const out = new Map<string, RunMismatch>();
  for (const [root, list] of byRoot) {
    list.sort((a, b) => a.step - b.step);
    const rows: MismatchStep[] = [];
    const without: number[] = [];
    for (const t of list) {
      const m = t.mismatch;
      if (m === null) {
        without.push(t.step);
        continue;
      }
      const w = m.worstSamples[0];
      rows.push({
        step: t.step,
        tokens: m.tokens,
        nonFinite: m.nonFinite,
        mean: m.mean,
        p50: m.p50,
        p99: m.p99,
        max: m.max,
        approximate: m.approximate,
        worstSample:
          w === undefined
            ? null
            : { sample: w.sample, mean: w.mean, file: m.rolloutFile, source: m.rolloutFile === null ? null : sourceOf(m.rolloutFile), line: w.line },
      });
    }
    // The engine's drift finder over the same steps (engine.ts `driftFindings`), so the chart marks the step `check` names.
    const d = findDrift(
      list.flatMap((t) =>
        t.mismatch === null
          ? []
          : [{ step: t.step, mean: t.mismatch.mean, tokens: t.mismatch.tokens, buckets: t.buckets, file: t.mismatch.rolloutFile ?? t.files[0] ?? '' }],
      ),
    );
    out.set(root, { steps: rows, stepsWithoutLogProbs: without, drift: d === null ? null : { step: d.step, message: driftFinding(d).message } });
  }
  return out;
}
