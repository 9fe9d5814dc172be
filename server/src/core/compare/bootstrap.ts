// The paired bootstrap of a difference between two runs (docs/compare.md#intervals): prompts
// present in both are resampled with replacement, the same draw on both sides; the interval is the
// 2.5th and 97.5th percentile of the resampled differences. Seeded and deterministic: the same
// seed, label and prompts give the same interval on every machine.
import type { ReferencePaths } from '../formats/referencePaths';
import { compileWasm, Wasm } from '../reader/wasm';
import { BOOTSTRAP_DRAWS_WASM } from './bootstrapDrawsWasm';

/** 32-bit FNV-1a of a text: the stream of each interval is its own, and the same on every run. */
export function hashText(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** mulberry32: a small, fast generator with a 32-bit state; uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const DEFAULT_RESAMPLES = 1000;

/**
 * One paired item: its contribution to each side's statistic as a ratio of sums (numerator and
 * denominator), so a mean of per-prompt values (denominator 1) and a mean over samples (the
 * prompt's samples) both resample the same way. Items with a zero denominator on a side do not
 * count on that side.
 */
export interface PairedItem {
  baseline: [numerator: number, denominator: number];
  candidate: [numerator: number, denominator: number];
}

/** Whether every item's denominators are `b` and `c`, whole and > 0, their sums over m items exact. */
function sameWholeDenominators(figures: Float64Array, b: number, c: number): boolean {
  const m = figures.length / 4;
  if (!(Number.isInteger(b) && Number.isInteger(c) && b > 0 && c > 0 && m * Math.max(b, c) <= Number.MAX_SAFE_INTEGER)) return false;
  for (let j = 0; j < m; j++) if (figures[j * 4 + 1] !== b || figures[j * 4 + 3] !== c) return false;
  return true;
}

/** bootstrapDraws.wat's exports. */
interface WasmDraws {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  numerators(m: number, resamples: number, state: number, bd: number, cd: number, scale: number): number;
}

/** The compiled module, made once (code only); null where WebAssembly or its SIMD is missing. */
let drawsModule: object | null | undefined;

/**
 * An instance of the WebAssembly draws for one call (its memory holds that call's numerators and
 * deltas); null where WebAssembly or its SIMD is missing (the JS loop then).
 */
function newWasmDraws(): WasmDraws | null {
  if (drawsModule === undefined) {
    try {
      drawsModule = compileWasm(BOOTSTRAP_DRAWS_WASM);
    } catch {
      drawsModule = null;
    }
  }
  if (drawsModule === null) return null;
  try {
    return new Wasm!.Instance(drawsModule, {}).exports as unknown as WasmDraws;
  } catch {
    return null;
  }
}

/** Whether the draws run in WebAssembly here (tests check that the fast path is the one tested). */
export function bootstrapInWasm(): boolean {
  return newWasmDraws() !== null;
}

/**
 * Every item has the same whole denominator on each side (a pass@k's 1, a dataset's n): a
 * resample's denominators are m × it, exactly what the sums of m of them are, so only the
 * numerators are drawn, from a flat array of their own. Returns the deltas kept (all).
 */
function drawNumerators(figures: Float64Array, bDen: number, cDen: number, seeded: number, deltas: Float64Array, jsLoop: boolean): number {
  const m = figures.length / 4;
  const [bd, cd] = [m * bDen, m * cDen];
  const scale = m * 2.3283064365386963e-10;
  const w = jsLoop ? null : newWasmDraws();
  // bootstrapDraws.wat: the same draws and sums (the same bits), four draws at a time. Its memory:
  // the numerators, the deltas, m indices of scratch (rounded up to four).
  const bytes = m * 16 + deltas.length * 8 + (m + 4) * 4;
  if (w !== null && bytes < 2 ** 31) {
    const have = w.memory.buffer.byteLength;
    if (bytes <= have || w.memory.grow(Math.ceil((bytes - have) / 65536)) >= 0) {
      const nums = new Float64Array(w.memory.buffer, 0, m * 2);
      for (let j = 0; j < m; j++) {
        nums[j * 2] = figures[j * 4];
        nums[j * 2 + 1] = figures[j * 4 + 2];
      }
      w.numerators(m, deltas.length, seeded, bd, cd, scale);
      deltas.set(new Float64Array(w.memory.buffer, m * 16, deltas.length));
      return deltas.length;
    }
  }
  const nums = new Float64Array(m * 2);
  for (let j = 0; j < m; j++) {
    nums[j * 2] = figures[j * 4];
    nums[j * 2 + 1] = figures[j * 4 + 2];
  }
  let state = seeded;
  for (let r = 0; r < deltas.length; r++) {
    let bn = 0;
    let cn = 0;
    for (let j = 0; j < m; j++) {
      state = (state + 0x6d2b79f5) | 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const at = ((((t ^ (t >>> 14)) >>> 0) * scale) | 0) * 2;
      bn += nums[at];
      cn += nums[at + 1];
    }
    deltas[r] = cn / cd - bn / bd;
  }
  return deltas.length;
}

/** Any items: numerators and denominators drawn; a resample without a denominator on a side is not kept. */
function drawRatios(figures: Float64Array, seeded: number, deltas: Float64Array): number {
  const m = figures.length / 4;
  const scale = m * 2.3283064365386963e-10;
  let state = seeded;
  let kept = 0;
  for (let r = 0; r < deltas.length; r++) {
    let bn = 0;
    let bd = 0;
    let cn = 0;
    let cd = 0;
    for (let j = 0; j < m; j++) {
      state = (state + 0x6d2b79f5) | 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const at = ((((t ^ (t >>> 14)) >>> 0) * scale) | 0) * 4;
      bn += figures[at];
      bd += figures[at + 1];
      cn += figures[at + 2];
      cd += figures[at + 3];
    }
    if (bd > 0 && cd > 0) deltas[kept++] = cn / cd - bn / bd;
  }
  return kept;
}

function quantile(sorted: Float64Array, q: number): number {
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * The 95% interval of candidate − baseline over `items`, from `resamples` resamples drawn with the
 * generator seeded by `seed` and `label`. Null when no item counts on both sides. `reference` is
 * test-only (formats/referencePaths.ts).
 */
export function pairedBootstrap(
  items: readonly PairedItem[],
  seed: number,
  label: string,
  resamples = DEFAULT_RESAMPLES,
  reference?: ReferencePaths,
): [number, number] | null {
  const m = items.length;
  const figures = new Float64Array(m * 4);
  for (let j = 0; j < m; j++) {
    const it = items[j];
    figures[j * 4] = it.baseline[0];
    figures[j * 4 + 1] = it.baseline[1];
    figures[j * 4 + 2] = it.candidate[0];
    figures[j * 4 + 3] = it.candidate[1];
  }
  return pairedBootstrapOf(figures, seed, label, resamples, reference);
}

/**
 * `pairedBootstrap` of items given as one flat array, four figures an item (baseline numerator,
 * denominator, candidate numerator, denominator): what a caller with many items fills without an
 * object per item.
 */
export function pairedBootstrapOf(
  figures: Float64Array,
  seed: number,
  label: string,
  resamples = DEFAULT_RESAMPLES,
  reference?: ReferencePaths,
): [number, number] | null {
  const m = figures.length / 4;
  let counted = false;
  for (let j = 0; j < m && !counted; j++) counted = figures[j * 4 + 1] > 0 && figures[j * 4 + 3] > 0;
  if (!counted) return null;
  // mulberry32 (`seededRandom`) inlined below: the draws read m × resamples items, half a billion
  // for a dataset of 500 prompts over 1 000 eval steps. Its state kept as a signed 32-bit integer
  // (`| 0`: the same bits as `seededRandom`'s `>>> 0`, without a double). The item drawn is
  // ⌊draw × (m × 2^-32)⌋, without a division: m × 2^-32 and draw / 2^32 are exact, so both are
  // draw × m / 2^32 rounded once, the same number as ⌊(draw / 2^32) × m⌋ (below m < 2^31, so
  // `| 0` floors it).
  const state = hashText(label, hashText(String(seed))) | 0;
  const deltas = new Float64Array(resamples);
  const [bDen, cDen] = [figures[1], figures[3]];
  // Each loop in a function of its own: V8 optimizes each for what it has seen, and a dataset
  // whose items take the other loop does not send the first back to the interpreter.
  const kept = sameWholeDenominators(figures, bDen, cDen)
    ? drawNumerators(figures, bDen, cDen, state, deltas, reference?.jsDraws === true)
    : drawRatios(figures, state, deltas);
  if (kept === 0) return null;
  const sorted = deltas.subarray(0, kept).sort();
  return [quantile(sorted, 0.025), quantile(sorted, 0.975)];
}
