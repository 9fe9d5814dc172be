// The messages a view's page (webview/src/) sends to its panel (client/src/), typed once for both
// sides. The page renders hostile text, so the panel takes a message only in these shapes,
// checked field by field (`parseRunPageMessage`, `parseSamplePageMessage`); anything else is dropped.

/** The run view's page → its panel. */
export type RunPageMessage =
  /** A step's bar (or a cause of it) clicked: show it in the Groups view. */
  | { type: 'reveal'; step: number | null; reason: string | null; sources: string[] }
  /** A link to a line (1-based) of a run's file. */
  | { type: 'open'; source: string; line: number }
  /** A finding's or prompt's place: open that line's sample view (else the line). */
  | { type: 'sample'; source: string; line: number }
  | { type: 'refresh' }
  | { type: 'compare' }
  | { type: 'clearComparison' }
  /** A comparison's sample link, by its number in the panel's own list of places. */
  | { type: 'place'; place: number }
  /** The page has drawn its charts (tests wait for it). */
  | { type: 'rendered'; charts: number };

/** The sample view's page → its panel. */
export type SamplePageMessage =
  /** A sibling of the shown group chosen (its line, 1-based). */
  { type: 'sibling'; line: number } | { type: 'rendered' };

function isLine(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 1;
}

export function parseRunPageMessage(m: unknown): RunPageMessage | null {
  if (!m || typeof m !== 'object') return null;
  const o = m as Record<string, unknown>;
  if (o.type === 'reveal') {
    const step = o.step === null || (typeof o.step === 'number' && Number.isFinite(o.step)) ? (o.step as number | null) : undefined;
    const reason = o.reason === null || typeof o.reason === 'string' ? (o.reason as string | null) : undefined;
    if (step === undefined || reason === undefined || !Array.isArray(o.sources) || !o.sources.every((s) => typeof s === 'string')) return null;
    return { type: 'reveal', step, reason, sources: o.sources as string[] };
  }
  if (o.type === 'refresh' || o.type === 'compare' || o.type === 'clearComparison') return { type: o.type };
  if (o.type === 'rendered') return typeof o.charts === 'number' && Number.isInteger(o.charts) && o.charts >= 0 ? { type: 'rendered', charts: o.charts } : null;
  if (o.type === 'place') return typeof o.place === 'number' && Number.isInteger(o.place) && o.place >= 0 ? { type: 'place', place: o.place } : null;
  if ((o.type === 'open' || o.type === 'sample') && typeof o.source === 'string' && isLine(o.line)) {
    return o.type === 'open' ? { type: 'open', source: o.source, line: o.line } : { type: 'sample', source: o.source, line: o.line };
  }
  return null;
}

export function parseSamplePageMessage(m: unknown): SamplePageMessage | null {
  if (!m || typeof m !== 'object') return null;
  const o = m as Record<string, unknown>;
  if (o.type === 'rendered') return { type: 'rendered' };
  if (o.type === 'sibling' && isLine(o.line)) return { type: 'sibling', line: o.line };
  return null;
}
