// Hover on a sample line. The analysis keeps only compact per-sample records; the failure message
// and metadata are re-read from the document or the disk by the line's offset, and only the
// short scalar fields are built (the scanner skips token arrays and long responses).
import type { CancellationToken, Hover, HoverParams } from 'vscode-languageserver';
import { readRange } from '../../core/reader/lineReader';
import { scanJson } from '../../core/reader/scanJson';
import { Skipped, type Rule } from '../../core/reader/jsonRule';
import type { SampleRecord } from '../../core/types';
import type { FileAnalysis } from '../analysis/fileAnalysis';
import { renderSampleHover, type RecordDetail } from './hoverText';
import { datasetOf, evalGroupOf, groupOf, membersOf, sampleAt } from './sampleLookup';
import type { ServerContext } from '../serverContext';

/** Longest line re-read for a hover; beyond it the hover says so instead of reading it. */
export const MAX_HOVER_LINE_BYTES = 64 * 1024 * 1024;
const MAX_TEXT = 16 * 1024;

const SHORT: Rule = { scalars: true, maxString: MAX_TEXT, children: null };
const RULE: Rule = { scalars: true, maxString: MAX_TEXT, children: new Map([['metadata', SHORT]]) };

/** Free-text fields, most telling first; searched in `metadata` then at the top level. */
const MESSAGE_FIELDS = ['error', 'error_message', 'exception', 'message', 'abort_reason', 'reason', 'traceback', 'stderr'];
/** Short identifying fields shown for a failed sample. */
const FIELDS = ['exit_status', 'status_code', 'error_type', 'exception_type', 'instance_id', 'trial_idx', 'elapsed_sec', 'response_length', 'finish_reason'];

function scalarText(v: unknown): string | null {
  if (v instanceof Skipped) return v.kind === 'string' ? `(${v.byteLength} bytes, too long to show)` : null;
  if (v === null || v === undefined || typeof v === 'object') return null;
  return String(v);
}

/** Picks the message and fields out of a scanned record (pure; exported for tests). */
export function recordDetail(value: unknown): RecordDetail {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { message: null, fields: [], unavailable: 'the line is not a JSON object' };
  }
  const top = value as Record<string, unknown>;
  const meta = top.metadata !== null && typeof top.metadata === 'object' && !(top.metadata instanceof Skipped) ? (top.metadata as Record<string, unknown>) : {};
  let message: RecordDetail['message'] = null;
  for (const field of MESSAGE_FIELDS) {
    for (const [where, holder] of [
      ['metadata.', meta],
      ['', top],
    ] as const) {
      const text = scalarText(holder[field]);
      if (message === null && text !== null && text !== '') message = { field: `${where}${field}`, text };
    }
  }
  const fields: RecordDetail['fields'] = [];
  for (const name of FIELDS) {
    for (const [where, holder] of [
      ['metadata.', meta],
      ['', top],
    ] as const) {
      const text = scalarText(holder[name]);
      if (text !== null && text !== '') fields.push({ name: `${where}${name}`, value: text });
    }
  }
  return { message, fields, unavailable: null };
}

async function readDetail(result: FileAnalysis, sample: SampleRecord): Promise<RecordDetail> {
  if (sample.byteLength > MAX_HOVER_LINE_BYTES) {
    return { message: null, fields: [], unavailable: `the line is ${sample.byteLength} bytes long` };
  }
  let bytes: Uint8Array;
  try {
    bytes = await readRange(result.access, result.path, sample.offset, sample.byteLength);
  } catch (err) {
    return { message: null, fields: [], unavailable: `could not re-read the line (${err instanceof Error ? err.message : String(err)})` };
  }
  if (bytes.byteLength !== sample.byteLength) return { message: null, fields: [], unavailable: 'the file changed since it was analysed' };
  const scanned = scanJson(bytes, 0, bytes.byteLength, RULE);
  if (!scanned.ok) return { message: null, fields: [], unavailable: 'the file changed since it was analysed' };
  return recordDetail(scanned.value);
}

export async function provideHover(ctx: ServerContext, params: HoverParams, token: CancellationToken): Promise<Hover | null> {
  const result = await ctx.resultFor(params.textDocument.uri, token);
  const detail = result?.report?.detail;
  if (!result || !detail || token.isCancellationRequested) return null;
  const sample = sampleAt(detail, params.position.line + 1);
  if (!sample) return null;
  const group = groupOf(detail, sample);
  const members = group ? membersOf(detail, group) : [];
  const dataset = datasetOf(detail, sample);
  const needsDetail = sample.aborted || sample.cause !== null || sample.status === 'failed';
  const kind = result.report?.kind ?? 'unknown';
  const value = renderSampleHover({
    kind,
    format: result.report?.format ?? 'unknown',
    sample,
    group,
    members,
    evalGroup: kind === 'eval' && dataset ? evalGroupOf(detail, sample, dataset) : undefined,
    dataset,
    detail: needsDetail ? await readDetail(result, sample) : null,
    settings: result.settings,
  });
  return { contents: { kind: 'markdown', value } };
}
