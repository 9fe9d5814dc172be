// Findings → LSP diagnostics. Pure: the caller says how to turn a finding's file into a URI and
// how long a line is. The engine's cap keeps the most severe `maxProblems` and one summary says
// how many more there are and of which codes; the most severe come first.
import { DiagnosticSeverity, type Diagnostic, type DiagnosticRelatedInformation, type Range } from 'vscode-languageserver';
import { DOCS_BASE } from '../../../../shared/protocol';
import { bySeverity, capFindings } from '../../core/findingCap';
import type { Finding, Fix, Severity } from '../../core/vocabulary/types';
import { revealInvisible } from '../../../../shared/unsafeText';

export const SOURCE = 'rollout-lens';
/** Related entries per diagnostic: a group of 1000 samples must not make a 1000-entry list. */
const MAX_RELATED = 20;

/** What a diagnostic carries for code actions, so they need no re-analysis. */
export interface DiagnosticData {
  fix: Fix | null;
  /** URI of the eval config the fix edits (from `fix.configFile`), when there is one. */
  configUri: string | null;
  group: string | null;
  dataset: string | null;
  /**
   * The value the global `n_samples_per_eval_prompt` would need to fix this, when setting the
   * global is a right fix: for a pass@k mismatch the dataset's own n; for a misgrouped dataset
   * that takes its n from the global (or miles' default), the observed repeat count.
   */
  globalValue: number | null;
}

export interface DiagnosticContext {
  /** Finding file (a path as the engine reported it) → URI. */
  uriOf(file: string): string;
  /** Length in UTF-16 units of a 0-based line of `uri`, when known (else the line is marked to its end). */
  lineLength(uri: string, line0: number): number | undefined;
  /** The dataset's samples per prompt and where that came from, when the analysis knows it. */
  datasetInfo?(name: string): { n: number; nSource: string } | undefined;
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** A whole line. Without a known length the end is the start of the next line: clients clamp it. */
export function lineRange(ctx: DiagnosticContext, uri: string, line1: number, column1?: number): Range {
  const line0 = Math.max(0, line1 - 1);
  const length = ctx.lineLength(uri, line0);
  let start = column1 !== undefined && column1 > 1 ? column1 - 1 : 0;
  if (length !== undefined && start >= length) start = 0; // a column past the end marks the whole line
  return length === undefined
    ? { start: { line: line0, character: start }, end: { line: line0 + 1, character: 0 } }
    : { start: { line: line0, character: start }, end: { line: line0, character: length } };
}

function docsHref(code: string): string {
  return `${DOCS_BASE}#${code}`;
}

function relatedInformation(finding: Finding, ctx: DiagnosticContext): DiagnosticRelatedInformation[] | undefined {
  if (!finding.related?.length) return undefined;
  const list = finding.related.slice(0, MAX_RELATED).map((loc) => {
    const uri = ctx.uriOf(loc.file);
    const sameFile = loc.file === finding.file;
    const message = sameFile
      ? finding.group !== null
        ? `member of group ${finding.group} (line ${loc.line})`
        : `related line ${loc.line}`
      : finding.dataset !== null
        ? `eval config: dataset ${finding.dataset}`
        : `related: ${loc.file}:${loc.line}`;
    return { location: { uri, range: lineRange(ctx, uri, loc.line) }, message: revealInvisible(message, true) };
  });
  const more = finding.related.length - list.length;
  if (more > 0) list[list.length - 1].message += ` (and ${more} more)`;
  return list;
}

function globalValueOf(finding: Finding, ctx: DiagnosticContext): number | null {
  if (!finding.fix || finding.dataset === null) return null;
  const info = ctx.datasetInfo?.(finding.dataset);
  // The fix names the dataset's own n for the global flag (what miles groups pass@k by).
  if (finding.code === 'passk-group-size-mismatch') return finding.fix.value;
  if (finding.code === 'misgrouped-dataset') {
    // Only when the dataset does not set its own n: then the global is what decides it.
    return !info || info.nSource === 'global' || info.nSource === 'default' || info.nSource === 'inferred' ? finding.fix.value : null;
  }
  return null;
}

function findingToDiagnostic(finding: Finding, ctx: DiagnosticContext): Diagnostic {
  const uri = ctx.uriOf(finding.file);
  const data: DiagnosticData = {
    fix: finding.fix,
    configUri: finding.fix?.configFile ? ctx.uriOf(finding.fix.configFile) : null,
    group: finding.group,
    dataset: finding.dataset,
    globalValue: globalValueOf(finding, ctx),
  };
  const diagnostic: Diagnostic = {
    range: lineRange(ctx, uri, finding.line, finding.column),
    severity: SEVERITY[finding.severity],
    source: SOURCE,
    code: finding.code,
    codeDescription: { href: docsHref(finding.code) },
    // Messages quote log text (causes, dataset names, group keys): its control, escape and
    // direction characters are shown as <U+XXXX>, never passed to an editor or a terminal raw.
    message: revealInvisible(finding.message, true),
    data,
  };
  const related = relatedInformation(finding, ctx);
  if (related) diagnostic.relatedInformation = related;
  return diagnostic;
}

/**
 * Diagnostics for one document: at most `maxProblems`, the most severe first, then one
 * `too-many-problems` diagnostic counting the rest by code. The cap is the engine's
 * (core/findingCap.ts), as `check` applies it; applied again here because the server adds
 * findings to a file's own (its run's metric comparison, train_data's): its summary absorbs the
 * engine's, so there is never more than one.
 */
export function toDiagnostics(findings: readonly Finding[], ctx: DiagnosticContext, maxProblems: number): Diagnostic[] {
  if (findings.length === 0) return [];
  const capped = capFindings(findings, maxProblems, findings[0].file);
  const summaries = capped.filter((f) => f.code === 'too-many-problems');
  const ordered = capped.filter((f) => f.code !== 'too-many-problems').sort(bySeverity);
  return [...ordered, ...summaries].map((f) => findingToDiagnostic(f, ctx));
}
