// One file → its records and reader/format findings, resumable: a `ScanState` remembers where the
// last complete line ended, so when a live log grows only the new bytes are read. A shrunk or
// replaced file (other identity, or different bytes before the resume point) is read again from
// the start. A last line without `\n` is not committed: it is re-read on the next scan.
import type { RolloutLensSettings } from '../vocabulary/settings';
import { CancelledError } from '../seams/cancellation';
import type { FileAccess } from '../seams/fileAccess';
import { RecordCollector } from '../formats/collector';
import { type CollectedFields, collectedFields, type CollectorState, restoreState } from '../formats/collectorState';
import type { ReferencePaths } from '../formats/referencePaths';
import { buildRule } from '../formats/rule';
import type { KeptPtLines } from './sampleLine';

import type { DeflateOffload } from '../reader/deflateJobs';
import { hashBytes } from '../reader/hash';
import { decodeParsedValue } from '../reader/lineParse';
import { chunkSizeFor, type ReadLinesResult, readLines, readRange } from '../reader/lineReader';
import type { ParallelScanner } from '../seams/hostSeams';
import { isTorchFile, scanPtDump } from './ptDumpScan';

export interface FileIdentity {
  id: string | null;
  size: number;
  mtimeMs: number;
}

export interface ScanState extends CollectedFields {
  path: string;
  displayPath: string;
  identity: FileIdentity;
  /** Offset after the last complete line: where a resumed scan starts. */
  endOffset: number;
  /** The unterminated last line, if any (re-read on resume). */
  pending: { line: number; offset: number; byteLength: number } | null;
  /** Lines in the file as read, the pending one included. */
  lines: number;
  /** How this scan started: from 0, or resumed from a previous state's end. */
  resumedFrom: number;
  /** @internal resume data: the collector's state at `endOffset`, settings, and a check of the bytes before it. */
  resume: { collector: CollectorState; nextLine: number; settingsKey: string; tail: string };
}

/**
 * How a file is scanned: the one list of these options (the engine's and the `.pt` scan's take
 * theirs from it).
 */
export interface ScanOptions {
  access: FileAccess;
  settings: RolloutLensSettings;
  isCancelled?: () => boolean;
  /** Called as bytes are read: (file, bytesRead, totalBytes). */
  onProgress?: (file: string, bytesRead: number, totalBytes: number) => void;
  /** Read size per chunk (default: by the file's size, `chunkSizeFor`). */
  chunkSize?: number;
  /** Scans big files' byte ranges on worker threads (the CLI's; same results); omitted: this thread. */
  parallel?: ParallelScanner;
  /** Compresses long responses' tails on another thread (same results); omitted: this thread does. */
  deflate?: DeflateOffload;
  /** A `.pt` dump's sample lines to keep as it is read (the CLI's `inspect`). */
  keepPtLines?: KeptPtLines;
}

const EDGE_CHECK = 256;

/**
 * A fingerprint of the committed bytes: the first and the last 256 before `end`. A file rewritten
 * in place (same inode, not shorter) almost surely changes one of them.
 */
async function tailHash(access: FileAccess, path: string, end: number): Promise<string> {
  const tailStart = Math.max(0, end - EDGE_CHECK);
  const tail = await readRange(access, path, tailStart, end - tailStart);
  const head = tailStart === 0 ? tail : await readRange(access, path, 0, Math.min(EDGE_CHECK, end));
  return `${hashBytes(head, 0, head.length)}:${hashBytes(tail, 0, tail.length)}`;
}

async function canResume(previous: ScanState | undefined, path: string, identity: FileIdentity, settingsKey: string, access: FileAccess): Promise<boolean> {
  if (!previous || previous.path !== path || previous.resume.settingsKey !== settingsKey) return false;
  if (previous.identity.id !== identity.id || identity.size < previous.identity.size) return false;
  if (identity.size < previous.endOffset) return false;
  // Same size but modified: rewritten in place (appends always grow a log), possibly while the
  // previous scan was reading it, so what that scan read may be torn: read it again.
  if (identity.size === previous.identity.size && identity.mtimeMs !== previous.identity.mtimeMs) return false;
  // Same inode and not shorter, but rewritten in place? The bytes before the resume point tell.
  return (await tailHash(access, path, previous.endOffset)) === previous.resume.tail;
}

/**
 * Scans one file. `reference` is test-only: the differential tests take the fast paths' reference
 * twins (formats/referencePaths.ts); production callers pass none.
 */
export async function scanLineFile(
  target: { path: string; displayPath: string },
  options: ScanOptions,
  previous?: ScanState,
  reference?: ReferencePaths,
): Promise<ScanState> {
  const { access, settings } = options;
  const st = await access.stat(target.path);
  if (!st.isFile) throw new Error(`${target.displayPath}: not a file`);
  const identity: FileIdentity = { id: st.id, size: st.size, mtimeMs: st.mtimeMs };
  // torch.save dumps (miles' rollout_data/*.pt) are zips around a pickle, not lines: docs/pt.md.
  if (await isTorchFile(access, target.path, st.size)) return scanPtDump(target, options, identity, reference);
  const settingsKey = JSON.stringify(settings);
  const resume = await canResume(previous, target.path, identity, settingsKey, access);
  const rule = buildRule(settings.fields);
  const newCollector = () =>
    new RecordCollector(target.displayPath, settings, rule, resume && previous ? restoreState(previous.resume.collector) : undefined, undefined, reference);
  let collector = newCollector();
  const startOffset = resume && previous ? previous.endOffset : 0;
  const startLine = resume && previous ? previous.resume.nextLine : 1;

  const onProgress = (position: number, size: number) => options.onProgress?.(target.path, position, Math.max(size, identity.size));
  const offload = () => {
    if (options.deflate) collector.offloadDeflate(options.deflate.start());
  };
  const readHere = () =>
    readLines(
      access,
      target.path,
      {
        startOffset,
        startLine,
        chunkSize: options.chunkSize ?? chunkSizeFor(identity.size - startOffset),
        isCancelled: options.isCancelled,
        onChunk: onProgress,
      },
      (ref) => collector.onLine(ref.bytes, ref.start, ref.end, ref.line, ref.offset),
    );
  const parallel = options.parallel;
  let read: ReadLinesResult;
  if (parallel && parallel.wants(target.path, identity.size - startOffset)) {
    try {
      read = await readParallel(
        parallel,
        access,
        target.path,
        { start: startOffset, end: identity.size, startLine },
        settings,
        collector,
        options.isCancelled,
        onProgress,
      );
    } catch {
      // A worker died (out of memory on a hostile line, crashed) or the file changed under the
      // ranges: read it again on this thread, from a fresh collector, rather than lose the file.
      collector = newCollector();
      offload();
      read = await readHere();
    }
  } else {
    offload();
    read = await readHere();
  }
  if (read.cancelled) throw new CancelledError();
  await collector.settleVerdicts();

  const committed = collector.snapshot();
  let pending: ScanState['pending'] = null;
  if (read.pending) {
    const p = read.pending;
    let end = p.bytes.length;
    if (end > 0 && p.bytes[end - 1] === 0x0d) end--;
    pending = { line: p.line, offset: p.offset, byteLength: end };
    collector.onPendingLine(p.bytes, 0, end, p.line, p.offset);
  }
  collector.finish();
  return {
    path: target.path,
    displayPath: target.displayPath,
    identity,
    ...collectedFields(collector.state),
    endOffset: read.endOffset,
    pending,
    lines: read.nextLine - 1 + (read.pending ? 1 : 0),
    resumedFrom: startOffset,
    resume: { collector: committed, nextLine: read.nextLine, settingsKey, tail: await tailHash(access, target.path, read.endOffset) },
  };
}

/**
 * The parallel path of `scanLineFile`: scanned lines come back in file order and are numbered and fed
 * to the same collector as on the single-threaded path; the pending last line is read here.
 */
async function readParallel(
  parallel: ParallelScanner,
  access: FileAccess,
  path: string,
  range: { start: number; end: number; startLine: number },
  settings: RolloutLensSettings,
  collector: RecordCollector,
  isCancelled: (() => boolean) | undefined,
  onProgress: (position: number, size: number) => void,
): Promise<ReadLinesResult> {
  let line = range.startLine;
  const result = await parallel.scan(path, range.start, range.end, settings.fields, {
    isCancelled,
    onProgress: (position) => onProgress(position, range.end),
    onLines: (lines) => {
      for (const l of lines) {
        const scan = l.scan.type === 'ok' ? { type: 'ok' as const, value: decodeParsedValue(l.scan.value) } : l.scan;
        collector.onScanned(scan, line++, l.offset, l.byteLength);
      }
    },
  });
  const p = result.pending;
  const pending = p ? { bytes: await readRange(access, path, p.offset, p.byteLength), line, offset: p.offset } : null;
  // A BOM is skipped by the range that starts at 0 (same reader); its length is not used here.
  return { endOffset: result.endOffset, nextLine: line, pending, bomLength: 0, cancelled: result.cancelled };
}
