// Chunks of released sample stores, for the next store's columns.
import { Chunk } from './fieldRows';

/**
 * Chunks of released stores, reused by the next store: a run folder's files are read one after
 * another, and the next file's columns then take the memory of the last one's instead of waiting
 * for a full garbage collection to free it. Every column of a row is written by a push (the miles
 * columns a chunk has, for a row with miles fields; others never read them), so a reused chunk
 * needs no clearing. A counting column's array made for an earlier file is written on, not dropped.
 */
const freeChunks: Chunk[] = [];
const MAX_FREE_CHUNKS = 256;

export function takeChunk(): Chunk {
  return freeChunks.pop() ?? new Chunk();
}

export function giveBackChunks(chunks: readonly Chunk[]): void {
  for (const c of chunks) if (freeChunks.length < MAX_FREE_CHUNKS) freeChunks.push(c);
}
