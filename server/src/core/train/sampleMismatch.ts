// One sample's train–inference mismatch for the sample view (docs/editors.md#train-inference-mismatch):
// its rollout and trainer log-probs along the response, the loss mask, and |Δ| at each position the
// mask counts, read from its step's train_data (every rank's file; a context-parallel rank holds a
// slice of the response, cpSlices.ts). Positions outside the loss mask are given as masked, never as
// a mismatch: a tool output there would show tens of nats of false mismatch. Δ is taken in float32,
// as miles' loss takes it (tokenMismatch.ts `lossFigures`).
import type { SampleMismatch } from '../../../../shared/sampleViewModel';
import type { TokenizerNote } from '../../../../shared/runViewModel';
import type { FileAccess } from '../seams/fileAccess';
import type { TokenTexts } from '../tokenizer/tokenText';
import { StorageReader } from '../reader/pt/tensorValues';
import { TensorPlaceholder } from '../reader/pt/values';

import { forEachPosition, responseRanges } from './cpSlices';
import { WORST } from './tokenMismatch';
import { itemsOf, numbersOf, readTrainFile } from './trainFile';

export type { SampleMismatch };

/** Positions of the response the view receives (the rest counted in `positionsOmitted`). */
export const MAX_MISMATCH_POSITIONS = 8192;

const f32 = Math.fround;

/** `D/train_data/<step>_<rank>.pt` (and D) of the step of a rollout dump or trajectory sidecar at `D/rollout_data/<step>.pt` or `D/trajectory/<step>.jsonl`. */
export async function trainDataFilesOf(access: FileAccess, path: string): Promise<{ step: number; files: string[]; root: string } | null> {
  const m = /^(.*[\\/])?(?:rollout_data[\\/](\d+)\.pt|trajectory[\\/](\d+)\.jsonl)$/i.exec(path);
  if (!m) return null;
  const step = Number(m[2] ?? m[3]);
  const sep = path.includes('\\') && !path.includes('/') ? '\\' : '/';
  const dir = `${m[1] ?? ''}train_data`;
  let entries;
  try {
    entries = await access.readDir(dir);
  } catch {
    return null;
  }
  const files = entries
    .filter((e) => e.isFile && new RegExp(`^${step}_\\d+\\.pt$`).test(e.name))
    .map((e) => e.name)
    .sort((a, b) => Number(a.slice(a.indexOf('_') + 1, -3)) - Number(b.slice(b.indexOf('_') + 1, -3)))
    .map((name) => `${dir}${sep}${name}`);
  // The dump folder D (`.` when the path starts at it), where miles also writes its tokenizer.
  const root = m[1] === undefined ? '.' : m[1].length > 1 ? m[1].slice(0, -1) : m[1];
  return files.length === 0 ? null : { step, files, root };
}

/**
 * Sample `sampleIndex`'s mismatch from the step's train_data `files` (`show` names them as the view
 * shows them); null when no file holds the sample. A file that cannot be read is passed over.
 */
export async function readSampleMismatch(
  access: FileAccess,
  files: readonly string[],
  sampleIndex: number,
  show: (path: string) => string = (p) => p,
): Promise<SampleMismatch | null> {
  let responseLength: number | null = null;
  let rollout: (number | null)[] = [];
  let train: (number | null)[] = [];
  let mask: (number | null)[] = [];
  let tokens: (number | null)[] | null = null;
  const from: string[] = [];
  let hasTrain = false;
  for (const path of files) {
    const f = await readTrainFile(access, { path, displayPath: show(path) });
    if (f.problems.some((p) => p.kind !== 'tensor') || f.data.size === 0) continue;
    const indices = numbersOf(f.data.get('sample_indices'));
    const row = indices?.indexOf(sampleIndex) ?? -1;
    if (indices === null || row < 0) continue;
    const responseLengths = numbersOf(f.data.get('response_lengths'));
    const totalLengths = numbersOf(f.data.get('total_lengths')) ?? (f.cpSize > 1 ? null : responseLengths);
    const n = responseLengths?.[row];
    if (n === undefined || totalLengths === null || totalLengths[row] === undefined) continue;
    if (responseLength === null) {
      responseLength = n;
      const width = Math.min(n, MAX_MISMATCH_POSITIONS);
      rollout = new Array<number | null>(width).fill(null);
      train = new Array<number | null>(width).fill(null);
      mask = new Array<number | null>(width).fill(null);
    } else if (n !== responseLength) continue;
    const size = (await access.stat(path)).size;
    const file = await access.open(path);
    try {
      const reader = new StorageReader(file, size, f.records, f.littleEndian);
      const values = async (v: unknown): Promise<Float64Array | null> => {
        if (v instanceof TensorPlaceholder) {
          if (v.view === null || (await reader.locate(v.view.record)) !== null) return null;
          return reader.readNumbers(v);
        }
        const nums = numbersOf(v);
        return nums === null ? null : Float64Array.from(nums);
      };
      const at = (key: string) => itemsOf(f.data.get(key))?.[row];
      const m = await values(at('loss_masks'));
      // The loss mask is whole on every rank (cpSlices.ts).
      if (m !== null && m.length === n) for (let k = 0; k < mask.length; k++) mask[k] = m[k];
      const ranges = responseRanges(totalLengths[row], n, f.cpRank, f.cpSize, f.qkvFormat, numbersOf(f.data.get('max_seq_lens'))?.[row] ?? null);
      const place = async (key: string, into: (number | null)[]): Promise<boolean> => {
        const x = await values(at(key));
        if (x === null) return false;
        forEachPosition(ranges, (local, pos) => {
          if (pos < into.length && local < x.length) into[pos] = x[local];
        });
        return true;
      };
      await place('rollout_log_probs', rollout);
      hasTrain = (await place('log_probs', train)) || hasTrain;
      if (tokens === null) {
        const ids = await values(at('tokens'));
        // The whole sequence, prompt first: the response is its last tokens.
        if (ids !== null && ids.length >= n) tokens = Array.from({ length: rollout.length }, (_, k) => ids[ids.length - n + k] ?? null);
      }
    } finally {
      await file.close();
    }
    from.push(show(path));
  }
  if (responseLength === null) return null;
  const delta: (number | null)[] = rollout.map((r, k) => {
    const t = train[k];
    if (r === null || t === null || mask[k] === 0) return null;
    return f32(t - r);
  });
  let sum = 0;
  let counted = 0;
  let masked = 0;
  let max = 0;
  const worst: SampleMismatch['worstTokens'] = [];
  const nonFinite: number[] = [];
  delta.forEach((d, k) => {
    if (mask[k] === 0) masked++;
    if (d !== null && !Number.isFinite(d)) nonFinite.push(k);
    if (d === null || !Number.isFinite(d)) return;
    const a = Math.abs(d);
    sum += a;
    counted++;
    if (a > max) max = a;
    worst.push({ position: k, token: tokens?.[k] ?? null, text: null, rolloutLogProb: rollout[k]!, trainLogProb: train[k]!, delta: d });
  });
  worst.sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || a.position - b.position);
  return {
    files: from,
    sampleIndex,
    responseLength,
    positionsOmitted: responseLength - rollout.length,
    hasTrainLogProbs: hasTrain,
    rolloutLogProbs: rollout,
    trainLogProbs: train,
    lossMask: mask,
    // NaN and ±inf do not survive JSON (they become null): the positions are said instead.
    delta: delta.map((d) => (d !== null && Number.isFinite(d) ? d : null)),
    nonFinitePositions: nonFinite,
    tokens,
    tokenTexts: null,
    tokenizer: null,
    tokenizerProblem: null,
    lossTokens: counted,
    outsideMask: masked,
    mean: counted > 0 ? sum / counted : null,
    max: counted > 0 ? max : null,
    worstTokens: worst.slice(0, WORST),
  };
}

/** The mismatch with each token's text from the run's tokenizer (`note`: where it came from, its file as the view names it). */
export function withTokenTexts(m: SampleMismatch, texts: TokenTexts, note: TokenizerNote): SampleMismatch {
  const text = (id: number | null | undefined) => (id === null || id === undefined ? null : texts.text(id));
  return {
    ...m,
    tokenTexts: m.tokens === null ? null : m.tokens.map(text),
    tokenizer: note,
    tokenizerProblem: null,
    worstTokens: m.worstTokens.map((t) => ({ ...t, text: text(t.token) })),
  };
}
