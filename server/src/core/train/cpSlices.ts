// Which response positions a context-parallel rank holds (docs/framework-files.md#train-data).
// miles main (31f1ca9) splits each sequence into 2·cp_size chunks and gives rank r chunks r and
// 2·cp_size − 1 − r (the zigzag layout); a rank's per-token fields (log-probs, advantages, …) are
// the response positions whose logits fall in its two chunks, in that order, while its loss mask
// stays whole (backends/training_utils/cp_utils.py).

/** Half-open ranges of response positions, in the order the rank's slice holds them. */
export type ResponseRanges = readonly (readonly [number, number])[];

/**
 * The response positions of rank `cpRank`'s slice of a sample of `totalLength` tokens, the last
 * `responseLength` of them the response. `qkvFormat` `bshd` sizes chunks by `maxSeqLen` (the
 * padded length), `thd` by the sample's own length.
 */
export function responseRanges(
  totalLength: number,
  responseLength: number,
  cpRank: number,
  cpSize: number,
  qkvFormat = 'thd',
  maxSeqLen: number | null = null,
): ResponseRanges {
  if (cpSize <= 1) return [[0, responseLength]];
  const promptLength = totalLength - responseLength;
  const basis = qkvFormat === 'thd' ? totalLength : (maxSeqLen ?? totalLength);
  const chunk = Math.ceil(basis / (2 * cpSize));
  const chunks: [number, number][] = [
    [cpRank * chunk, (cpRank + 1) * chunk],
    [(2 * cpSize - cpRank - 1) * chunk, (2 * cpSize - cpRank) * chunk],
  ];
  const out: [number, number][] = [];
  for (const [start, end] of chunks) {
    // The logits of token t+1 sit at t: a response position is its logit's index − (prompt − 1).
    const lo = Math.max(start, promptLength - 1);
    const hi = Math.min(end, totalLength - 1);
    if (lo < hi) out.push([lo - (promptLength - 1), hi - (promptLength - 1)]);
  }
  return out;
}

/** How many positions the ranges hold. */
export function rangesWidth(ranges: ResponseRanges): number {
  let n = 0;
  for (const [a, b] of ranges) n += b - a;
  return n;
}

/** Calls `each(local, position)` for every element of the slice: its index in the slice and its response position. */
export function forEachPosition(ranges: ResponseRanges, each: (local: number, position: number) => void): void {
  let local = 0;
  for (const [a, b] of ranges) for (let p = a; p < b; p++) each(local++, p);
}
