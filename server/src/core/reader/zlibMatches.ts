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

/** One input's tokens (a view of the matcher's memory, valid until its next call): `distance << 8 | (length - 3)` for a match, the byte for a literal; bit 30 marks a literal tallied after the last position. */
export interface Level9Tokens {
  tokens: Int32Array;
  count: number;
}

/** The module, compiled once (null where WebAssembly is missing): code only, no input's data. */
let compiled: object | null | undefined;

function matchesModule(): object | null {
  if (compiled === undefined) {
    try {
      compiled = compileWasm(ZLIB_MATCHES_WASM);
    } catch {
      // No WebAssembly here: the caller compresses with pako instead.
      compiled = null;
    }
  }
  return compiled;
}

/** One instance of the module: its memory holds a call's input, hash table and tokens. */
interface MatchInstance {
  memory: Uint8Array;
  tokens: Int32Array;
  parse: (n: number, stamp: number) => number;
}

/** Finds level-9 matches in an instance of its own (made on first use), with its own stamps. */
export class Level9Matcher {
  private instance: MatchInstance | null | undefined;
  private stamp = 0;

  private load(): MatchInstance | null {
    if (this.instance === undefined) {
      const module = matchesModule();
      try {
        if (module === null) throw new Error('no WebAssembly here');
        const api = new Wasm!.Instance(module, {}).exports;
        const buffer = (api.memory as { buffer: ArrayBuffer }).buffer;
        this.instance = {
          memory: new Uint8Array(buffer),
          tokens: new Int32Array(buffer, TOKENS_AT, MAX_MATCH_INPUT + 1),
          parse: api.parse as (n: number, stamp: number) => number,
        };
      } catch {
        this.instance = null;
      }
    }
    return this.instance;
  }

  /** zlib's level-9 tokens for `bytes`, or null where WebAssembly is missing or `bytes` is longer than `MAX_MATCH_INPUT`. */
  tokens(bytes: Uint8Array): Level9Tokens | null {
    if (bytes.length > MAX_MATCH_INPUT) return null;
    const wasm = this.load();
    if (!wasm) return null;
    wasm.memory.set(bytes, 0);
    wasm.memory.fill(0, bytes.length, bytes.length + ZERO_PAD);
    // Each call stamps the hash slots it writes; a stamp must never repeat one still in the table.
    if (++this.stamp === 0x7fff_ffff) {
      wasm.memory.fill(0, TABLE_AT, TABLE_AT + TABLE_BYTES);
      this.stamp = 1;
    }
    return { tokens: wasm.tokens, count: wasm.parse(bytes.length, this.stamp) };
  }
}

/**
 * Matchers between calls, for whichever caller comes next: a matcher's memory holds one call's
 * input, hash table and tokens, and its stamps are its own, so it carries nothing of one caller
 * to another. A matcher per scan instead mapped and unmapped a memory per file (BENCHMARKS.md,
 * "Design measurements").
 */
const freeMatchers: Level9Matcher[] = [];
const MAX_FREE_MATCHERS = 4;

/** A matcher of the pool (or a new one), the caller's until `giveBackMatcher`. */
export function takeMatcher(): Level9Matcher {
  return freeMatchers.pop() ?? new Level9Matcher();
}

/** Returns `m` to the pool: its tokens are not read after this. */
export function giveBackMatcher(m: Level9Matcher): void {
  if (freeMatchers.length < MAX_FREE_MATCHERS) freeMatchers.push(m);
}
