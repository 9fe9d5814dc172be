// An open document through the engine from its kept line scans: only the lines changed since the
// last analysis are scanned again, then the (cheap) collector replay and rollout/eval analyses run
// over the compact records. Same result as `runAnalysis` on the document's text; a document the
// line scans cannot follow (a lone `\r` line break) takes that full path instead.
import { analyzeScans, CancelledError } from '../../core/engine';
import type { DocumentScans } from '../../core/documentScans';
import { AnalysisCancelled, ENGINE_FINDINGS_FLOOR, fileAnalysisOf, loadConfig, runAnalysis, type FileAnalysis, type RunOptions } from './fileAnalysis';
import { layoutAccess, lineSource } from '../documents/openDocuments';
import type { LineArrayDocument } from '../documents/lineArrayDocument';

export async function runIncrementalAnalysis(opts: RunOptions, scans: DocumentScans, doc: LineArrayDocument): Promise<FileAnalysis> {
  if (opts.cancellation.isCancellationRequested) throw new AnalysisCancelled();
  const { path: configPath, config } = await loadConfig(opts);
  // Edits arrive between awaits: analyse only the version asked for (a newer one is scheduled).
  if (opts.cancellation.isCancellationRequested || doc.version !== opts.version) throw new AnalysisCancelled();
  const settings = { ...opts.settings, maxProblems: Math.max(opts.settings.maxProblems, ENGINE_FINDINGS_FLOOR) };
  // From here to the scan state nothing awaits, so the document cannot change under the scans.
  if (!scans.refresh(lineSource(doc), settings)) return runAnalysis(opts);
  const layout = scans.layout(doc.snapshot());
  const scan = scans.scanState(opts.path, opts.path, settings);
  const access = layoutAccess(opts.path, layout, opts.access);
  const options = { access, settings, evalConfig: config, cancellation: opts.cancellation, keepDetail: true };
  let run;
  try {
    run = await analyzeScans([scan], options);
  } catch (err) {
    if (err instanceof CancelledError) throw new AnalysisCancelled();
    throw err;
  }
  if (opts.cancellation.isCancellationRequested) throw new AnalysisCancelled();
  return fileAnalysisOf(opts, run, configPath, access);
}
