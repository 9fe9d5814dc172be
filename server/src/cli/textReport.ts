// `--format text`: findings as `path:line:col: severity code: message` (clickable in terminals and
// editors), then per file a short summary and the rollout / eval tables. Everything from the logs
// is escaped (see escape.ts).
import type { FileReport, Finding, RunReport } from '../core/types';

import { escapeInline, escapeTerminalText } from './escape';
import { renderEvalTable } from './evalTable';
import { renderRolloutTable } from './rolloutTable';

export function findingLine(f: Finding): string {
  return `${escapeInline(f.file)}:${f.line}:${f.column ?? 1}: ${f.severity} ${escapeInline(f.code)}: ${escapeInline(f.message)}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function fileSummary(file: FileReport): string {
  const parts = [`${file.format} (${file.kind})`, plural(file.records, 'record'), plural(file.invalidLines, 'invalid line')];
  if (file.kind === 'rollout' || file.kind === 'eval') {
    parts.push(`groups: ${file.groups.total} total, ${file.groups.kept} kept, ${file.groups.dropped} dropped`);
  }
  return `${escapeInline(file.path)}: ${parts.join(', ')}`;
}

/** A renderer owned by another part of the report must not take the whole report down. */
function safeTable(render: (file: FileReport) => string, file: FileReport): string {
  try {
    return render(file);
  } catch (err) {
    return `  (table unavailable: ${(err as Error).message})`;
  }
}

export function renderText(report: RunReport): string {
  const out: string[] = [];
  for (const f of report.findings) out.push(findingLine(f));
  if (report.findings.length > 0) out.push('');
  for (const file of report.files) {
    out.push(fileSummary(file));
    for (const render of [renderRolloutTable, renderEvalTable]) {
      const table = safeTable(render, file);
      if (table.trim() !== '') out.push(escapeTerminalText(table.replace(/\n+$/, '')));
    }
    out.push('');
  }
  const count = (sev: Finding['severity']) => report.findings.filter((f) => f.severity === sev).length;
  out.push(
    `${plural(report.files.length, 'file')} checked: ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ` +
      `${count('information')} information, ${plural(count('hint'), 'hint')}`,
  );
  return `${out.join('\n')}\n`;
}
