// Fields the per-sample metrics read whose value has another shape than the framework's writer gives
// them (docs/diagnostics.md#field-shape). Each reader of a sample (formats/milesSample/reference.ts, milesSample/line.ts,
// scan/ptSampleRecord.ts) notes such a value on its rare path only; the collector keeps the first
// per field and says it once per file, so no metric goes missing without a word.
import { Skipped } from '../reader/jsonRule';

/** The fields whose shape is checked, the shape their writer gives, and the metrics read from them. */
export const CHECKED_FIELDS = {
  weight_versions: { expected: 'a list of str or int', metrics: 'weight_version/*' },
} as const;
export type CheckedField = keyof typeof CHECKED_FIELDS;

/** The first value of another shape, per field: its line and its shape in words. */
export type ShapeNotes = Partial<Record<CheckedField, { line: number; shape: string }>>;

/**
 * A value's shape as Python would name it: `a dict`, `a str`, a list of other items. Every reader
 * says the same for the same value (a JSON line's scan keeps no such list's items, so neither does
 * this), so the finding does not depend on the path a sample was read by.
 */
export function describeShape(value: unknown): string {
  const kind =
    value instanceof Skipped
      ? value.kind
      : Array.isArray(value) || (typeof value === 'object' && value !== null && 'items' in value)
        ? 'array'
        : typeof value === 'object' && value !== null
          ? 'object'
          : typeof value;
  switch (kind) {
    case 'array':
      return 'a list whose items are not all str or int (or more than 256 of them)';
    case 'object':
      return 'a dict';
    case 'string':
      return 'a str';
    case 'boolean':
      return 'a bool';
    default:
      return kind === 'number' || kind === 'literal' ? 'a number' : `a ${kind}`;
  }
}

/** Notes `value` of `field` at `line` unless a value of that field was noted before. */
export function noteShape(notes: ShapeNotes, field: CheckedField, value: unknown, line: number): void {
  if (notes[field] === undefined) notes[field] = { line, shape: describeShape(value) };
}

/** The finding's message for a noted field. */
export function fieldShapeMessage(field: CheckedField, note: { line: number; shape: string }): string {
  const { expected, metrics } = CHECKED_FIELDS[field];
  return `${field} is ${note.shape} here, not ${expected} as Sample.to_dict() writes it: ${metrics} cannot be recomputed from such samples (this line is the first of this file)`;
}
