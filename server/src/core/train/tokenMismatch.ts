// The train–inference mismatch of a step, token by token (docs/semantics.md#train-inference-mismatch):
// |trainer log-prob − rollout log-prob| at each response token the loss mask counts (a tool
// output outside the mask would show tens of nats of false mismatch), its distribution over the
// step, each sample's mean, and the worst samples and tokens. The difference is taken in float32,
// as miles' loss takes it. Memory: each token's difference is one float32 up to EXACT_TOKENS
// tokens a step (the quantiles exact, as numpy's percentile gives them), a histogram beyond;
// a sample is a few numbers; the worst are a few short lists.
import type { MismatchFigures } from '../../../../shared/runViewModel';

/** Tokens whose differences are kept for exact quantiles (16 MiB of float32). */
export const EXACT_TOKENS = 1 << 22;
/** How many worst samples and tokens a step reports. */
export const WORST = 5;

const f32 = Math.fround;

export interface WorstSample {
  /** miles' `Sample.index` (the rollout dump's `index`, train_data's `sample_indices`). */
  sample: number;
  /** Mean |Δ| over its masked tokens (a token whose Δ is not finite counts as 0, as in miles' figure). */
  mean: number;
  /** Its tokens in the loss mask. */
  tokens: number;
  max: number;
}

export interface WorstToken {
  sample: number;
  /** Position in the response (0 = its first token). */
  position: number;
  /** The token id. */
  token: number | null;
  rolloutLogProb: number;
  trainLogProb: number;
  absDiff: number;
}

/** A step's figures (shared/runViewModel.ts `MismatchFigures`, what the run view shows) and its worst samples and tokens. */
export interface MismatchSummary extends MismatchFigures {
  worstSamples: WorstSample[];
  worstTokens: WorstToken[];
}

/** Histogram bins per octave once the exact values are given up. */
const PER_OCTAVE = 64;
const LOW_EXPONENT = -40;
const OCTAVES = 60;

class Distribution {
  private values: Float32Array | null = new Float32Array(1024);
  private n = 0;
  private bins: Float64Array | null = null;
  private zeros = 0;
  sum = 0;
  max = 0;

  add(x: number): void {
    this.sum += x;
    if (x > this.max) this.max = x;
    if (this.values !== null) {
      if (this.n === this.values.length) {
        if (this.n >= EXACT_TOKENS) this.toBins();
        else {
          const grown = new Float32Array(this.n * 2);
          grown.set(this.values);
          this.values = grown;
        }
      }
      if (this.values !== null) {
        this.values[this.n++] = x;
        return;
      }
    }
    this.n++;
    this.bin(x);
  }

  private bin(x: number): void {
    if (x === 0) {
      this.zeros++;
      return;
    }
    const b = Math.floor((Math.log2(x) - LOW_EXPONENT) * PER_OCTAVE);
    this.bins![Math.max(0, Math.min(this.bins!.length - 1, b))]++;
  }

  private toBins(): void {
    const values = this.values!;
    this.values = null;
    this.bins = new Float64Array(OCTAVES * PER_OCTAVE);
    for (let i = 0; i < this.n; i++) this.bin(values[i]);
  }

  get count(): number {
    return this.n;
  }

  get approximate(): boolean {
    return this.values === null;
  }

  /** numpy's `percentile(x, q)` (linear interpolation between the closest ranks). */
  quantile(q: number): number {
    if (this.n === 0) return 0;
    if (this.values !== null) {
      const sorted = this.values.subarray(0, this.n).slice().sort();
      const at = (q / 100) * (this.n - 1);
      const lo = Math.floor(at);
      const hi = Math.min(lo + 1, this.n - 1);
      return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
    }
    const rank = (q / 100) * (this.n - 1);
    let seen = this.zeros;
    if (rank < seen) return 0;
    const bins = this.bins!;
    for (let b = 0; b < bins.length; b++) {
      seen += bins[b];
      if (rank < seen) return 2 ** (LOW_EXPONENT + (b + 0.5) / PER_OCTAVE);
    }
    return this.max;
  }
}

export interface SampleState {
  sum: number;
  /** Its tokens in the loss mask. */
  tokens: number;
  /** Those whose |Δ| is finite (the ones `sum` adds). */
  finite: number;
  max: number;
}

/** Where position and length buckets start (tokens): 0–127, 128–511, 512–2047, 2048–8191, ≥ 8192. */
export const LENGTH_EDGES = [128, 512, 2048, 8192];

/** The bucket of a position or length by LENGTH_EDGES. */
export function lengthBucket(n: number): string {
  let i = 0;
  while (i < LENGTH_EDGES.length && n >= LENGTH_EDGES[i]) i++;
  return LENGTH_LABELS[i];
}

// Made once: a label built per token was most of the drift tables' cost (BENCHMARKS.md, "Design measurements").
const LENGTH_LABELS = [...LENGTH_EDGES.map((edge, i) => `${i === 0 ? 0 : LENGTH_EDGES[i - 1]}–${edge - 1}`), `≥${LENGTH_EDGES[LENGTH_EDGES.length - 1]}`];

/** Keeps the `WORST` largest by `worse`, as items arrive. */
function keepWorst<T>(list: T[], item: T, worse: (a: T, b: T) => boolean): void {
  if (list.length === WORST && !worse(item, list[WORST - 1])) return;
  let i = list.length < WORST ? list.length : WORST - 1;
  list[i] = item;
  while (i > 0 && worse(list[i], list[i - 1])) {
    [list[i - 1], list[i]] = [list[i], list[i - 1]];
    i--;
  }
}

const worseToken = (a: WorstToken, b: WorstToken) =>
  a.absDiff > b.absDiff || (a.absDiff === b.absDiff && (a.sample < b.sample || (a.sample === b.sample && a.position < b.position)));
const worseSample = (a: WorstSample, b: WorstSample) => a.mean > b.mean || (a.mean === b.mean && a.sample < b.sample);

/** A step's mismatch, fed one masked token at a time. */
export class MismatchAccumulator {
  private readonly dist = new Distribution();
  private nonFinite = 0;
  private readonly samples = new Map<number, SampleState>();
  private readonly worstTokens: WorstToken[] = [];
  /** |Δ| summed and counted by position bucket (lengthBucket), for the drift finder. */
  readonly byPosition = new Map<string, { sum: number; tokens: number }>();

  /** Counts `tokens` loss-mask tokens of `sample` (its slice on one rank). */
  addMaskedTokens(sample: number, tokens: number): void {
    this.sampleState(sample).tokens += tokens;
  }

  private sampleState(sample: number): SampleState {
    let s = this.samples.get(sample);
    if (s === undefined) this.samples.set(sample, (s = { sum: 0, tokens: 0, finite: 0, max: 0 }));
    return s;
  }

  /** One token the loss mask counts; returns its |Δ| (NaN when not finite). */
  addToken(sample: number, position: number, token: number | null, rollout: number, train: number): number {
    const d = Math.abs(f32(train - rollout));
    if (!Number.isFinite(d)) {
      this.nonFinite++;
      return NaN;
    }
    this.dist.add(d);
    const bucket = lengthBucket(position);
    const b = this.byPosition.get(bucket);
    if (b === undefined) this.byPosition.set(bucket, { sum: d, tokens: 1 });
    else {
      b.sum += d;
      b.tokens++;
    }
    const s = this.sampleState(sample);
    s.sum += d;
    s.finite++;
    if (d > s.max) s.max = d;
    keepWorst(this.worstTokens, { sample, position, token, rolloutLogProb: rollout, trainLogProb: train, absDiff: d }, worseToken);
    return d;
  }

  /** The worst tokens of `sample` still without their token id. */
  pendingTokens(sample: number): WorstToken[] {
    return this.worstTokens.filter((t) => t.sample === sample && t.token === null);
  }

  /** Each sample's |Δ| sum, masked tokens and max, by sample index. */
  sampleStates(): ReadonlyMap<number, SampleState> {
    return this.samples;
  }

  summary(): MismatchSummary {
    const worstSamples: WorstSample[] = [];
    for (const [sample, s] of this.samples) keepWorst(worstSamples, { sample, mean: s.sum / Math.max(s.tokens, 1), tokens: s.tokens, max: s.max }, worseSample);
    const d = this.dist;
    return {
      tokens: d.count,
      nonFinite: this.nonFinite,
      mean: d.count > 0 ? d.sum / d.count : 0,
      p50: d.quantile(50),
      p99: d.quantile(99),
      max: d.max,
      approximate: d.approximate,
      worstSamples,
      worstTokens: this.worstTokens.slice(),
    };
  }
}

/**
 * The two figures miles' policy loss logs per token (backends/training_utils/loss_hub/losses.py,
 * math_utils.py `compute_approx_kl`), in float32: |train − rollout|, and KL(rollout ‖ train) as
 * `low_var_kl`: log-ratio train − rollout with NaN → 0 and ±inf → ±20, clamped to [−20, 20], then
 * exp(r) − 1 − r clamped to [−10, 10]. Either not finite counts as 0 (its nan_to_num).
 */
export function lossFigures(rollout: number, train: number): { absDiff: number; kl: number } {
  return { absDiff: lossAbsDiff(rollout, train), kl: lossKl(rollout, train) };
}

/** lossFigures' `absDiff` alone (no object per token on the hot path). */
export function lossAbsDiff(rollout: number, train: number): number {
  const absDiff = Math.abs(f32(train - rollout));
  return Number.isFinite(absDiff) ? absDiff : 0;
}

/** lossFigures' `kl` alone. */
export function lossKl(rollout: number, train: number): number {
  let r = -f32(rollout - train);
  if (Number.isNaN(r)) r = 0;
  r = Math.min(20, Math.max(-20, r));
  let kl = f32(f32(f32(Math.exp(r)) - 1) - r);
  kl = Math.min(10, Math.max(-10, kl));
  return Number.isFinite(kl) ? kl : 0;
}
