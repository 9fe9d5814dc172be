// `--format text`: findings as `path:line:col: severity code: message` (clickable in terminals and
// editors), then per file a short summary and the rollout / eval tables. Everything from the logs
// is escaped (see escape.ts).
import type { Run, RunStep } from '../core/run/model';
import type { FileReport, Finding, RunReport } from '../core/vocabulary/types';
import type { TrainStepMismatch } from '../core/run/trainData';
import { pyFloatRepr } from '../core/vocabulary/python';

import { escapeInline, escapeTerminalText } from './escape';
import { renderEvalTable } from './evalTable';
import { inPieces, REPORT_PIECE_SIZE } from './reportPieces';
import { renderRolloutTable } from './rolloutTable';

function findingLine(f: Finding): string {
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

function groupsText(g: RunStep['groups']): string {
  return `${plural(g.total, 'group')}, ${g.kept} kept, ${g.dropped} dropped`;
}

/**
 * A run as the run model has it (core/run/model.ts): its steps, each with its groups and the files
 * that describe it, the analysed ones first; annotations are named as such.
 */
function* runLines(run: Run, analysed: ReadonlySet<string>): Generator<string> {
  const count = (kind: RunStep['kind']) => run.steps.filter((s) => s.kind === kind).length;
  const totals = { total: 0, kept: 0, dropped: 0 };
  for (const s of run.steps) {
    if (s.kind !== 'rollout') continue;
    totals.total += s.groups.total;
    totals.kept += s.groups.kept;
    totals.dropped += s.groups.dropped;
  }
  yield `run ${escapeInline(run.root)} (${run.framework}): ${plural(count('rollout'), 'rollout step')} (${groupsText(totals)}), ${plural(count('eval'), 'eval step')}\n`;
  for (const s of run.steps) {
    const name = `${s.kind === 'eval' ? 'eval step' : 'step'} ${s.step ?? '?'}`;
    const what =
      s.kind === 'rollout'
        ? groupsText(s.groups)
        : s.partial && s.groups.total === 0
          ? 'not analysed (see its partial-step finding)'
          : plural(s.groups.total, 'prompt group');
    const files = s.files.map((f) => (analysed.has(f) ? escapeInline(f) : `${escapeInline(f)} (annotates it)`));
    yield `  ${name}${s.partial ? ' (partial)' : ''}: ${what}; ${files.join(', ')}\n`;
    const m = s.trainData?.mismatch;
    if (m) yield `    ${mismatchLine(m)}\n`;
  }
}

/** A step's train-inference mismatch in one line (docs/semantics.md#train-inference-mismatch). */
function mismatchLine(m: TrainStepMismatch): string {
  const n = (x: number) => pyFloatRepr(x);
  let text = `train-inference mismatch |Δ log-prob| over ${plural(m.tokens, 'masked token')}`;
  if (m.nonFinite > 0) text += ` (${m.nonFinite} not finite)`;
  text += `: mean ${n(m.mean)}, p50 ${n(m.p50)}${m.approximate ? '~' : ''}, p99 ${n(m.p99)}${m.approximate ? '~' : ''}, max ${n(m.max)}`;
  const w = m.worstSamples[0];
  if (w) text += `; worst sample ${w.sample}${w.line !== null ? ` (line ${w.line})` : ''} mean ${n(w.mean)}`;
  const t = m.worstTokens[0];
  if (t) {
    // A token's text is escaped to be visible (core/tokenizer/tokenText.ts), and quoted so its spaces show.
    const said = t.token === null ? '' : ` (token ${t.token}${typeof t.text === 'string' ? ` “${escapeInline(t.text)}”` : ''})`;
    text += `; worst token: sample ${t.sample} position ${t.position}${said}, |Δ| ${n(t.absDiff)}`;
  }
  return text;
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
  const analysed = new Set(report.files.map((f) => f.path));
  let annotations = 0;
  for (const run of report.runs ?? []) {
    yield* runLines(run, analysed);
    yield '\n';
    for (const s of run.steps) annotations += s.files.filter((f) => !analysed.has(f)).length;
  }
  const count = (sev: Finding['severity']) => report.findings.filter((f) => f.severity === sev).length;
  const trainFiles = (report.trainSteps ?? []).reduce((n, t) => n + t.files.length, 0);
  const trainRead = trainFiles > 0 ? `; ${plural(trainFiles, 'train_data file')} of them read for ${trainFiles === 1 ? 'its' : 'their'} step's figures` : '';
  const more = annotations > 0 ? ` (and ${annotations} that annotate a step, not read as steps${trainRead})` : '';
  yield (
    `${plural(report.files.length, 'file')} checked${more}: ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ` +
    `${count('information')} information, ${plural(count('hint'), 'hint')}\n`
  );
}
