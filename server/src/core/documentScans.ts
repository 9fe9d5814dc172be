// Per-line scans of an open document, kept between edits so an edit re-scans only the lines it
// touched. A line's scan (blank, a compact JSON value built by the rule, or a syntax error) does
// not depend on the lines around it; everything that does (format detection, prompt runs, group
// keys, findings, byte offsets) is rebuilt by replaying the scans through the record collector,
// which is cheap next to scanning. The result is the ScanState a full scan of the same text gives.
import type { RolloutLensSettings } from './vocabulary/settings';
import { RecordCollector } from './formats/collector';
import { type LineInfo, metricsAt, type Normalized, type NormalizeContext, sampleMovedTo } from './formats/context';
import { normalizeRecord } from './formats/normalize';
import { buildRule } from './formats/rule';
import { lineBuffer } from './reader/lineBuffers';
import { type ParsedLogLine, parseLogLine } from './reader/lineParse';
import { RuleParser } from './reader/ruleParse';
import type { ScanState } from './scan/lineFileScan';
import { collectedFields } from './formats/collectorState';

/** The text of an open document, line by line (lines as an editor counts them). */
export interface LineSource {
  readonly lineCount: number;
  /** Line `i` (0-based) with its end-of-line, if it has one. */
  lineText(i: number): string;
}

interface Entry {
  scan: ParsedLogLine;
  /** UTF-8 bytes of the line's content (no BOM, no end-of-line). */
  byteLength: number;
  /** UTF-8 bytes of the whole line (BOM and end-of-line included). */
  totalBytes: number;
  /** 0, or 1 for `\n`, 2 for `\r\n`. */
  eol: number;
  /** The line ends with a lone `\r`: a line break for the editor, not for the scanner. */
  loneCr: boolean;
  /** Line 1 starts with a byte-order mark (the scanner skips its 3 bytes). */
  bom: boolean;
}

/** The lines of one analysed version and their byte starts: maps a byte range back to its text. */
export interface LineLayout {
  lines: readonly string[];
  byteStarts: Float64Array;
}

export class DocumentScans {
  /** One slot per editor line; undefined: not scanned since it changed. */
  private entries: (Entry | undefined)[] = [];
  private ruleKey = '';
  private readonly lineScanner = new LineScanner();

  /** Forget every scan (a full-text change). */
  reset(lineCount: number): void {
    this.entries = new Array<Entry | undefined>(lineCount).fill(undefined);
  }

  /**
   * An edit replaced lines `from..to` (0-based, inclusive) with `count` lines: those become
   * unscanned, the lines after them shift.
   */
  replace(from: number, to: number, count: number): void {
    if (from > this.entries.length) {
      this.reset(0);
      return;
    }
    const fresh = new Array<Entry | undefined>(count).fill(undefined);
    if (count < 10_000) this.entries.splice(from, to - from + 1, ...fresh);
    else this.entries = this.entries.slice(0, from).concat(fresh, this.entries.slice(to + 1));
  }

  /** Lines scanned by the last `refresh` (for tests and the bench). */
  lastRescanned = 0;

  /**
   * Scans the lines that changed (all of them when the field mapping changed or the line count
   * went out of step with the source). False when the text needs a full scan instead: a lone `\r`
   * breaks lines for the editor but not for the scanner.
   */
  refresh(source: LineSource, settings: RolloutLensSettings): boolean {
    const key = JSON.stringify(settings.fields ?? {});
    if (key !== this.ruleKey || this.entries.length !== source.lineCount) {
      this.ruleKey = key;
      this.reset(source.lineCount);
    }
    const rule = buildRule(settings.fields);
    let rescanned = 0;
    let ok = true;
    for (let i = 0; i < this.entries.length; i++) {
      let e = this.entries[i];
      // A BOM is one only at the file's start: a line that moved to or from line 1 may read otherwise.
      if (e !== undefined && (i === 0 ? e.bom !== (source.lineText(0).charCodeAt(0) === 0xfeff) : e.bom)) e = undefined;
      if (e === undefined) {
        e = this.lineScanner.scan(source.lineText(i), i === 0, rule);
        this.entries[i] = e;
        rescanned++;
      }
      if (e.loneCr) ok = false;
    }
    this.lastRescanned = rescanned;
    return ok;
  }

  /**
   * Normalised records by scanned value (kept scans keep their value objects): replaying an
   * unchanged line reuses its record with the line's new position instead of validating it again
   * (per-record validation dominates a replay of many short lines). Not for verl, whose group keys
   * depend on the records before (runs of the same input).
   */
  private memo = new WeakMap<object, { key: string; out: Normalized }>();

  private memoized(settingsKey: string): typeof normalizeRecord {
    return (value: unknown, info: LineInfo, ctx: NormalizeContext): Normalized => {
      if (value === null || typeof value !== 'object' || ctx.format === 'verl-rollout' || ctx.format === 'verl-validation')
        return normalizeRecord(value, info, ctx);
      const key = `${ctx.format}\u0000${ctx.kind}\u0000${ctx.rewardKey}\u0000${ctx.zeroStdRewardKey}\u0000${settingsKey}`;
      const hit = this.memo.get(value);
      const out = hit && hit.key === key ? hit.out : normalizeRecord(value, info, ctx);
      if (!hit || hit.key !== key) this.memo.set(value, { key, out });
      if (out.type === 'sample') return { type: 'sample', sample: sampleMovedTo(out.sample, info), rewardProblem: out.rewardProblem };
      if (out.type === 'metrics') return { type: 'metrics', metrics: metricsAt(out.metrics, info) };
      return out;
    };
  }

  /** Replays the scans through a collector: the ScanState of a full scan of this text. */
  scanState(path: string, displayPath: string, settings: RolloutLensSettings): ScanState {
    const collector = new RecordCollector(displayPath, settings, buildRule(settings.fields), undefined, this.memoized(JSON.stringify(settings)));
    let offset = 0;
    let line = 1;
    let endOffset = 0;
    let pending: ScanState['pending'] = null;
    for (const e of this.entries) {
      if (e === undefined) throw new Error('DocumentScans.scanState before refresh');
      const start = offset + (e.bom ? 3 : 0);
      if (e.eol > 0) {
        collector.onScanned(e.scan, line, start, e.byteLength);
        endOffset = offset + e.totalBytes;
      } else if (e.totalBytes > (e.bom ? 3 : 0)) {
        pending = { line, offset: start, byteLength: e.byteLength };
        collector.onPendingScanned(e.scan, line, start, e.byteLength);
      }
      offset += e.totalBytes;
      if (e.eol > 0 || pending) line++;
    }
    collector.finish();
    return {
      path,
      displayPath,
      identity: { id: null, size: offset, mtimeMs: 0 },
      ...collectedFields(collector.state),
      endOffset,
      pending,
      lines: line - 1,
      resumedFrom: 0,
      // Never resumed: an open document is re-analysed from its kept line scans instead.
      resume: { collector: collector.snapshot(), nextLine: line, settingsKey: '', tail: '' },
    };
  }

  /** Where each line of this version (`lines`, as scanned by the last refresh) starts in bytes. */
  layout(lines: readonly string[]): LineLayout {
    const n = this.entries.length;
    const byteStarts = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) byteStarts[i + 1] = byteStarts[i] + this.entries[i]!.totalBytes;
    return { lines, byteStarts };
  }
}

const encoder = new TextEncoder();
const MAX_SCRATCH = 16 * 1024 * 1024;

/** Scans one line's text at a time: a document's own byte buffer and rule parser. */
class LineScanner {
  private scratch: Uint8Array | null = null;
  private readonly parser = new RuleParser();

  scan(full: string, first: boolean, rule: ReturnType<typeof buildRule>): Entry {
    let end = full.length;
    let eol = 0;
    let loneCr = false;
    if (full.endsWith('\r\n')) eol = 2;
    else if (full.endsWith('\n')) eol = 1;
    else if (full.endsWith('\r')) loneCr = true;
    end -= eol;
    const bom = first && full.charCodeAt(0) === 0xfeff;
    const content = full.slice(bom ? 1 : 0, end);
    // Encoded into one reused buffer (`lineBuffer`: the scanner's fast paths): a 40 MB document does not allocate 40 MB of line copies (the
    // scan builds its values as new strings and numbers, never views of these bytes).
    let scratch = this.scratch ?? lineBuffer(64 * 1024);
    if (scratch.length < content.length * 3) scratch = lineBuffer(Math.max(content.length * 3, 2 * scratch.length));
    const length = encoder.encodeInto(content, scratch).written;
    const totalBytes = length + eol + (bom ? 3 : 0);
    // The collector sniffs an invalid line only near a file's start; which lines those are depends
    // on the lines before, so every invalid line carries its sniff (cheap: it looks at a prefix).
    const scan = parseLogLine(scratch, 0, length, rule, true, this.parser);
    this.scratch = scratch.length > MAX_SCRATCH ? null : scratch; // don't keep a huge line's buffer
    return { scan, byteLength: length, totalBytes, eol, loneCr, bom };
  }
}
