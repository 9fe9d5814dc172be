// Shared by the example generators: seeded randomness and JSON laid out as Python's json.dumps
// writes it (", " and ": " separators, floats with ".0", NaN/Infinity, non-ASCII escaped).

/** mulberry32: the same numbers for the same seed, so the examples are reproducible. */
export function seededRandom(initial) {
  let seed = initial;
  function rand() {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  const randInt = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  return { rand, randInt };
}

/** A number Python holds as a float: printed with a `.0` when integral. */
export class F { constructor(v) { this.v = v; } }
export const f = (v) => new F(v);

function pyFloat(v) {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  return Number.isInteger(v) ? `${v}.0` : String(v);
}

export function dumps(v) {
  if (v instanceof F) return pyFloat(v.v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(dumps).join(', ')}]`;
  if (typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${dumps(x)}`).join(', ')}}`;
  if (typeof v === 'string') return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return String(v);
}
