// A sample line's values as the sample view shows them (shared/sampleViewModel.ts): texts clipped,
// a conversation's messages and tool calls, log-probs summarised for the chart, the metadata as a
// bounded tree, the raw JSON cut to a size, and the line parsed with Python's NaN and Infinity.
// Everything long is clipped or summarised here, so the view's model is bounded whatever the
// line's size.
import type { Clip, MessageView, SampleView, ToolCall, TreeValue } from '../../../../shared/sampleViewModel';
import { isObject } from '../vocabulary/types';

/** Characters kept of one text (a message, the response). */
export const MAX_TEXT_CHARS = 64 * 1024;
/** Messages kept of a conversation. */
const MAX_MESSAGES = 200;
/** Points of the log-prob chart (min per bucket, so dips stay visible). */
export const LOG_PROB_POINTS = 200;
/** The raw JSON toggle shows at most this many characters. */
const MAX_RAW_CHARS = 256 * 1024;
const TREE_DEPTH = 6;
const TREE_ENTRIES = 50;
const TREE_TEXT = 2048;

export function clip(text: string, max = MAX_TEXT_CHARS): Clip {
  return text.length > max ? { text: text.slice(0, max), length: text.length } : { text };
}

export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** Text of a message content: a string, or the text parts of a list (other parts named by type). */
function contentClip(content: unknown): Clip | null {
  if (content === null || content === undefined) return null;
  if (typeof content === 'string') return clip(content);
  if (Array.isArray(content)) {
    const parts = content.map((p) => (typeof p === 'string' ? p : isObject(p) ? (str(p.text) ?? `[${str(p.type) ?? 'part'}]`) : ''));
    return clip(parts.join('\n'));
  }
  return clip(JSON.stringify(content) ?? '');
}

function toolCalls(v: unknown): ToolCall[] {
  if (!Array.isArray(v)) return [];
  return v.slice(0, 50).map((c) => {
    const o = isObject(c) ? c : {};
    const fn = isObject(o.function) ? o.function : o;
    const args = fn.arguments ?? fn.input ?? null;
    return { id: str(o.id), name: str(fn.name), arguments: args === null ? null : typeof args === 'string' ? clip(args) : clip(JSON.stringify(args) ?? '') };
  });
}

/** A chat message list (or a prompt string) as message views. */
export function messagesOf(v: unknown, roleOfString = 'user'): MessageView[] {
  if (typeof v === 'string') return [{ role: roleOfString, content: clip(v), name: null, toolCalls: [], toolCallId: null }];
  if (!Array.isArray(v)) return [];
  return v.slice(0, MAX_MESSAGES).map((m) => {
    if (!isObject(m)) return { role: 'unknown', content: contentClip(m), name: null, toolCalls: [], toolCallId: null };
    return {
      role: str(m.role) ?? 'unknown',
      content: contentClip(m.content),
      name: str(m.name),
      toolCalls: toolCalls(m.tool_calls),
      toolCallId: str(m.tool_call_id),
    };
  });
}

export function numbers(v: unknown): number[] | null {
  if (!Array.isArray(v)) return null;
  const out: number[] = [];
  for (const x of v) out.push(typeof x === 'number' ? x : NaN);
  return out;
}

/** Count, mean, min, max of the finite values, and the chart's points (min per bucket). */
export function logProbSummary(values: readonly number[]): NonNullable<SampleView['tokens']['logProbs']> {
  let sum = 0;
  let count = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const x of values) {
    if (!Number.isFinite(x)) continue;
    sum += x;
    count++;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const points: number[] = [];
  const buckets = Math.min(LOG_PROB_POINTS, values.length);
  for (let b = 0; b < buckets; b++) {
    const s = Math.floor((b * values.length) / buckets);
    const e = Math.floor(((b + 1) * values.length) / buckets);
    let m = Infinity;
    for (let k = s; k < e; k++) if (Number.isFinite(values[k]) && values[k] < m) m = values[k];
    points.push(Number.isFinite(m) ? m : 0);
  }
  return { count: values.length, mean: count > 0 ? sum / count : null, min: count > 0 ? min : null, max: count > 0 ? max : null, points };
}

/** A JSON value as a bounded tree (depth, entries and text capped). */
export function treeOf(v: unknown, depth = 0): TreeValue {
  if (v === null || v === undefined) return { kind: 'scalar', text: 'null', type: 'null' };
  if (typeof v === 'string') return { kind: 'scalar', text: v.length > TREE_TEXT ? `${v.slice(0, TREE_TEXT)}… (${v.length} characters)` : v, type: 'string' };
  if (typeof v === 'number') return { kind: 'scalar', text: String(v), type: 'number' };
  if (typeof v === 'boolean') return { kind: 'scalar', text: String(v), type: 'boolean' };
  if (depth >= TREE_DEPTH) return { kind: 'skipped', text: Array.isArray(v) ? `array of ${v.length}` : 'object (too deep to show)' };
  if (Array.isArray(v)) return { kind: 'array', items: v.slice(0, TREE_ENTRIES).map((x) => treeOf(x, depth + 1)), length: v.length };
  if (isObject(v)) {
    const keys = Object.keys(v);
    return { kind: 'object', entries: keys.slice(0, TREE_ENTRIES).map((k) => [k, treeOf(v[k], depth + 1)]), more: Math.max(0, keys.length - TREE_ENTRIES) };
  }
  return { kind: 'scalar', text: String(v), type: 'string' };
}

/** The record with long strings clipped and long arrays cut, for the raw JSON toggle. */
export function rawOf(v: unknown): { raw: string; clipped: boolean } {
  let clipped = false;
  const shrink = (x: unknown, depth: number): unknown => {
    if (typeof x === 'string' && x.length > 4096) {
      clipped = true;
      return `${x.slice(0, 4096)}… (${x.length} characters)`;
    }
    if (depth > 12 && x !== null && typeof x === 'object') {
      clipped = true;
      return '… (too deep)';
    }
    if (Array.isArray(x)) {
      if (x.length > 64) clipped = true;
      const head = x.slice(0, 64).map((y) => shrink(y, depth + 1));
      return x.length > 64 ? [...head, `… ${x.length - 64} more`] : head;
    }
    if (isObject(x)) return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, shrink(y, depth + 1)]));
    return x;
  };
  let raw = JSON.stringify(shrink(v, 0), null, 2) ?? 'null';
  if (raw.length > MAX_RAW_CHARS) {
    raw = raw.slice(0, MAX_RAW_CHARS);
    clipped = true;
  }
  return { raw, clipped };
}

/**
 * JSON.parse with Python's NaN / Infinity / -Infinity tokens (json.dumps writes them) read as null
 * outside strings; the engine's own scanner keeps them as numbers for the analysis.
 */
export function parseLine(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    let out = '';
    let last = 0;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === 0x5c) i++;
        else if (c === 0x22) inString = false;
        continue;
      }
      if (c === 0x22) inString = true;
      else if (c === 0x4e && text.startsWith('NaN', i)) {
        out += `${text.slice(last, i)}null`;
        i += 2;
        last = i + 1;
      } else if ((c === 0x49 || c === 0x2d) && text.startsWith(c === 0x2d ? '-Infinity' : 'Infinity', i)) {
        const len = c === 0x2d ? 9 : 8;
        out += `${text.slice(last, i)}null`;
        i += len - 1;
        last = i + 1;
      }
    }
    return JSON.parse(out + text.slice(last));
  }
}
