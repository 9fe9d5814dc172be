// The run view's train–inference mismatch (docs/editors.md#train-inference-mismatch): each run's
// steps' |Δ log-prob| over the loss mask as the engine read it from train_data (core/train/), and
// the drift finder's step and message, the same `logprob-drift` finding `check` reports. A few
// numbers per step: the model stays small for a run of thousands of steps.
import type { MismatchStep, RunMismatch, TokenizerNote } from '../../../../shared/runViewModel';
import { driftFinding, findDrift } from '../train/drift';
import type { TrainStepReport } from '../vocabulary/types';

export type { MismatchStep, RunMismatch };

/** What the run's tokenizer search found (core/tokenizer/runTokenizer.ts), its file named as the view names files. */
export interface RunTokenizerFound {
  note: TokenizerNote | null;
  problem: string | null;
}

/**
 * Each root's mismatch over its train_data steps (`TrainStepReport.root`: the run's dump folder),
 * with the worst samples and tokens as the engine found them (their texts already set by
 * core/tokenizer/runTokenizer.ts `withStepTokenTexts`), and where the texts came from by root.
 */
export function mismatchByRoot(
  steps: readonly TrainStepReport[],
  sourceOf: (file: string) => string = (f) => f,
  tokenizers: ReadonlyMap<string, RunTokenizerFound> = new Map(),
): Map<string, RunMismatch> {
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
      const file = m.rolloutFile;
      const place = (sample: number, line: number | null) => ({ sample, file, source: file === null ? null : sourceOf(file), line });
      rows.push({
        step: t.step,
        tokens: m.tokens,
        nonFinite: m.nonFinite,
        mean: m.mean,
        p50: m.p50,
        p99: m.p99,
        max: m.max,
        approximate: m.approximate,
        worstSamples: m.worstSamples.map((w) => ({ ...place(w.sample, w.line), mean: w.mean, tokens: w.tokens, max: w.max })),
        worstTokens: m.worstTokens.map((w) => ({
          ...place(w.sample, w.line),
          position: w.position,
          token: w.token,
          text: w.text ?? null,
          rolloutLogProb: w.rolloutLogProb,
          trainLogProb: w.trainLogProb,
          absDiff: w.absDiff,
        })),
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
    const found = tokenizers.get(root);
    out.set(root, {
      steps: rows,
      stepsWithoutLogProbs: without,
      drift: d === null ? null : { step: d.step, message: driftFinding(d).message },
      tokenizer: found?.note ?? null,
      tokenizerProblem: found?.problem ?? null,
    });
  }
  return out;
}
