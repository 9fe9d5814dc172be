// `--format json`: exactly the documented document (issue 2). Built field by field, so internal
// extras (`detail`, `column`) never leak into the contract. Non-finite metric values become null
// (JSON has no NaN).
import type { Finding, RunReport } from '../core/types';

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
}

export function toJsonReport(report: RunReport): JsonReport {
  return {
    version: 1,
    files: report.files.map((f) => ({
      path: f.path,
      format: f.format,
      kind: f.kind,
      records: f.records,
      invalidLines: f.invalidLines,
      groups: { total: f.groups.total, kept: f.groups.kept, dropped: f.groups.dropped },
      metrics: Object.fromEntries(Object.entries(f.metrics).map(([k, v]) => [k, Number.isFinite(v) ? v : null])),
    })),
    findings: report.findings.map((f) => {
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
    }),
  };
}

export function renderJson(report: RunReport): string {
  return `${JSON.stringify(toJsonReport(report), null, 2)}\n`;
}
