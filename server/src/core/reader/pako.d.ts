// Types of the one pako entry point the engine uses (pako ships none).
declare module 'pako/lib/deflate' {
  /** zlib's deflate with a zlib header and Adler-32 trailer (`zlib.compress`). */
  export function deflate(data: Uint8Array, options?: { level?: number; windowBits?: number; memLevel?: number; strategy?: number }): Uint8Array;
}
