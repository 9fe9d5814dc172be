// A step's train_data as every host reads it (docs/semantics.md#train-data-figures): every rank's
// file of the step (core/train/trainStep.ts), joined to the step's rollout dump by
// `sample_indices`, given back as the step the run model holds, the step's findings, and what
// the step gives its metrics log to compare with. `check` (core/engine.ts `addTrainStep`) and the
// editor's run view and run status (server/features/trainData.ts) read a step through here.
import type { FileAccess } from '../seams/fileAccess';
import type { RecomputedMetrics } from '../eval/compareMetrics';
import { FLOAT32_TOLERANCE } from '../eval/compareMetrics';
import type { SampleColumns } from '../store/sampleColumns';
import { rolloutJoin } from '../train/rolloutJoin';
import { analyzeTrainStep, type RolloutJoin, type TrainStepTarget } from '../train/trainStep';
import type { Finding, TrainStepReport } from '../vocabulary/types';

export type { RolloutJoin, TrainStepMismatch } from '../train/trainStep';

/** One step's train_data, read. */
export interface TrainStepRead {
  /** The step as the run model and the reports hold it. */
  step: TrainStepReport;
  /** The step's own findings (train-data-misaligned, unreadable files). */
  findings: Finding[];
  /** What the step gives its metrics log (`train/train_rollout_*`, `rollout/log_probs`, …), float32 figures at their tolerance. */
  recomputed: RecomputedMetrics;
}

/** Reads a step's train_data (every rank's file), joined to its rollout dump when `target.join` is given; `root`: the run's. */
export async function readTrainStep(access: FileAccess, target: TrainStepTarget, root: string): Promise<TrainStepRead> {
  const r = await analyzeTrainStep(access, target);
  const tolerances = Object.fromEntries(r.float32Figures.map((k) => [k, FLOAT32_TOLERANCE]));
  return {
    step: { step: r.step, files: r.files, samples: r.samples, metrics: r.metrics, mismatch: r.mismatch, buckets: r.buckets, root },
    findings: r.findings,
    recomputed: { file: r.files[0] ?? '', step: r.step, metrics: r.metrics, tolerances },
  };
}

/** A miles rollout dump's samples by `Sample.index`, for joining its step's train_data (`readTrainStep`). */
export function joinRolloutDump(file: string, samples: Pick<SampleColumns, 'length' | 'indexAt' | 'lineAt' | 'statusAt'>): RolloutJoin {
  return rolloutJoin(file, samples);
}
