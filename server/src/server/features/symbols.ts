// Outline: one symbol per group, named by its key and outcome (`group 7: dropped
// (group_has_aborted_ServerUnreachable)`), children the member lines; eval datasets as symbols
// too. Capped: a run file can hold 100k groups, and an outline of that helps nobody.
import { SymbolKind, type CancellationToken, type DocumentSymbol, type DocumentSymbolParams, type Range } from 'vscode-languageserver';
import type { DatasetSummary, FileDetail, GroupOutcome, SampleRecord } from '../../core/vocabulary/types';
import { revealInvisible, truncate } from '../../../../shared/unsafeText';
import { DEFAULTS } from '../runtime';
import type { CauseSettings } from '../../core/vocabulary/causes';
import { failureCause, sampleAt } from '../../core/inspect';
import type { ServerContext } from '../serverContext';

const MAX_CHILDREN = 64;

/**
 * A sample line's range, ending on that line (not at the next line's start, which editors show as
 * the next line's symbol). The UTF-8 byte length is never shorter than the UTF-16 length, and LSP
 * clients clamp a character past the line's end back to it.
 */
function lineEnd(detail: FileDetail, line1: number): { line: number; character: number } {
  return { line: line1 - 1, character: sampleAt(detail, line1)?.byteLength ?? 0 };
}

function lineRange(detail: FileDetail, line1: number): Range {
  return { start: { line: line1 - 1, character: 0 }, end: lineEnd(detail, line1) };
}

/** Symbol names are plain text in every client, but control and bidi characters still mislead. */
function label(text: string): string {
  return revealInvisible(truncate(text, 120), false);
}

/** First and last line; a loop, not `Math.min(...lines)`, which overflows the stack on big groups. */
function span(lines: Iterable<number>): { first: number; last: number } | null {
  let first = Infinity;
  let last = -Infinity;
  for (const l of lines) {
    if (l < first) first = l;
    if (l > last) last = l;
  }
  return first === Infinity ? null : { first, last };
}

/**
 * A member's detail: its reward, and its cause when it failed (`failureCause`); an exit status that
 * is no failure cause (a finished attempt's `Submitted`) is named as its exit status.
 */
function memberDetail(s: SampleRecord | undefined, settings: CauseSettings): string {
  const reward = s?.reward === null || s === undefined ? 'no reward' : `reward ${s.reward}`;
  if (!s?.cause) return reward;
  const cause = failureCause(s, settings);
  return cause ? `${reward}, ${label(cause.name)}` : `${reward}, exit status ${label(s.cause)}`;
}

function groupSymbol(detail: FileDetail, g: GroupOutcome, settings: CauseSettings): DocumentSymbol | null {
  const lines = span(g.lines);
  if (!lines) return null;
  const { first, last } = lines;
  const outcome = g.kept ? 'kept' : `dropped (${g.reason ?? 'unknown'})`;
  const children: DocumentSymbol[] = [];
  for (const line of g.lines.slice(0, MAX_CHILDREN)) {
    const s = sampleAt(detail, line);
    const status = s?.status ?? (s?.aborted ? 'aborted' : 'sample');
    children.push({
      name: `line ${line}: ${label(status)}`,
      detail: memberDetail(s, settings),
      kind: SymbolKind.Field,
      range: lineRange(detail, line),
      selectionRange: lineRange(detail, line),
    });
  }
  return {
    name: `group ${label(g.key)}: ${label(outcome)}`,
    detail: `${g.lines.length} sample${g.lines.length === 1 ? '' : 's'}`,
    kind: g.kept ? SymbolKind.Namespace : SymbolKind.Event,
    range: { start: { line: first - 1, character: 0 }, end: lineEnd(detail, last) },
    selectionRange: lineRange(detail, first),
    children,
  };
}

function datasetSymbol(detail: FileDetail, d: DatasetSummary): DocumentSymbol | null {
  const only = detail.datasets.length === 1;
  const lines = span(
    (function* () {
      for (const s of detail.samples) if (only || s.dataset === d.name) yield s.line;
    })(),
  );
  if (!lines) return null;
  const { first, last } = lines;
  const score = d.metrics[`eval/${d.name}`];
  return {
    name: `dataset ${label(d.name)}`,
    detail: `${d.samples} samples, n = ${d.n}${score !== undefined ? `, eval/${label(d.name)} = ${score}` : ''}`,
    kind: SymbolKind.Module,
    range: { start: { line: first - 1, character: 0 }, end: lineEnd(detail, last) },
    selectionRange: lineRange(detail, first),
  };
}

function symbolsOf(detail: FileDetail, maxSymbols: number, settings: CauseSettings): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  for (const d of detail.datasets) {
    const sym = datasetSymbol(detail, d);
    if (sym) out.push(sym);
  }
  // Dropped groups first: they are what a reader looks for.
  const ordered = [...detail.groups.filter((g) => !g.kept), ...detail.groups.filter((g) => g.kept)];
  let listed = 0;
  for (const g of ordered) {
    if (listed >= maxSymbols) break;
    const sym = groupSymbol(detail, g, settings);
    if (sym) out.push(sym);
    listed++;
  }
  out.sort((a, b) => a.range.start.line - b.range.start.line);
  const omitted = detail.groups.length - listed;
  if (omitted > 0 && out.length > 0) out[0].detail = `${out[0].detail ?? ''} (outline shows ${listed} groups, dropped first; ${omitted} more not listed)`;
  return out;
}

export async function provideSymbols(ctx: ServerContext, params: DocumentSymbolParams, token: CancellationToken): Promise<DocumentSymbol[]> {
  const result = await ctx.resultFor(params.textDocument.uri, token);
  const detail = result?.report?.detail;
  if (!detail) return [];
  return symbolsOf(detail, ctx.runtime.maxSymbols ?? DEFAULTS.maxSymbols, result.settings);
}
