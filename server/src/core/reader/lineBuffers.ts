// Byte buffers that lines are read into for the JSON scanner. Where WebAssembly with SIMD runs
// (Node, browsers), such a buffer is the memory of its own instance of `numberRun.wat`, so the
// scanner validates the long numeric arrays of a miles sample there, 32 bytes a step; anywhere
// else it is a plain buffer and the scanner's JS loop does the same work. Either way the bytes are
// a Node `Buffer` where there is one (its `indexOf` is a native memchr, much faster than
// `Uint8Array.prototype.indexOf`; BENCHMARKS.md, "Design measurements").
import { NUMBER_RUN_WASM } from './numberRunWasm';
import { compileWasm, Wasm } from './wasm';

/** `skipRun(start, end)` of one instance, in offsets of its memory (see numberRun.wat). */
export type RunSkipper = (start: number, end: number) => number;

/** The other routines of one instance (numberRun.wat), in offsets of its memory. */
export interface WasmRoutines {
  /** Where a plain ASCII run of a string body stops, 16 bytes a step. */
  skipText: (start: number, end: number) => number;
  /** The end of a loss mask's run of `, 0` / `, 1` pairs; `ones()` counts its `1` items. */
  maskRun: (start: number, end: number) => number;
  ones: () => number;
  /** The end of the valid JSON value at `start` (whitespace before it allowed), or -1 where the JS scanner must decide. */
  skipValue: (start: number, end: number) => number;
}

interface NodeBufferApi {
  allocUnsafe(n: number): Uint8Array;
  from(buffer: ArrayBuffer, byteOffset: number, length: number): Uint8Array;
}
const NodeBuffer = (globalThis as { Buffer?: NodeBufferApi }).Buffer;

/** A plain byte buffer (not scanned in WebAssembly). */
export function allocBytes(n: number): Uint8Array {
  return NodeBuffer ? NodeBuffer.allocUnsafe(n) : new Uint8Array(n);
}

const PAGE = 65536;
const SLACK = 64;
let compiled: object | null | undefined;
const skippers = new WeakMap<ArrayBufferLike, RunSkipper>();
const routines = new WeakMap<ArrayBufferLike, WasmRoutines>();

function numberRunModule(): object | null {
  if (compiled === undefined) {
    try {
      // Throws where WebAssembly or its SIMD proposal is missing: the JS loop is used then.
      compiled = compileWasm(NUMBER_RUN_WASM);
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/**
 * `n` bytes for lines to be scanned: WebAssembly memory when it can be had (a new instance per
 * buffer, so buffers never move under each other), else `allocBytes(n)`.
 */
export function lineBuffer(n: number): Uint8Array {
  const module = numberRunModule();
  if (!Wasm || module === null) return allocBytes(n);
  try {
    // SLACK bytes past the buffer stay in the memory: `numberRun.wat` may read a few past a line's end.
    const memory = new Wasm.Memory({ initial: Math.ceil((n + SLACK) / PAGE) });
    const instance = new Wasm.Instance(module, { env: { memory } });
    const exports = instance.exports;
    skippers.set(memory.buffer, exports.skipRun as RunSkipper);
    const ones = exports.ones as { value: number };
    routines.set(memory.buffer, {
      skipText: exports.skipText as WasmRoutines['skipText'],
      maskRun: exports.maskRun as WasmRoutines['maskRun'],
      skipValue: exports.skipValue as WasmRoutines['skipValue'],
      ones: () => ones.value,
    });
    return NodeBuffer ? NodeBuffer.from(memory.buffer, 0, n) : new Uint8Array(memory.buffer, 0, n);
  } catch {
    // Out of address space for another memory, or bigger than WebAssembly's 4 GiB.
    return allocBytes(n);
  }
}

/** The WebAssembly run validator over `bytes`' memory, or null for a plain buffer. */
export function runSkipperOf(bytes: Uint8Array): RunSkipper | null {
  return skippers.get(bytes.buffer) ?? null;
}

/** The string and loss-mask routines over `bytes`' memory, or null for a plain buffer. */
export function wasmRoutinesOf(bytes: Uint8Array): WasmRoutines | null {
  return routines.get(bytes.buffer) ?? null;
}
