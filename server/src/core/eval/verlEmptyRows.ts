// What a verl rollout dump's empty outputs allow verl's training figures to be. verl's
// compute_data_metrics leaves a row out of `critic/score/*` and counts it in
// `response/aborted_ratio` when its response_length is 0; a response of only an end token has
// length 1 but decodes to "" in the dump, like an aborted one, and gets the same score from the
// reward function (docs/framework-files.md, "Empty output"). So each empty row may or may not be
// in verl's figures, and the dump gives each of them as a range, not a value: the least and the
// most it can be over every choice of which empty rows were end-token-only.
import { pyFloatRepr } from '../vocabulary/python';

/** The least and the most a figure can be. */
export interface FigureRange {
  least: number;
  most: number;
}

export type EmptyRowRanges = Record<string, FigureRange>;

/**
 * The ranges of `critic/score/{mean,max,min}` and `response/aborted_ratio` over every choice of
 * the empty rows verl counted, given the scores of the rows with output (`kept`) and of the empty
 * ones (`empty`; a null score counts 0). A choice that counts no row at all (every row empty, none
 * end-token-only) has no score figures: verl raises or logs nan there (the caller says which).
 * Scores that are not finite give no score ranges (a nan or inf in a sum decides it whatever the
 * choice).
 */
export function emptyRowRanges(kept: readonly number[], empty: readonly number[]): EmptyRowRanges {
  const total = kept.length + empty.length;
  const ranges: EmptyRowRanges = { 'response/aborted_ratio': { least: 0, most: empty.length / total } };
  if (empty.length === 0 || !kept.every(Number.isFinite) || !empty.every(Number.isFinite)) return ranges;
  const down = empty.slice().sort((a, b) => b - a);
  const up = down.slice().reverse();
  ranges['critic/score/mean'] = { least: meanBound(kept, up, Math.min), most: meanBound(kept, down, Math.max) };
  const keptMax = kept.length > 0 ? Math.max(...kept) : -Infinity;
  const keptMin = kept.length > 0 ? Math.min(...kept) : Infinity;
  // With no kept row, the fewest rows verl can count is one empty row: its own score.
  ranges['critic/score/max'] = { least: kept.length > 0 ? keptMax : up[0], most: Math.max(keptMax, down[0]) };
  ranges['critic/score/min'] = { least: Math.min(keptMin, up[0]), most: kept.length > 0 ? keptMin : down[0] };
  return ranges;
}

/**
 * The least (`pick` Math.min, `ordered` ascending) or the most (Math.max, descending) mean of the
 * kept scores with some of the empty ones: adding a score below the mean lowers it, above raises
 * it, so the bound is a mean with the first t of `ordered`, for one t.
 */
function meanBound(kept: readonly number[], ordered: readonly number[], pick: (a: number, b: number) => number): number {
  let sum = 0;
  for (const x of kept) sum += x;
  let bound = kept.length > 0 ? sum / kept.length : NaN;
  for (let t = 0; t < ordered.length; t++) {
    sum += ordered[t];
    const mean = sum / (kept.length + t + 1);
    bound = Number.isNaN(bound) ? mean : pick(bound, mean);
  }
  return bound;
}

/** `critic/score/mean between 0.25 and 0.5, …` for the message of the denominator finding. */
export function rangesText(ranges: EmptyRowRanges): string {
  const order = ['critic/score/mean', 'critic/score/max', 'critic/score/min', 'response/aborted_ratio'];
  return order
    .filter((name) => ranges[name] !== undefined)
    .map((name) => `${name} between ${pyFloatRepr(ranges[name].least)} and ${pyFloatRepr(ranges[name].most)}`)
    .join(', ');
}
