// zlib's level-9 matches for one input, found in WebAssembly (zlibMatches.wat), where it runs.
// A tail of miles' `has_repetition` is 10 000 code points, so at most 40 000 UTF-8 bytes: the
// module takes that much and no more (its memory layout is in zlibMatches.wat).
import { compileWasm, Wasm } from './wasm';
import { ZLIB_MATCHES_WASM } from './zlibMatchesWasm';

/** The longest input the module takes. */
export const MAX_MATCH_INPUT = 40_000;

/** Where the module writes its tokens (zlibMatches.wat). */
const TOKENS_AT = 466_944;
/** Zeros written after the input: a match may read up to 258 bytes past its start, 8 at a time. */
const ZERO_PAD = 272;
/** The hash table's stamps (zlibMatches.wat): 32 768 slots of 8 bytes from 204 800. */
const TABLE_AT = 204_800;
const TABLE_BYTES = 32_768 * 8;

/** One input's tokens: `distance << 8 | (length - 3)` for a match, the byte for a literal; bit 30 marks a literal tallied after the last position. */
export interface Level9Tokens {
  tokens: Int32Array;
  count: number;
}

let instance: { memory: Uint8Array; tokens: Int32Array; parse: (n: number, stamp: number) => number } | null | undefined;
let stamp = 0;

function load(): typeof instance {
  if (instance === undefined) {
    try {
      const api = new Wasm!.Instance(compileWasm(ZLIB_MATCHES_WASM), {}).exports;
      const buffer = (api.memory as { buffer: ArrayBuffer }).buffer;
      instance = {
        memory: new Uint8Array(buffer),
        tokens: new Int32Array(buffer, TOKENS_AT, MAX_MATCH_INPUT + 1),
        parse: api.parse as (n: number, stamp: number) => number,
      };
    } catch {
      // No WebAssembly here: the caller compresses with pako instead.
      instance = null;
    }
  }
  return instance;
}

/** zlib's level-9 tokens for `bytes`, or null where WebAssembly is missing or `bytes` is longer than `MAX_MATCH_INPUT`. */
export function level9Tokens(bytes: Uint8Array): Level9Tokens | null {
  if (bytes.length > MAX_MATCH_INPUT) return null;
  const wasm = load();
  if (!wasm) return null;
  wasm.memory.set(bytes, 0);
  wasm.memory.fill(0, bytes.length, bytes.length + ZERO_PAD);
  // Each call stamps the hash slots it writes; a stamp must never repeat one still in the table.
  if (++stamp === 0x7fff_ffff) {
    wasm.memory.fill(0, TABLE_AT, TABLE_AT + TABLE_BYTES);
    stamp = 1;
  }
  return { tokens: wasm.tokens, count: wasm.parse(bytes.length, stamp) };
}
