// Turns zod issues into the `invalid-record` message: which field, what was wrong, what was expected.
import type { z } from 'zod';

import { Skipped } from '../reader/jsonRule';

import { resolvePath } from './pointer';

/** A short, safe description of a value from the log (never its full text). */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing (missing)';
  if (v === null) return 'null';
  if (v instanceof Skipped) {
    if (v.kind === 'string') return `a string of ${v.byteLength - 2} bytes`;
    return v.kind === 'array' ? 'an array' : v.kind === 'object' ? 'an object' : `a ${v.kind}`;
  }
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return String(v);
  return Array.isArray(v) ? 'an array' : 'an object';
}

/** Drops zod's generic wording so the message reads "<field>: expected X, got Y". */
function expectation(message: string): string {
  return message
    .replace(/^Invalid input: /, '')
    .replace(/^Invalid option: /, '')
    .replace(/, received \w+$/, '');
}

export function formatIssues(
  format: string,
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  fieldName: (path: string[]) => string = (p) => p.join('.'),
): string {
  const parts = issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String);
    const got = describeValue(path.length ? resolvePath(input, path) : input);
    return `field ${fieldName(path) || '(record)'}: ${expectation(issue.message)}, got ${got}`;
  });
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return `invalid ${format} record: ${parts.join('; ')}${more}`;
}
