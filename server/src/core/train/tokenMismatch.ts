// The train–inference mismatch of a step, token by token (docs/semantics.md#train-inference-mismatch):
// |trainer log-prob − rollout log-prob| at each response token the loss mask counts (a tool
// output outside the mask would show tens of nats of false mismatch), its distribution over the
// step, each sample's mean, and the worst samples and tokens. The difference is taken in float32,
// as miles' loss takes it. Memory: each token's difference is one float32 up to EXACT_TOKENS
// tokens a step (the quantiles exact, as numpy's percentile gives them), a histogram beyond;
// a sample is a few numbers; the worst are a few short lists.
import type { ResponseRanges } from './cpSlices';
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
  /** Its text from the run's tokenizer, escaped to be visible (core/tokenizer/tokenText.ts); only when the `tokenizer` setting is set. */
  text?: string | null;
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

/**
 * Counts `xs[from]` … `xs[to - 1]` (each |Δ| ≥ 0) into their histogram bins; returns how many are
 * zero (no bin). A function of its own: optimized alone, it is not thrown back to the interpreter
 * when the histogram is first reached, as a loop inside `addAll` was.
 */
function binInto(bins: Float64Array, xs: Float32Array, from: number, to: number): number {
  let zeros = 0;
  for (let i = from; i < to; i++) {
    const x = xs[i];
    if (x === 0) zeros++;
    else bins[Math.max(0, Math.min(bins.length - 1, Math.floor((Math.log2(x) - LOW_EXPONENT) * PER_OCTAVE)))]++;
  }
  return zeros;
}

class Distribution {
  private values: Float32Array | null = new Float32Array(1024);
  private n = 0;
  private bins: Float64Array | null = null;
  private zeros = 0;
  sum = 0;
  max = 0;

  /** The first `count` of `xs`, in order: the sum and max as adding each in turn gives them. */
  addAll(xs: Float32Array, count: number): void {
    let sum = this.sum;
    let max = this.max;
    for (let i = 0; i < count; i++) {
      const x = xs[i];
      sum += x;
      if (x > max) max = x;
    }
    this.sum = sum;
    this.max = max;
    let i = 0;
    while (i < count && this.values !== null) {
      if (this.n === this.values.length) {
        if (this.n >= EXACT_TOKENS) {
          this.toBins();
          break;
        }
        const grown = new Float32Array(this.n * 2);
        grown.set(this.values);
        this.values = grown;
      }
      const take = Math.min(count - i, this.values.length - this.n);
      this.values.set(xs.subarray(i, i + take), this.n);
      this.n += take;
      i += take;
    }
    if (i === count) return;
    this.n += count - i;
    this.zeros += binInto(this.bins!, xs, i, count);
  }

  private toBins(): void {
    const values = this.values!;
    this.values = null;
    this.bins = new Float64Array(OCTAVES * PER_OCTAVE);
    this.zeros += binInto(this.bins, values, 0, this.n);
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

/** A sample's slice as miles' loss sums it: Σ|Δ|·mask, Σ KL·mask, and its tokens in the loss mask. */
export interface SampleLoss {
  absSum: number;
  klSum: number;
  counted: number;
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

/** worseToken of a token not made yet (|Δ| `d` at `position` of `sample`) and `b`. */
const worseThan = (d: number, sample: number, position: number, b: WorstToken) =>
  d > b.absDiff || (d === b.absDiff && (sample < b.sample || (sample === b.sample && position < b.position)));
const worseToken = (a: WorstToken, b: WorstToken) => worseThan(a.absDiff, a.sample, a.position, b);
const worseSample = (a: WorstSample, b: WorstSample) => a.mean > b.mean || (a.mean === b.mean && a.sample < b.sample);

/**
 * Positions [a, b) of a slice (`local` the first one's index in it): where the loss mask counts,
 * lossAbsDiff and lossKl weighted by the mask added to `sums[0]` and `sums[1]`, the token counted in
 * `sums[2]`, and a finite |Δ| kept at `diffs[finite]` with its position and index in `places`.
 * Returns the finite count. Written out, not calling those two: a call per token boxes its numbers.
 */
function lossRun(
  mask: ArrayLike<number>,
  rollout: ArrayLike<number>,
  train: ArrayLike<number>,
  a: number,
  b: number,
  local: number,
  sums: Float64Array,
  diffs: Float32Array,
  places: Int32Array,
  finite: number,
): number {
  let absSum = sums[0];
  let klSum = sums[1];
  let counted = sums[2];
  for (let pos = a; pos < b; pos++, local++) {
    const m = mask[pos];
    if (m === 0) continue;
    const r = rollout[local];
    const t = train[local];
    const d = Math.abs(f32(t - r));
    const isFinite = d - d === 0;
    absSum += (isFinite ? d : 0) * m;
    let ratio = -f32(r - t);
    if (ratio !== ratio) ratio = 0;
    ratio = Math.min(20, Math.max(-20, ratio));
    let kl = f32(f32(f32(Math.exp(ratio)) - 1) - ratio);
    kl = Math.min(10, Math.max(-10, kl));
    klSum += (kl - kl === 0 ? kl : 0) * m;
    counted++;
    if (!isFinite) continue;
    diffs[finite] = d;
    places[2 * finite] = pos;
    places[2 * finite + 1] = local;
    finite++;
  }
  sums[0] = absSum;
  sums[1] = klSum;
  sums[2] = counted;
  return finite;
}

/** A step's mismatch, fed one sample's slice at a time. */
export class MismatchAccumulator {
  private readonly dist = new Distribution();
  /** A sample's finite |Δ| in order, with each one's response position and index in the slice. */
  private diffs = new Float32Array(1024);
  private places = new Int32Array(2048);
  /** lossRun's Σ|Δ|·mask, Σ KL·mask and tokens counted. */
  private readonly sums = new Float64Array(3);
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

  /**
   * One sample's slice (`ranges` of its response positions, cpSlices.ts), token by token where the
   * loss mask counts: each finite |Δ| into the distribution, its position bucket, the sample and
   * the worst tokens (a token where either log-prob is not finite counted apart), and the loss's
   * sums of lossAbsDiff and lossKl weighted by the mask. The hot loop of a step: no object per
   * token but for one that enters the worst.
   */
  addSample(sample: number, ranges: ResponseRanges, mask: ArrayLike<number>, rollout: ArrayLike<number>, train: ArrayLike<number>): SampleLoss {
    let width = 0;
    for (const [a, b] of ranges) width += b - a;
    if (this.diffs.length < width) {
      this.diffs = new Float32Array(width);
      this.places = new Int32Array(2 * width);
    }
    const diffs = this.diffs;
    const places = this.places;
    const sums = this.sums.fill(0);
    let finite = 0;
    let local = 0;
    for (const [a, b] of ranges) {
      finite = lossRun(mask, rollout, train, a, b, local, sums, diffs, places, finite);
      local += b - a;
    }
    const counted = sums[2];
    this.nonFinite += counted - finite;
    if (finite > 0) this.addFinite(sample, rollout, train, finite);
    this.dist.addAll(diffs, finite);
    this.addMaskedTokens(sample, counted);
    return { absSum: sums[0], klSum: sums[1], counted };
  }

  /** The sample's `finite` tokens lossRun kept, in order: their position buckets, the sample's state, the worst. */
  private addFinite(sample: number, rollout: ArrayLike<number>, train: ArrayLike<number>, finite: number): void {
    const diffs = this.diffs;
    const places = this.places;
    const worst = this.worstTokens;
    const state = this.sampleState(sample);
    let sum = state.sum;
    let max = state.max;
    // The position bucket in hand (for positions in [low, high)), its sums kept in locals meanwhile.
    let low = 0;
    let high = -1;
    let bucket: { sum: number; tokens: number } | null = null;
    let bucketSum = 0;
    let bucketTokens = 0;
    for (let j = 0; j < finite; j++) {
      const d = diffs[j];
      const pos = places[2 * j];
      if (pos < low || pos >= high) {
        if (bucket !== null) {
          bucket.sum = bucketSum;
          bucket.tokens = bucketTokens;
        }
        let i = 0;
        while (i < LENGTH_EDGES.length && pos >= LENGTH_EDGES[i]) i++;
        low = i === 0 ? 0 : LENGTH_EDGES[i - 1];
        high = i === LENGTH_EDGES.length ? Infinity : LENGTH_EDGES[i];
        const label = LENGTH_LABELS[i];
        bucket = this.byPosition.get(label) ?? null;
        if (bucket === null) this.byPosition.set(label, (bucket = { sum: 0, tokens: 0 }));
        bucketSum = bucket.sum;
        bucketTokens = bucket.tokens;
      }
      bucketSum += d;
      bucketTokens++;
      sum += d;
      if (d > max) max = d;
      if (worst.length < WORST || worseThan(d, sample, pos, worst[WORST - 1])) {
        const local = places[2 * j + 1];
        keepWorst(worst, { sample, position: pos, token: null, rolloutLogProb: rollout[local], trainLogProb: train[local], absDiff: d }, worseToken);
      }
    }
    bucket!.sum = bucketSum;
    bucket!.tokens = bucketTokens;
    state.sum = sum;
    state.max = max;
    state.finite += finite;
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
