// What a sample's log line says about a failure: its message and short identifying fields, read
// from the line with the scanner's rule (token arrays and long responses are skipped, not built).
// The inspection facade (inspect.ts), the sample view and the CLI's `inspect` ask here.
import type { FileAccess } from './seams/fileAccess';
import { Skipped, type Rule } from './reader/jsonRule';
import { parseByRule } from './reader/ruleParse';
import { KeptPtLines, readSampleLine, type SampleLine, type SamplePlace } from './scan/sampleLine';
import { isTorchDump } from './scan/ptDumpScan';

export type { KeptPtLines, SamplePlace } from './scan/sampleLine';

/** What a sample's log line says about a failure, re-read from the file. */
export interface RecordDetail {
  /** Free-text message of a failure (error, exception, message, traceback), first one found. */
  message: { field: string; text: string } | null;
  /** Other short scalar fields worth showing for a failure (exit_status, status_code, ...). */
  fields: { name: string; value: string }[];
  /** Why the line could not be re-read or parsed, when it could not. */
  unavailable: string | null;
}

/** Longest line re-read for its detail; beyond it the detail says so instead of reading it. */
export const MAX_DETAIL_LINE_BYTES = 64 * 1024 * 1024;
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

/** Picks the message and fields out of a scanned record (pure). */
export function recordDetail(value: unknown): RecordDetail {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { message: null, fields: [], unavailable: 'the line is not a JSON object' };
  }
  const top = value as Record<string, unknown>;
  const meta = top.metadata !== null && typeof top.metadata === 'object' && !(top.metadata instanceof Skipped) ? (top.metadata as Record<string, unknown>) : {};
  // Each name in `metadata` first, then at the top level; empty and unbuilt values are left out.
  const found = (names: readonly string[]) =>
    names.flatMap((name) =>
      (
        [
          ['metadata.', meta],
          ['', top],
        ] as const
      ).flatMap(([where, holder]) => {
        const text = scalarText(holder[name]);
        return text !== null && text !== '' ? [{ name: `${where}${name}`, value: text }] : [];
      }),
    );
  const first = found(MESSAGE_FIELDS)[0];
  const message: RecordDetail['message'] = first ? { field: first.name, text: first.value } : null;
  const fields: RecordDetail['fields'] = found(FIELDS);
  return { message, fields, unavailable: null };
}

/**
 * Re-reads the sample's line by its offset and builds only its short scalar fields (the scanner
 * skips token arrays and long responses). Never throws: a line that cannot be read says why.
 */
export async function readRecordDetail(file: { path: string; access: FileAccess }, sample: SamplePlace): Promise<RecordDetail> {
  return lineDetail(await readSampleLine(file.access, file.path, sample, MAX_DETAIL_LINE_BYTES));
}

/** The detail of a sample's line already read (`readSampleLine`, or kept as a `.pt` dump was analysed). */
export function lineDetail(line: SampleLine): RecordDetail {
  if (line.bytes === null) return { message: null, fields: [], unavailable: line.unavailable };
  const scanned = parseByRule(line.bytes, 0, line.bytes.byteLength, RULE);
  if (!scanned.ok) return { message: null, fields: [], unavailable: 'the file changed since it was analysed' };
  return recordDetail(scanned.value);
}

/**
 * For a `.pt` dump (told by its content), a keeper of the line of the sample on `line1` (1-based)
 * for the analysis to fill as it reads the dump (scan option `keepPtLines`): sample N is only
 * reached by reading the dump up to it. Undefined for a text log, whose line is read again by its
 * offset (`readRecordDetail`).
 */
export async function keepDumpLine(access: FileAccess, path: string, line1: number): Promise<KeptPtLines | undefined> {
  return (await isTorchDump(access, path)) ? new KeptPtLines(new Set([line1 - 1]), MAX_DETAIL_LINE_BYTES) : undefined;
}
