// A `.pt` dump as a scan (docs/pt.md): each sample the pickle machine hands over is read as its
// JSON line would be, by the same collector as a JSONL file's lines, so every format rule, finding
// and metric applies unchanged. Once the collector reads miles samples through its per-line path,
// a sample's row is read straight from the pickled dict (scan/ptSampleRecord.ts): the row that path
// reads from the line, without the line; any other sample is written as its line and fed.
// Line N of the report is sample N (1-based) of the dump, which is also line N of its JSON Lines
// view (`rollout-lens export`, the editor's view). Token and log-prob runs are counted, not kept,
// so memory follows the samples' other fields.
import { severityOf } from '../vocabulary/catalog';
import type { FileAccess } from '../seams/fileAccess';
import type { RolloutLensSettings } from '../vocabulary/settings';
import { RecordCollector } from '../formats/collector';
import { buildRule } from '../formats/rule';
import type { Finding, FormatId } from '../vocabulary/types';
import { CancelledError } from '../seams/cancellation';
import { isPtDumpName } from '../vocabulary/logFiles';
import type { FileIdentity, ScanOptions, ScanState } from './lineFileScan';
import { collectedFields } from '../formats/collectorState';
import type { ReferencePaths } from '../formats/referencePaths';

import type { PickleProblem } from '../reader/pt/pickleMachine';
import { looksLikeZip, readPt } from '../reader/pt/ptFile';
import { PtSampleReader } from './ptSampleRecord';
import { sampleLine } from '../reader/pt/serialize';
import { PyDict } from '../reader/pt/values';
import { findDataPkl, readZipDirectory } from '../reader/pt/zip';

/** The scan options a dump takes: a dump is read on one thread. */
export type PtDumpScanOptions = Omit<ScanOptions, 'parallel'>;

/**
 * Whether `path` is read as a torch.save dump (`isTorchFile`), for the places that re-read one of
 * its samples; when it cannot be read, its name says (the reader then says why it cannot).
 */
export async function isTorchDump(access: FileAccess, path: string): Promise<boolean> {
  try {
    return await isTorchFile(access, path, (await access.stat(path)).size);
  } catch {
    return isPtDumpName(path);
  }
}

/**
 * A file to read as a torch.save dump: a zip named `*.pt` / `*.pth`, or any zip holding a
 * `<name>/data.pkl` (other zips keep the "not a JSONL log" finding).
 */
export async function isTorchFile(access: FileAccess, path: string, size: number): Promise<boolean> {
  if (size < 4) return false;
  const file = await access.open(path);
  try {
    const head = new Uint8Array(4);
    await file.read(head, 0, 4, 0);
    if (!looksLikeZip(head)) return false;
    if (isPtDumpName(path)) return true;
    try {
      return findDataPkl(await readZipDirectory(file, size)) !== null;
    } catch {
      return false;
    }
  } finally {
    await file.close();
  }
}

function problemFinding(p: PickleProblem, file: string, samples: number): Finding {
  const line = Math.max(1, Math.min(p.sample + 1, Math.max(samples, 1)));
  if (p.kind === 'blocked') {
    return { code: 'pt-unsafe-callable', severity: severityOf('pt-unsafe-callable'), file, line, message: p.message, group: null, dataset: null, fix: null };
  }
  if (p.kind === 'tensor')
    return { code: 'pt-bad-tensor', severity: severityOf('pt-bad-tensor'), file, line, message: p.message, group: null, dataset: null, fix: null };
  const after = p.sample > 0 ? `; the ${p.sample} sample${p.sample === 1 ? '' : 's'} before it were read` : '';
  return {
    code: 'pt-unreadable',
    severity: severityOf('pt-unreadable'),
    file,
    line,
    message: `cannot read this .pt file further: ${p.message}${after}; nothing in it was run`,
    group: null,
    dataset: null,
    fix: null,
  };
}

/**
 * A dump's format from its samples' and its root's: miles' `save_debug_rollout_data` writes
 * `{rollout_id, metadata, samples}`, slime 624b824's `{rollout_id, samples}`
 * (docs/framework-files.md#slime), so a whole root dict without `metadata` is slime's whatever the
 * samples' fields said; with it, the samples' fields decide (formats/detect.ts).
 */
export function dumpFormat(samplesFormat: FormatId, root: unknown, framework: RolloutLensSettings['framework']): FormatId {
  if (samplesFormat !== 'miles-sample' && samplesFormat !== 'slime-sample') return samplesFormat;
  if (framework !== 'miles' && root instanceof PyDict && !root.map.has('metadata') && root.map.has('samples')) return 'slime-pt';
  return samplesFormat === 'slime-sample' ? 'slime-pt' : 'miles-pt';
}

/**
 * A dump's scan. Once the collector reads miles samples through its per-line path, a sample's row
 * is read straight from the pickled dict (`PtSampleReader`, the fast path); its reference twin,
 * `feedLine`, writes the sample's JSON line and feeds it, as for every other sample.
 * `reference` is test-only (formats/referencePaths.ts): `ptLines` feeds every sample's line.
 */
export async function scanPtDump(
  target: { path: string; displayPath: string },
  options: PtDumpScanOptions,
  identity: FileIdentity,
  reference: ReferencePaths = {},
): Promise<ScanState> {
  const { access, settings } = options;
  const collector = new RecordCollector(target.displayPath, settings, buildRule(settings.fields), undefined, undefined, reference);
  const encoder = new TextEncoder();
  const direct = reference.ptLines !== true;
  const rows = new PtSampleReader();
  const pushRow = rows.pushRow.bind(rows);
  const feedLine = (value: unknown, index: number, line: number) => {
    const bytes = encoder.encode(sampleLine(value));
    collector.onLine(bytes, 0, bytes.length, line, index);
  };
  if (options.deflate) collector.offloadDeflate(options.deflate.start());
  let line = 0;
  const keep = options.keepPtLines;
  const r = await readPt(access, target.path, {
    summarize: true,
    fullSamples: keep?.indexes,
    onFullSample: keep === undefined ? undefined : (value, index) => keep.keep(value, index),
    chunkSize: options.chunkSize,
    isCancelled: options.isCancelled,
    onSample: (value, index) => {
      line = index + 1;
      if (direct && collector.takesMilesRows() && collector.pushMilesRow(pushRow, value, index)) return;
      feedLine(value, index, line);
    },
  });
  if (r.cancelled) throw new CancelledError();
  await collector.settleVerdicts();
  options.onProgress?.(target.path, identity.size, identity.size);
  collector.finish();
  const fields = collectedFields(collector.state);
  fields.format = dumpFormat(fields.format, r.root, settings.framework);
  const findings = r.problems.map((p) => problemFinding(p, target.displayPath, r.samples));
  // A dump whose samples could not be reached is not an "unknown format" JSONL file.
  fields.findings = findings.concat(r.samples === 0 && findings.length > 0 ? fields.findings.filter((f) => f.code !== 'unknown-format') : fields.findings);
  return {
    path: target.path,
    displayPath: target.displayPath,
    identity,
    ...fields,
    endOffset: identity.size,
    pending: null,
    lines: line,
    resumedFrom: 0,
    // A .pt is rewritten whole, never appended to: a changed file is read again from the start
    // (no tail fingerprint can match this one).
    resume: { collector: collector.snapshot(), nextLine: line + 1, settingsKey: JSON.stringify(settings), tail: 'pt' },
  };
}
