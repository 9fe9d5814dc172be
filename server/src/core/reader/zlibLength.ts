// The length of zlib's output for some bytes, as CPython's `zlib.compress(data, level)` gives it
// (window 15 bits, memory level 8, default strategy), without platform modules, so the engine stays
// free of them. At level 9 (miles' `has_repetition`) the matches are found in WebAssembly
// (zlibMatches.ts, zlib's own algorithm) and the blocks sized by zlib's block and Huffman tree rules
// (zlibBlocks.ts); elsewhere pako, a line-by-line port of zlib's deflate in plain JavaScript, does
// it all.
// Both equal CPython's in length on the cases test/unit/reader/textTail.test.ts pins (computed by
// Python's zlib: scripts/gen-real-fixtures.py, zlib_cases) and on each other
// (test/unit/reader/zlibLength.test.ts).
//
// `zlib.compress` makes a fresh stream per call. Making one costs pako a good part of a 10 000-
// character tail's deflate (BENCHMARKS.md, "Design measurements"), so one stream per level is reset
// and reused instead, and the buffers a fresh stream starts zeroed (the window, the hash chains, the
// pending output) are zeroed again: deflate should never read what an earlier call left there, but
// then the state at the start of each call is a fresh stream's and nothing rests on that
// (test/unit/reader/zlibLength.test.ts compares every call with a fresh stream).
import { deflate } from 'pako/lib/deflate';
import { deflate as deflateStep, deflateInit2, deflateReset, type DeflateStream } from 'pako/lib/zlib/deflate';

import { BlockSizer } from './zlibBlocks';
import { giveBackMatcher, takeMatcher } from './zlibMatches';

const Z_FINISH = 4;
const Z_STREAM_END = 1;
const Z_DEFLATED = 8;
const Z_DEFAULT_STRATEGY = 0;
const Z_UNKNOWN = 2;
/** zlib's 2-byte header and 4-byte Adler-32 trailer around the deflate blocks. */
const WRAPPER_BYTES = 6;

/**
 * Measures `zlib.compress` lengths. Its streams, output buffer and block trees are its own (made on
 * first use), reused call after call: one per scan or thread; a level-9 call takes a WebAssembly
 * matcher from zlibMatches.ts' pool.
 */
export class ZlibSizer {
  private readonly streams = new Map<number, DeflateStream>();
  private out = new Uint8Array(0);
  private blocks: BlockSizer | null = null;

  /** `len(zlib.compress(bytes, level))`. */
  length(bytes: Uint8Array, level: number): number {
    if (level === 9) {
      // The matcher is taken for this call only: its tokens are read before it goes back.
      const matcher = takeMatcher();
      try {
        const matches = matcher.tokens(bytes);
        if (matches !== null) return WRAPPER_BYTES + (this.blocks ??= new BlockSizer()).deflatedBlockBytes(matches.tokens, matches.count);
      } finally {
        giveBackMatcher(matcher);
      }
    }
    const strm = this.streamFor(level);
    // Stored blocks are the worst case: 5 bytes a 16 KiB block, plus the header and the trailer.
    const bound = bytes.length + 5 * (Math.ceil(bytes.length / 16_384) + 1) + 6;
    if (this.out.length < bound) this.out = new Uint8Array(bound);
    strm.input = bytes;
    strm.next_in = 0;
    strm.avail_in = bytes.length;
    strm.output = this.out;
    strm.next_out = 0;
    strm.avail_out = this.out.length;
    const rc = deflateStep(strm, Z_FINISH);
    const length = strm.total_out;
    strm.input = null;
    // Not finished in one step (not expected with the bound above): pako's own one-shot call.
    return rc === Z_STREAM_END ? length : deflate(bytes, { level }).length;
  }

  private streamFor(level: number): DeflateStream {
    let strm = this.streams.get(level);
    if (strm === undefined) {
      strm = newStream(level);
      this.streams.set(level, strm);
      return strm;
    }
    deflateReset(strm);
    const state = strm.state!;
    state.window.fill(0);
    state.prev.fill(0);
    state.pending_buf.fill(0);
    return strm;
  }
}

/** `len(zlib.compress(bytes, level))` once, by a sizer of its own (a scan keeps its `ZlibSizer`). */
export function zlibLength(bytes: Uint8Array, level: number): number {
  return new ZlibSizer().length(bytes, level);
}

/** A new pako stream at `level`, as `deflateInit2` fills in pako's ZStream (lib/zlib/zstream.js). */
function newStream(level: number): DeflateStream {
  const strm: DeflateStream = {
    input: null,
    next_in: 0,
    avail_in: 0,
    total_in: 0,
    output: null,
    next_out: 0,
    avail_out: 0,
    total_out: 0,
    msg: '',
    state: null,
    data_type: Z_UNKNOWN,
    adler: 0,
  };
  deflateInit2(strm, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY);
  return strm;
}
