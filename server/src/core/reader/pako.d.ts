// Types of the pako entry points the engine uses (pako ships none).
declare module 'pako/lib/deflate' {
  /** zlib's deflate with a zlib header and Adler-32 trailer (`zlib.compress`). */
  export function deflate(data: Uint8Array, options?: { level?: number; windowBits?: number; memLevel?: number; strategy?: number }): Uint8Array;
}

declare module 'pako/lib/zlib/deflate' {
  /** zlib's z_stream as pako keeps it: buffers and positions, and the deflate state. */
  export interface DeflateStream {
    input: Uint8Array | null;
    next_in: number;
    avail_in: number;
    output: Uint8Array | null;
    next_out: number;
    avail_out: number;
    total_in: number;
    total_out: number;
    msg: string;
    data_type: number;
    adler: number;
    /** null until deflateInit2. */
    state: (import('pako/lib/zlib/trees').TreeState & { window: Uint8Array; prev: Uint16Array; pending_buf: Uint8Array }) | null;
  }
  export function deflateInit2(strm: DeflateStream, level: number, method: number, windowBits: number, memLevel: number, strategy: number): number;
  export function deflateReset(strm: DeflateStream): number;
  export function deflate(strm: DeflateStream, flush: number): number;
}

declare module 'pako/lib/zlib/trees' {
  /** The parts of pako's deflate state its Huffman coding reads and writes. */
  export interface TreeState {
    /** Bytes of compressed output waiting in `pending_buf`. */
    pending: number;
    pending_out: number;
    /** Where a stored block's bytes are copied from (`buf` indexes it). */
    window: Uint8Array;
    strm: { data_type: number };
  }
  /** zlib's `_tr_init`: empty trees, empty bit buffer. */
  export function _tr_init(s: TreeState): void;
  /** zlib's `_tr_tally`: counts a literal (`dist` 0, `lc` the byte) or a match (`lc` its length - 3); true when the block is full. */
  export function _tr_tally(s: TreeState, dist: number, lc: number): boolean;
  /** zlib's `_tr_flush_block`: codes the tallied block (stored, fixed or dynamic, whichever is shortest) into `pending`. */
  export function _tr_flush_block(s: TreeState, buf: number, storedLength: number, last: boolean): void;
}
