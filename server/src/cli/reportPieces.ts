// Reports written in pieces (`renderJsonPieces`, `renderTextPieces`): a run folder's report is
// megabytes (up to a thousand findings a file) and is never one string at once.

/**
 * Characters a piece holds before it is written. At this size each piece is a young-generation
 * string (about 16 KB: two bytes a character once a message holds an em dash) that the next
 * scavenge frees, not a large object that stays until a full collection (BENCHMARKS.md, "Design
 * measurements").
 */
export const REPORT_PIECE_SIZE = 1 << 13;

/** `parts` joined, in pieces of at least `pieceSize` characters (but the last). */
export function* inPieces(parts: Iterable<string>, pieceSize = REPORT_PIECE_SIZE): Generator<string> {
  let piece = '';
  for (const part of parts) {
    piece += part;
    if (piece.length >= pieceSize) {
      yield piece;
      piece = '';
    }
  }
  if (piece.length > 0) yield piece;
}
