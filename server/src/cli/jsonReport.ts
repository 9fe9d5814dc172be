// `--format json`: exactly the documented document (README.md, "--format json"). Built field by field, so internal
// extras (`detail`, `column`) never leak into the contract. Non-finite metric values become null
// (JSON has no NaN).
import { buildRuns, type Run } from '../core/run/model';
import type { Finding, RunReport } from '../core/vocabulary/types';

import { inPieces, REPORT_PIECE_SIZE } from './reportPieces';

export interface JsonFinding {
  code: string;
  severity: Finding['severity'];
  file: string;
  line: number;
  message: string;
  group: string | null;
  dataset: string | null;
  fix: Finding['fix'];
  related?: { file: string; line: number }[];
}

export interface JsonReport {
  version: 1;
  files: {
    path: string;
    format: string;
    kind: string;
    records: number;
    invalidLines: number;
    groups: { total: number; kept: number; dropped: number };
    metrics: Record<string, number | null>;
  }[];
  findings: JsonFinding[];
  runs: JsonRun[];
}

export interface JsonRun {
  root: string;
  framework: Run['framework'];
  steps: {
    step: number | null;
    kind: 'rollout' | 'eval';
    files: string[];
    partial: boolean;
    groups: { total: number; kept: number; dropped: number };
    droppedByCause: Record<string, number>;
    metrics: Record<string, number | null>;
    /** Present when the run holds the step's train_data (docs/semantics.md#train-inference-mismatch). */
    trainData?: { samples: number; mismatch: unknown };
  }[];
}

function finiteOrNull(metrics: Record<string, number>): Record<string, number | null> {
  return Object.fromEntries(Object.entries(metrics).map(([k, v]) => [k, Number.isFinite(v) ? v : null]));
}

function jsonRun(r: Run): JsonRun {
  return {
    root: r.root,
    framework: r.framework,
    steps: r.steps.map((s) => ({
      step: s.step,
      kind: s.kind,
      files: s.files.slice(),
      partial: s.partial,
      groups: { total: s.groups.total, kept: s.groups.kept, dropped: s.groups.dropped },
      droppedByCause: { ...s.droppedByCause },
      metrics: finiteOrNull(s.metrics),
      ...(s.trainData ? { trainData: { samples: s.trainData.samples, mismatch: finiteDeep(s.trainData.mismatch) } } : {}),
    })),
  };
}

/** A plain value with every non-finite number as null (JSON has none). */
function finiteDeep(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (Array.isArray(v)) return v.map(finiteDeep);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, finiteDeep(x)]));
  return v;
}

function runsOf(report: RunReport): Run[] {
  return report.runs ?? buildRuns(report.files);
}

function jsonFile(f: RunReport['files'][number]): JsonReport['files'][number] {
  return {
    path: f.path,
    format: f.format,
    kind: f.kind,
    records: f.records,
    invalidLines: f.invalidLines,
    groups: { total: f.groups.total, kept: f.groups.kept, dropped: f.groups.dropped },
    metrics: finiteOrNull(f.metrics),
  };
}

function jsonFinding(f: Finding): JsonFinding {
  const out: JsonFinding = {
    code: f.code,
    severity: f.severity,
    file: f.file,
    line: f.line,
    message: f.message,
    group: f.group,
    dataset: f.dataset,
    fix: f.fix,
  };
  if (f.related && f.related.length > 0) out.related = f.related.map((r) => ({ file: r.file, line: r.line }));
  return out;
}

function toJsonReport(report: RunReport): JsonReport {
  return { version: 1, files: report.files.map(jsonFile), findings: report.findings.map(jsonFinding), runs: runsOf(report).map(jsonRun) };
}

/** `value`'s JSON (2-space indent) as it reads nested `depth` levels deep: JSON strings hold no raw newline. */
function nested(value: unknown, depth: number): string {
  return JSON.stringify(value, null, 2).replaceAll('\n', `\n${' '.repeat(2 * depth)}`);
}

/** JSON text of an array of `items` (2-space indent) nested two levels deep, item by item. */
function* arrayText<T>(items: readonly T[], json: (item: T) => unknown): Generator<string> {
  if (items.length === 0) {
    yield '[]';
    return;
  }
  yield '[\n';
  for (let i = 0; i < items.length; i++) yield `    ${nested(json(items[i]), 2)}${i + 1 < items.length ? ',\n' : '\n  ]'}`;
}

/**
 * `renderJson`'s text in pieces of about `pieceSize` characters, built one array item at a time: a
 * run folder's report (ten thousand findings, megabytes of JSON) is never one object copy and one
 * string at once (BENCHMARKS.md, "Design measurements").
 */
export function renderJsonPieces(report: RunReport, pieceSize = REPORT_PIECE_SIZE): Generator<string> {
  return inPieces(jsonParts(report), pieceSize);
}

function* jsonParts(report: RunReport): Generator<string> {
  yield '{\n  "version": 1,\n  "files": ';
  yield* arrayText(report.files, jsonFile);
  yield ',\n  "findings": ';
  yield* arrayText(report.findings, jsonFinding);
  yield ',\n  "runs": ';
  yield* arrayText(runsOf(report), jsonRun);
  yield '\n}\n';
}

export function renderJson(report: RunReport): string {
  return `${JSON.stringify(toJsonReport(report), null, 2)}\n`;
}
