// Logged vs recomputed (docs/semantics.md#logged-vs-recomputed): every metric the engine recomputed for a step is compared with
// the value a metrics log (miles dashboard `metrics.jsonl`) holds for that step.
import { pyFloatRepr } from '../vocabulary/python';
import type { Finding, MetricsRecord } from '../vocabulary/types';
import { fileStep } from '../vocabulary/logFiles';
import type { EvalResult } from './analyze';
import { makeFinding } from './findings';
import { relativeDifference } from './numeric';
import type { EmptyRowRanges, FigureRange } from './verlEmptyRows';

/** miles computes its metrics in float64. */
const MILES_TOLERANCE = 1e-9;
/** verl means are float32 (torch): `0.6842105388641357` is logged for 13/19. */
const VERL_TOLERANCE = 1e-6;

const VERL_PREFIXES = ['critic/', 'response/', 'response_length', 'prompt_length/', 'val-core/', 'val-aux/'];

export interface RecomputedMetrics {
  /** The log the values were recomputed from (as shown in reports). */
  file: string;
  step: number | null;
  metrics: Record<string, number>;
  /** pass@k over the global-n grouping (older miles), by metric name; see `EvalResult.wrongMetrics`. */
  wrongMetrics?: EvalResult['wrongMetrics'];
  /** Figures the file gives as a range (verl's empty outputs, eval/verlEmptyRows.ts): a logged value in it agrees. */
  ranges?: EmptyRowRanges;
  /** Tolerances of figures the framework computes in float32 (train_data's tensors), by name. */
  tolerances?: Record<string, number>;
}

/** Relative tolerance of a figure miles reduces from float32 tensors (train_data, docs/semantics.md#train-data-figures). */
export const FLOAT32_TOLERANCE = 1e-5;

/**
 * Whether `train/…` figures of a step can be compared: miles logs them at `train/step`, which is
 * the rollout id only when each rollout trains in one optimizer step, i.e. when the log's
 * `train/step` records have exactly the numbers of its `rollout/step` records.
 */
function trainStepsAreRollouts(records: readonly MetricsRecord[]): boolean {
  const train = new Set<number>();
  const rollout = new Set<number>();
  for (const r of records) {
    if (r.step === null) continue;
    if (r.stepKey === 'train/step') train.add(r.step);
    else if (r.stepKey === 'rollout/step') rollout.add(r.step);
  }
  return train.size > 0 && train.size === rollout.size && [...train].every((s) => rollout.has(s));
}

/** Tolerance for a metric name: verl's float32 metrics 1e-6, everything else 1e-9 (relative). */
export function toleranceFor(name: string): number {
  return VERL_PREFIXES.some((p) => name.startsWith(p)) ? VERL_TOLERANCE : MILES_TOLERANCE;
}

/** What to hand `compareMetrics` for an analysed eval file. */
export function recomputedOfEval(file: string, result: EvalResult): RecomputedMetrics {
  return { file, step: result.step, metrics: result.metrics, wrongMetrics: result.wrongMetrics };
}

export function compareMetrics(metricsFile: string, records: readonly MetricsRecord[], recomputed: readonly RecomputedMetrics[]): Finding[] {
  const findings: Finding[] = [];
  const byStep = new Map<number, RecomputedMetrics[]>();
  for (const r of recomputed) {
    // A file whose records carry no step may still name it (`eval_100.jsonl`).
    const step = r.step ?? fileStep(r.file, []);
    if (step === null) continue;
    const list = byStep.get(step);
    if (list) list.push(r);
    else byStep.set(step, [r]);
  }
  let trainComparable: boolean | null = null;
  for (const record of records) {
    if (record.step === null) continue;
    for (const r of byStep.get(record.step) ?? []) {
      for (const [name, value] of Object.entries(r.metrics)) {
        if (!Object.prototype.hasOwnProperty.call(record.metrics, name)) continue;
        if (name.startsWith('train/') && !(trainComparable ??= trainStepsAreRollouts(records))) continue;
        const logged = record.metrics[name];
        const tolerance = r.tolerances?.[name] ?? toleranceFor(name);
        if (relativeDifference(logged, value) <= tolerance || inRange(logged, r.ranges?.[name], tolerance)) continue;
        findings.push(
          makeFinding(
            'metric-mismatch',
            {
              file: metricsFile,
              line: record.line,
              dataset: datasetOfMetric(name),
              related: [{ file: r.file, line: 1 }],
            },
            mismatchMessage(name, record.step, logged, value, r),
          ),
        );
      }
    }
  }
  return findings;
}

/** Whether `logged` is in `range`, or within `tolerance` (relative) of one of its ends. */
function inRange(logged: number, range: FigureRange | undefined, tolerance: number): boolean {
  if (range === undefined) return false;
  if (logged >= range.least && logged <= range.most) return true;
  return relativeDifference(logged, range.least) <= tolerance || relativeDifference(logged, range.most) <= tolerance;
}

function mismatchMessage(name: string, step: number, logged: number, value: number, r: RecomputedMetrics): string {
  let text = `${name} at step ${step}: logged ${pyFloatRepr(logged)}, recomputed ${pyFloatRepr(value)} from ${r.file}`;
  const wrong = r.wrongMetrics?.[name];
  if (wrong && relativeDifference(logged, wrong.value) <= toleranceFor(name)) {
    text += `; the logged value is pass@k grouped by the global n_samples_per_eval_prompt (${wrong.groupSize}), not the dataset's own (${wrong.ownGroupSize})`;
  }
  return text;
}

/** `eval/aime-pass@2`, `eval/aime/response_len/mean` → `aime`; `val-core/gsm8k/reward/mean@4` → `gsm8k`; else null. */
function datasetOfMetric(name: string): string | null {
  const evalMatch =
    /^eval\/(.+?)(-none_reward_ratio|-truncated_ratio|-pass@\d+|\/(?:response_len|zero_std|weight_version)\/[^/]+|\/(?:repetition_frac|truncated_ratio|prefix_cache_hit_rate|avg_cached_tokens_per_sample))?$/.exec(
      name,
    );
  if (evalMatch) return evalMatch[1];
  const val = /^val-(?:core|aux)\/([^/]+)\//.exec(name);
  return val ? val[1] : null;
}
