// A step's training batch: all ranks' `train_data/<rollout_id>_<rank>.pt` of one step
// (docs/framework-files.md#train-data), read rank by rank, a window of samples at a time (reader/pt/storageBatch.ts), never whole. A rank
// that repeats another's samples and context-parallel slice (a tensor- or pipeline-parallel peer)
// is read once: the one holding the most fields. Each sample's slices are joined to the rollout
// dump by `sample_indices`. Out come what miles logs from the batch (loggedFigures.ts) and the
// mismatch per token and per sample (tokenMismatch.ts).
import { severityOf } from '../vocabulary/catalog';
import type { FileAccess } from '../seams/fileAccess';
import { StorageBatch } from '../reader/pt/storageBatch';
import { StorageReader } from '../reader/pt/tensorValues';
import { TensorPlaceholder, textOf } from '../reader/pt/values';
import type { Finding } from '../vocabulary/types';

import { rangesWidth, type ResponseRanges, responseRanges } from './cpSlices';
import { RolloutFigures, SAMPLE_MEAN_KEYS, TrainFigures, UNLOGGED_KEYS } from './loggedFigures';
import type { BucketTable } from './drift';
import { lengthBucket, MismatchAccumulator, type MismatchSummary, type WorstSample, type WorstToken } from './tokenMismatch';
import { itemsOf, numberOf, numbersIn, numbersOf, readTrainFile, tensorsOf, type TrainRankFile } from './trainFile';

/** The rollout dump a step's samples are joined to: each `Sample.index`'s line (1-based). */
export interface RolloutJoin {
  file: string;
  lineOf: (sampleIndex: number) => number | null;
  /** The sample's status in the dump (`completed`, `truncated`, …). */
  statusOf?: (sampleIndex: number) => string | null;
}

export interface TrainStepTarget {
  step: number;
  /** The step's train_data files, every rank. */
  files: readonly { path: string; displayPath: string }[];
  join: RolloutJoin | null;
}

export interface TrainStepMismatch extends MismatchSummary {
  worstSamples: (WorstSample & { line: number | null })[];
  /** Each with its sample's line in the rollout dump, as the worst samples (the views link to it). */
  worstTokens: (WorstToken & { line: number | null })[];
  /** The rollout dump the lines are in, when it is in the run. */
  rolloutFile: string | null;
}

export interface TrainStepResult {
  step: number;
  files: string[];
  /** Distinct samples of the batch. */
  samples: number;
  /** `rollout/<key>` and `train/train_rollout_*`, as miles names them. */
  metrics: Record<string, number>;
  /** Null when the batch holds no trainer log-probs (`log_probs`) beside the rollout's. */
  mismatch: TrainStepMismatch | null;
  /** The figures miles reduces from float32 tensors. */
  float32Figures: string[];
  /** The step's |Δ| by weight versions, their lag, token position, response length and status (drift.ts). */
  buckets: BucketTable;
  findings: Finding[];
}

function finding(code: 'train-data-misaligned' | 'pt-unreadable' | 'pt-bad-tensor' | 'pt-unsafe-callable', file: string, message: string): Finding {
  return { code, severity: severityOf(code), file, line: 1, message, group: null, dataset: null, fix: null };
}

/** The number of fields and the (cp rank, samples) a rank file holds: peers repeat both. */
function replicaKey(f: TrainRankFile): string {
  const indices = itemsOf(f.data.get('sample_indices')) ?? [];
  return `${f.cpRank}\u0000${indices.map((x) => String(numberOf(x))).join(',')}`;
}

export async function analyzeTrainStep(access: FileAccess, target: TrainStepTarget): Promise<TrainStepResult> {
  const findings: Finding[] = [];
  const chosen = new Map<string, TrainRankFile>();
  for (const t of target.files) {
    const f = await readTrainFile(access, t);
    for (const p of f.problems) {
      if (p.kind === 'blocked') findings.push(finding('pt-unsafe-callable', t.displayPath, p.message));
      else if (p.kind === 'tensor') findings.push(finding('pt-bad-tensor', t.displayPath, p.message));
      else findings.push(finding('pt-unreadable', t.displayPath, `cannot read this .pt file further: ${p.message}; nothing in it was run`));
    }
    if (f.problems.some((p) => p.kind !== 'tensor') || f.data.size === 0) continue;
    const key = replicaKey(f);
    const held = chosen.get(key);
    if (held === undefined || f.data.size > held.data.size) chosen.set(key, f);
  }
  const ranks = [...chosen.values()].sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
  const step = new StepReader(access, target, findings, ranks);
  for (const f of ranks) await step.readRank(f);
  return step.result();
}

// The per-token sums, each its own small function: optimized soon and alone, they add no
// boxed number per element, as loops inside readRows (an async function, compiled late) did.

/** `start` plus every element of `x`, added in order. */
function sumFrom(start: number, x: ArrayLike<number>): number {
  let sum = start;
  for (let k = 0; k < x.length; k++) sum += x[k];
  return sum;
}

/** Σ x[local]·mask[position] over the slice's positions, in order (cpSlices.ts forEachPosition). */
function maskedSum(x: ArrayLike<number>, mask: ArrayLike<number>, ranges: ResponseRanges): number {
  let sum = 0;
  let local = 0;
  for (const [a, b] of ranges) for (let pos = a; pos < b; pos++) sum += x[local++] * mask[pos];
  return sum;
}

class StepReader {
  private readonly rollout = new RolloutFigures();
  private readonly train = new TrainFigures();
  private readonly mismatch = new MismatchAccumulator();
  private readonly samples = new Set<number>();
  private readonly rolloutIds = new Set<number>();
  private numRollouts: number | null = null;
  private sawTrainLogProbs = false;
  private readonly weightVersions = new Map<number, string[]>();
  private readonly responseLengths = new Map<number, number>();
  /** Figures reduced from float32 tensors (compared with the log at float32's tolerance). */
  private readonly float32 = new Set<string>(['train/train_rollout_logprob_abs_diff', 'train/train_rollout_kl']);

  constructor(
    private readonly access: FileAccess,
    private readonly target: TrainStepTarget,
    private readonly findings: Finding[],
    private readonly ranks: readonly TrainRankFile[],
  ) {}

  private misaligned(file: string, message: string): void {
    this.findings.push(finding('train-data-misaligned', file, message));
  }

  async readRank(f: TrainRankFile): Promise<void> {
    const data = f.data;
    const indices = numbersOf(data.get('sample_indices'));
    const responseLengths = numbersOf(data.get('response_lengths'));
    // Total lengths place a context-parallel slice; without context parallelism none is needed.
    const totalLengths = numbersOf(data.get('total_lengths')) ?? (f.cpSize > 1 ? null : responseLengths);
    const masks = itemsOf(data.get('loss_masks'));
    if (indices === null || responseLengths === null || totalLengths === null || masks === null) {
      this.misaligned(
        f.displayPath,
        'this train_data holds no sample_indices, response_lengths, total_lengths or loss_masks list: its samples cannot be joined to the rollout',
      );
      return;
    }
    const rows = indices.length;
    if (responseLengths.length !== rows || totalLengths.length !== rows || masks.length !== rows) {
      this.misaligned(
        f.displayPath,
        `sample_indices lists ${rows} samples but response_lengths ${responseLengths.length}, total_lengths ${totalLengths.length}, loss_masks ${masks.length}`,
      );
      return;
    }
    const size = (await this.access.stat(f.path)).size;
    const file = await this.access.open(f.path);
    try {
      const batch = new StorageBatch(file, size, f.records, f.littleEndian);
      await this.readRows(f, batch, new StorageReader(file, size, f.records, f.littleEndian), indices, responseLengths, totalLengths, masks);
    } finally {
      await file.close();
    }
  }

  private async readRows(
    f: TrainRankFile,
    batch: StorageBatch,
    reader: StorageReader,
    indices: number[],
    responseLengths: number[],
    totalLengths: number[],
    masks: readonly unknown[],
  ): Promise<void> {
    const data = f.data;
    const rows = indices.length;
    // What the batch did not read (StorageReader's: null when it cannot be read).
    const values = async (v: unknown): Promise<Float64Array | null> => {
      if (v instanceof TensorPlaceholder) {
        if (v.view === null || (await reader.locate(v.view.record)) !== null) return null;
        return reader.readNumbers(v);
      }
      const n = numbersOf(v);
      return n === null ? null : Float64Array.from(n);
    };
    const tensorKeys: [string, TensorPlaceholder[]][] = [];
    for (const [key, v] of data) {
      const t = tensorsOf(v);
      if (t !== null && !UNLOGGED_KEYS.has(key) && t.length === rows) tensorKeys.push([key, t]);
    }
    const denominators = data.get('rollout_mask_sums') === undefined ? null : await values(data.get('rollout_mask_sums'));
    const maxSeqLens = numbersOf(data.get('max_seq_lens'));
    const tokens = itemsOf(data.get('tokens'));
    const versions = itemsOf(data.get('weight_versions'));
    for (const id of numbersOf(data.get('rollout_ids')) ?? []) this.rolloutIds.add(id);
    const numRollouts = numbersOf(data.get('num_rollouts'));
    if (numRollouts !== null && this.numRollouts === null) this.numRollouts = numRollouts.reduce((a, b) => a + b, 0);
    const partial = new Map<string, number>();
    const plain = new Map<string, { sum: number; n: number }>();
    const misalignedKeys = new Set<string>();
    const hasTrain = tensorKeys.some(([k]) => k === 'log_probs') && tensorKeys.some(([k]) => k === 'rollout_log_probs');
    this.sawTrainLogProbs ||= hasTrain;
    const join = this.target.join;
    const absent: number[] = [];
    // The tokens are not among a row's tensors: no figure needs them (a worst token's id is read alone).
    const rowTensors = (i: number): unknown[] => [masks[i], ...tensorKeys.map(([, list]) => list[i])];
    for (let from = 0; from < rows;) {
      const to = await batch.load(from, rows, rowTensors);
      for (let i = from; i < to; i++) {
        const sample = indices[i];
        this.samples.add(sample);
        this.responseLengths.set(sample, responseLengths[i]);
        if (join !== null && join.lineOf(sample) === null) absent.push(sample);
        const versionList = versions?.[i] === undefined ? null : itemsOf(versions[i]);
        if (versionList !== null && !this.weightVersions.has(sample))
          this.weightVersions.set(
            sample,
            versionList.map((x) => textOf(x) ?? String(numberOf(x))),
          );
        const mask = batch.numbers(masks[i]) ?? (await values(masks[i]));
        if (mask === null || mask.length !== responseLengths[i]) {
          this.misaligned(f.displayPath, `sample ${sample}: its loss mask has ${mask?.length ?? 'no'} values for a response of ${responseLengths[i]} tokens`);
          continue;
        }
        const ranges = responseRanges(totalLengths[i], responseLengths[i], f.cpRank, f.cpSize, f.qkvFormat, maxSeqLens?.[i] ?? null);
        const width = rangesWidth(ranges);
        const maskSum = sumFrom(0, mask);
        const denominator = Math.max(denominators?.[i] ?? maskSum, 1);
        let train: ArrayLike<number> | undefined;
        let rollout: ArrayLike<number> | undefined;
        for (const [key, list] of tensorKeys) {
          const x = batch.numbers(list[i]) ?? (await values(list[i]));
          if (x === null) continue;
          if (!SAMPLE_MEAN_KEYS.has(key)) {
            const p = plain.get(key) ?? { sum: 0, n: 0 };
            p.sum = sumFrom(p.sum, x);
            p.n += x.length;
            plain.set(key, p);
            continue;
          }
          if (x.length !== width) {
            if (!misalignedKeys.has(key))
              this.misaligned(
                f.displayPath,
                `sample ${sample}: ${key} has ${x.length} values where cp rank ${f.cpRank} of ${f.cpSize} holds ${width} of its ${responseLengths[i]} response tokens`,
              );
            misalignedKeys.add(key);
            continue;
          }
          partial.set(key, (partial.get(key) ?? 0) + maskedSum(x, mask, ranges) / denominator);
          if (key === 'log_probs') train = x;
          else if (key === 'rollout_log_probs') rollout = x;
        }
        if (train === undefined || rollout === undefined) continue;
        const loss = this.mismatch.addSample(sample, ranges, mask, rollout, train);
        this.train.add(loss.absSum, loss.klSum, denominator);
        if (tokens?.[i] !== undefined && this.mismatch.pendingTokens(sample).length > 0) await this.fillTokenIds(sample, responseLengths[i], tokens[i], values);
      }
      from = to;
    }
    this.addRankPairs(f, rows, tensorKeys, partial, plain);
    if (absent.length > 0 && join !== null)
      this.misaligned(
        f.displayPath,
        `${absent.length} of its ${rows} samples (sample_indices ${absent.slice(0, 3).join(', ')}${absent.length > 3 ? ', …' : ''}) are not in ${join.file}: this train_data is not that rollout's`,
      );
  }

  /** The token ids of this sample's worst tokens, once they are among the step's worst. */
  private async fillTokenIds(sample: number, responseLength: number, tokens: unknown, values: (v: unknown) => Promise<Float64Array | null>): Promise<void> {
    const pending = this.mismatch.pendingTokens(sample);
    if (pending.length === 0 || tokens === undefined) return;
    // The whole sequence, prompt first: the response is its last tokens.
    const ids = await values(tokens);
    if (ids === null) return;
    for (const t of pending) t.token = ids[ids.length - responseLength + t.position] ?? null;
  }

  /** This rank's `(sum, count)` pairs, in its rollout_data's order, as log_rollout_data makes them. */
  private addRankPairs(
    f: TrainRankFile,
    rows: number,
    tensorKeys: readonly [string, TensorPlaceholder[]][],
    partial: ReadonlyMap<string, number>,
    plain: ReadonlyMap<string, { sum: number; n: number }>,
  ): void {
    const numRollouts = numbersOf(f.data.get('num_rollouts'));
    const dpSize = Math.max(1, Math.round(this.ranks.length / Math.max(f.cpSize, 1)));
    const count = numRollouts === null ? rows : numRollouts.reduce((a, b) => a + b, 0) / dpSize;
    const tensorKeyNames = new Set(tensorKeys.map(([k]) => k));
    for (const [key, v] of f.data) {
      if (UNLOGGED_KEYS.has(key)) continue;
      if (tensorKeyNames.has(key)) {
        this.float32.add(`rollout/${key}`);
        if (SAMPLE_MEAN_KEYS.has(key)) {
          if (partial.has(key)) this.rollout.add(key, f.cpSize * partial.get(key)!, count);
        } else {
          const p = plain.get(key);
          if (p !== undefined && p.n > 0) this.rollout.add(key, (p.sum / p.n) * f.cpSize * rows, rows);
        }
        continue;
      }
      if (v instanceof TensorPlaceholder) continue;
      const items = itemsOf(v);
      if (items === null || items.length === 0) continue;
      const flat = items.every((x) => itemsOf(x) !== null) ? items.flatMap((x) => itemsOf(x)!) : items;
      const nums = flat.length > 0 ? numbersIn(flat) : null;
      if (nums === null || nums.length === 0) continue;
      let sum = 0;
      for (const x of nums) sum += x;
      this.rollout.add(key, sum, nums.length);
    }
  }

  result(): TrainStepResult {
    const rollouts = this.numRollouts ?? (this.rolloutIds.size > 0 ? this.rolloutIds.size : this.samples.size);
    const metrics = { ...this.rollout.figures(), ...(this.sawTrainLogProbs ? this.train.figures(rollouts) : {}) };
    let mismatch: TrainStepMismatch | null = null;
    if (this.sawTrainLogProbs) {
      const s = this.mismatch.summary();
      const join = this.target.join;
      const line = (sample: number) => join?.lineOf(sample) ?? null;
      mismatch = {
        ...s,
        worstSamples: s.worstSamples.map((w) => ({ ...w, line: line(w.sample) })),
        worstTokens: s.worstTokens.map((t) => ({ ...t, line: line(t.sample) })),
        rolloutFile: join?.file ?? null,
      };
    }
    return {
      step: this.target.step,
      files: this.target.files.map((f) => f.displayPath),
      samples: this.samples.size,
      metrics,
      mismatch,
      float32Figures: Object.keys(metrics).filter((k) => this.float32.has(k)),
      buckets: this.buckets(),
      findings: this.findings,
    };
  }

  /** |Δ| sums and token counts by bucket: per token for positions, per sample for the rest. */
  private buckets(): BucketTable {
    const table: BucketTable = { 'token position': Object.fromEntries(this.mismatch.byPosition) };
    const add = (dimension: string, bucket: string, sum: number, tokens: number) => {
      const d = (table[dimension] ??= {});
      const b = (d[bucket] ??= { sum: 0, tokens: 0 });
      b.sum += sum;
      b.tokens += tokens;
    };
    const numeric = (vs: string[]) => vs.filter((v) => /^\d+$/.test(v)).map(Number);
    let newest: number | null = null;
    for (const vs of this.weightVersions.values()) for (const v of numeric(vs)) newest = Math.max(newest ?? v, v);
    const status = this.target.join?.statusOf;
    for (const [sample, st] of this.mismatch.sampleStates()) {
      const vs = this.weightVersions.get(sample);
      if (vs !== undefined) {
        add('weight versions', new Set(vs).size > 1 ? 'mixed' : 'one', st.sum, st.finite);
        const own = numeric(vs);
        if (newest !== null && own.length > 0) {
          const lag = newest - Math.min(...own);
          add('weight-version lag', lag >= 2 ? '≥2 behind' : `${lag} behind`, st.sum, st.finite);
        }
      }
      const length = this.responseLengths.get(sample);
      if (length !== undefined) add('response length', lengthBucket(length), st.sum, st.finite);
      if (status !== undefined) add('status', status(sample) ?? 'not in the rollout dump', st.sum, st.finite);
    }
    return table;
  }
}
