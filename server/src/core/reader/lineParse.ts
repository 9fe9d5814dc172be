// One line → what the record collector needs from it, as plain data: blank, a scanned JSON value,
// or a syntax error. The same function runs on the main thread (single-threaded scans) and in scan
// workers (byte ranges of big files), so both paths feed the collector identical inputs. Scanned
// values hold `Skipped` instances and integer-literal maps, which structured clone would flatten:
// `encodeParsedValue` / `decodeParsedValue` turn them into arrays and back (every array is one of our tags:
// the scanner's own arrays, from 'list' members, are tagged LIST; a `LongString` keeps its tail's
// figures).
import { sniffBinary } from './sniff';

import type { RuleParser } from './ruleParse';
import { INT_LITERALS, type Rule, type RuleParsedObject, Skipped } from './jsonRule';
import { LongString, type TextTail } from './textTail';

export type ParsedLogLine =
  | { type: 'blank' }
  | { type: 'ok'; value: unknown }
  /** `binary`: what `sniffBinary` says of the line, when the scanner was asked to sniff it. */
  | { type: 'invalid'; reason: string; column: number; binary?: string | null };

const BLANK: ParsedLogLine = { type: 'blank' };
const WS = new Uint8Array(256);
WS[0x20] = WS[0x09] = WS[0x0d] = 1;

const utf8 = new TextDecoder('utf-8');

/**
 * The 1-based UTF-16 column of byte `at` of a line starting at `start`: as the editor counts, with
 * malformed UTF-8 counted as the decoder replaces it. An ASCII prefix (most lines) is not decoded.
 */
function utf16Column(bytes: Uint8Array, start: number, at: number): number {
  let k = start;
  while (k < at && bytes[k] < 0x80) k++;
  if (k === at) return at - start + 1;
  return utf8.decode(bytes.subarray(start, at)).length + 1;
}

/**
 * Scans `bytes[start, end)` (one line without its end-of-line) with the scan's `parser`. `sniff`:
 * also look for binary content when invalid.
 */
export function parseLogLine(bytes: Uint8Array, start: number, end: number, rule: Rule, sniff: boolean, parser: RuleParser): ParsedLogLine {
  let s = start;
  while (s < end && WS[bytes[s]] === 1) s++;
  if (s === end) return BLANK;
  const result = parser.parse(bytes, start, end, rule);
  if (result.ok) return { type: 'ok', value: result.value };
  const out: ParsedLogLine = { type: 'invalid', reason: result.reason, column: utf16Column(bytes, start, Math.min(result.position, end)) };
  if (sniff) out.binary = sniffBinary(bytes, start, end);
  return out;
}

const SKIPPED = 0;
const OBJECT = 1;
const LIST = 2;
const LONG_STRING = 3;

/** A scanned value as structured-clone-safe data. */
export function encodeParsedValue(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof LongString) return [LONG_STRING, v.byteLength, v.tail];
  if (v instanceof Skipped) return [SKIPPED, v.kind, v.byteLength, v.hash];
  if (Array.isArray(v)) return [LIST, v];
  const obj = v as RuleParsedObject;
  const entries: unknown[] = [];
  for (const key of Object.keys(obj)) entries.push(key, encodeParsedValue(obj[key]));
  const ints = obj[INT_LITERALS];
  return [OBJECT, entries, ints ? [...ints] : null];
}

export function decodeParsedValue(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  if (v[0] === SKIPPED) return new Skipped(v[1] as Skipped['kind'], v[2] as number, v[3] as string | null);
  if (v[0] === LIST) return v[1] as unknown[];
  if (v[0] === LONG_STRING) return new LongString(v[1] as number, v[2] as TextTail | null);
  const entries = v[1] as unknown[];
  const obj: RuleParsedObject = {};
  for (let k = 0; k < entries.length; k += 2) obj[entries[k] as string] = decodeParsedValue(entries[k + 1]);
  const ints = v[2] as (string | null)[] | null;
  if (ints) obj[INT_LITERALS] = ints;
  return obj;
}
