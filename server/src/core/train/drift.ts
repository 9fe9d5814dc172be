// The drift finder (docs/semantics.md#log-prob-drift): the first step whose train-inference
// mismatch (the mean |Δ log-prob| over its masked tokens) leaves the robust band of the run's early
// steps, and where that step's excess sits. The band is the early steps' median plus
// BAND_MADS scaled MADs (at least BAND_FLOOR of the median, so a run of identical early steps
// still has a band); the excess of a bucket of tokens is Σ(|Δ| − median) over its tokens, and its
// share is that over the step's whole excess, set beside its share of the step's tokens.
import { severityOf } from '../vocabulary/catalog';
import { pyFloatRepr } from '../vocabulary/python';
import type { Finding } from '../vocabulary/types';

/** |Δ| summed over a bucket's tokens, and how many (finite) tokens it has. */
export interface BucketSum {
  sum: number;
  tokens: number;
}

/** A step's tokens by dimension (weight versions, token position, …) and bucket. */
export type BucketTable = Record<string, Record<string, BucketSum>>;

export interface DriftStep {
  step: number;
  /** Mean |Δ| over the step's masked tokens, and their number. */
  mean: number;
  tokens: number;
  buckets: BucketTable;
  /** Where its finding goes: the step's rollout dump, else its first train_data file. */
  file: string;
}

/** Early steps that make the band: a third of the run, at least 3, at most 10. */
export function baselineSize(steps: number): number {
  return Math.min(10, Math.max(3, Math.floor(steps / 3)));
}

/** MADs (scaled by 1.4826, a normal distribution's σ) above the median the band reaches. */
export const BAND_MADS = 4;
/** The band reaches at least this share of the median above it. */
export const BAND_FLOOR = 0.25;

function median(xs: readonly number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

export interface BucketShare {
  dimension: string;
  bucket: string;
  /** Of the step's excess over the band's median. */
  excessShare: number;
  /** Of the step's tokens. */
  tokenShare: number;
}

export interface Drift {
  step: number;
  mean: number;
  baseline: { first: number; last: number; median: number; mad: number; upper: number };
  /** Per dimension, the bucket holding most of the excess; the one most over its token share first. */
  shares: BucketShare[];
  file: string;
}

/** The first step past the band of the early steps, or null (fewer steps than the band needs plus one, or none past it). */
export function findDrift(steps: readonly DriftStep[]): Drift | null {
  const ordered = steps.filter((s) => s.tokens > 0).sort((a, b) => a.step - b.step);
  const b = baselineSize(ordered.length);
  if (ordered.length <= b) return null;
  const early = ordered.slice(0, b).map((s) => s.mean);
  const m = median(early);
  const mad = median(early.map((x) => Math.abs(x - m)));
  const upper = m + Math.max(BAND_MADS * 1.4826 * mad, BAND_FLOOR * m);
  const at = ordered.slice(b).find((s) => s.mean > upper);
  if (at === undefined) return null;
  const excess = (at.mean - m) * at.tokens;
  const shares: BucketShare[] = [];
  for (const [dimension, buckets] of Object.entries(at.buckets)) {
    let best: BucketShare | null = null;
    for (const [bucket, x] of Object.entries(buckets)) {
      const share: BucketShare = { dimension, bucket, excessShare: (x.sum - m * x.tokens) / excess, tokenShare: x.tokens / at.tokens };
      if (best === null || share.excessShare > best.excessShare) best = share;
    }
    if (best !== null) shares.push(best);
  }
  shares.sort((x, y) => y.excessShare - y.tokenShare - (x.excessShare - x.tokenShare));
  return { step: at.step, mean: at.mean, baseline: { first: ordered[0].step, last: ordered[b - 1].step, median: m, mad, upper }, shares, file: at.file };
}

const percent = (x: number) => `${Math.round(x * 100)}%`;

export function driftFinding(d: Drift): Finding {
  const band = d.baseline;
  const where = d.shares.map((s) => `${s.dimension} ${s.bucket}: ${percent(s.excessShare)} (${percent(s.tokenShare)} of its tokens)`).join('; ');
  return {
    code: 'logprob-drift',
    severity: severityOf('logprob-drift'),
    file: d.file,
    line: 1,
    message:
      `step ${d.step}: the train-inference log-prob mismatch (mean |Δ| ${pyFloatRepr(d.mean)} over masked tokens) leaves the band of steps ` +
      `${band.first}–${band.last} (median ${pyFloatRepr(band.median)}, MAD ${pyFloatRepr(band.mad)}: above ${pyFloatRepr(band.upper)}); ` +
      `its excess by bucket: ${where}`,
    group: null,
    dataset: null,
    fix: null,
  };
}
