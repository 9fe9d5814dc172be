// An open document through the engine from its kept line scans: only the lines changed since the
// last analysis are scanned again, then the (cheap) collector replay and rollout/eval analyses run
// over the compact records. Same result as `runAnalysis` on the document's text; a document the
// line scans cannot follow (a lone `\r` line break) takes that full path instead.
import { CancelledError, throwIfCancelled } from '../../core/seams/cancellation';
import type { DocumentScans } from '../../core/documentScans';
import { analyzeOne, fileAnalysisOf, loadConfig, runAnalysis, type FileAnalysis, type RunOptions } from './fileAnalysis';
import { layoutAccess, lineSource } from '../documents/openDocuments';
import type { LineArrayDocument } from '../documents/lineArrayDocument';

export async function runIncrementalAnalysis(opts: RunOptions, scans: DocumentScans, doc: LineArrayDocument): Promise<FileAnalysis> {
  throwIfCancelled(opts.cancellation);
  const { path: configPath, config, problem: configProblem } = await loadConfig(opts);
  // Edits arrive between awaits: analyse only the version asked for (a newer one is scheduled).
  throwIfCancelled(opts.cancellation);
  if (doc.version !== opts.version) throw new CancelledError();
  const settings = opts.settings;
  // From here to the scan state nothing awaits, so the document cannot change under the scans.
  if (!scans.refresh(lineSource(doc), settings)) return runAnalysis(opts);
  const layout = scans.layout(doc.snapshot());
  const scan = scans.scanState(opts.path, opts.path, settings);
  const access = layoutAccess(opts.path, layout, opts.access);
  const options = { access, settings, evalConfig: config, cancellation: opts.cancellation, keepDetail: true };
  const done = await analyzeOne(scan, options);
  throwIfCancelled(opts.cancellation);
  return fileAnalysisOf(opts, { ...done, configPath, configProblem }, access);
}
