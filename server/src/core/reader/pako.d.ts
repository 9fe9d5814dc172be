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
    state: { window: Uint8Array; prev: Uint16Array; pending_buf: Uint8Array } | null;
  }
  export function deflateInit2(strm: DeflateStream, level: number, method: number, windowBits: number, memLevel: number, strategy: number): number;
  export function deflateReset(strm: DeflateStream): number;
  export function deflate(strm: DeflateStream, flush: number): number;
}
