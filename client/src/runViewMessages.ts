// What the run view's page may ask of the extension, checked field by field: the page renders
// hostile text, so a message is taken only in the shapes the page script sends (webview/src/).
// Without vscode imports, so it is unit-tested.

/** A message from the page, checked field by field (the page renders hostile text). */
export type PageMessage =
  | { type: 'reveal'; step: number | null; reason: string | null; sources: string[] }
  | { type: 'open'; source: string; line: number }
  | { type: 'sample'; source: string; line: number }
  | { type: 'refresh' }
  | { type: 'compare' }
  | { type: 'clearComparison' }
  | { type: 'place'; place: number };

export function parsePageMessage(m: unknown): PageMessage | null {
  if (!m || typeof m !== 'object') return null;
  const o = m as Record<string, unknown>;
  if (o.type === 'reveal') {
    const step = o.step === null || (typeof o.step === 'number' && Number.isFinite(o.step)) ? (o.step as number | null) : undefined;
    const reason = o.reason === null || typeof o.reason === 'string' ? (o.reason as string | null) : undefined;
    if (step === undefined || reason === undefined || !Array.isArray(o.sources) || !o.sources.every((s) => typeof s === 'string')) return null;
    return { type: 'reveal', step, reason, sources: o.sources as string[] };
  }
  if (o.type === 'refresh' || o.type === 'compare' || o.type === 'clearComparison') return { type: o.type };
  if (o.type === 'place') return typeof o.place === 'number' && Number.isInteger(o.place) && o.place >= 0 ? { type: 'place', place: o.place } : null;
  if ((o.type === 'open' || o.type === 'sample') && typeof o.source === 'string' && typeof o.line === 'number' && Number.isInteger(o.line) && o.line >= 1) {
    return o.type === 'open' ? { type: 'open', source: o.source, line: o.line } : { type: 'sample', source: o.source, line: o.line };
  }
  return null;
}
