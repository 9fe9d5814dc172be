// `--format text`: findings as `path:line:col: severity code: message` (clickable in terminals and
// editors), then per file a short summary and the rollout / eval tables. Everything from the logs
// is escaped (see escape.ts).
import type { FileReport, Finding, RunReport } from '../core/types';

import { escapeInline, escapeTerminalText } from './escape';
import { renderEvalTable } from './evalTable';
import { inPieces, REPORT_PIECE_SIZE } from './reportPieces';
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
  return [...renderTextPieces(report, Infinity)].join('');
}

/**
 * `renderText`'s text in pieces of about `pieceSize` characters, a line at a time (as
 * `renderJsonPieces` gives the JSON report): a run folder's findings are never one string at once.
 */
export function renderTextPieces(report: RunReport, pieceSize = REPORT_PIECE_SIZE): Generator<string> {
  return inPieces(textLines(report), pieceSize);
}

/** The report's lines, each with its `\n`. */
function* textLines(report: RunReport): Generator<string> {
  for (const f of report.findings) yield `${findingLine(f)}\n`;
  if (report.findings.length > 0) yield '\n';
  for (const file of report.files) {
    yield `${fileSummary(file)}\n`;
    for (const render of [renderRolloutTable, renderEvalTable]) {
      const table = safeTable(render, file);
      if (table.trim() !== '') yield `${escapeTerminalText(table.replace(/\n+$/, ''))}\n`;
    }
    yield '\n';
  }
  const count = (sev: Finding['severity']) => report.findings.filter((f) => f.severity === sev).length;
  yield (
    `${plural(report.files.length, 'file')} checked: ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ` +
    `${count('information')} information, ${plural(count('hint'), 'hint')}\n`
  );
}
