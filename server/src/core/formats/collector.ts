// Turns the lines of one file into records: scan JSON, detect the format from the first valid
// records, normalise, and collect findings. Its state is plain data so a scan can stop at the last
// complete line and resume there when the file grows (collectorState.ts: `snapshot` / `restore`).
import type { RolloutLensSettings } from '../vocabulary/settings';
import { severityOf, type FindingCode } from '../vocabulary/catalog';
import type { DeflateJobs } from '../reader/deflateJobs';
import type { Rule } from '../reader/jsonRule';
import { type ParsedLogLine, parseLogLine } from '../reader/lineParse';
import { RuleParser } from '../reader/ruleParse';
import type { SampleStore } from '../store/sampleStore';
import { countBySeverity } from '../findingCap';
import type { Finding, Severity } from '../vocabulary/types';

import { type CollectorState, emptyCollectorState, snapshotState } from './collectorState';
import type { LineInfo, NormalizeContext } from './context';
import { rewardKeyFor, zeroStdRewardKeyFor } from './context';
import { DETECTION_WINDOW, detectRecord } from './detect';
import { isSampleDump } from '../vocabulary/frameworks';
import { type CheckedField, fieldShapeMessage } from './fieldShape';
import { MilesLineReader } from './milesSample/line';
import { OffloadedVerdicts } from './offloadedVerdicts';
import { normalizeRecord } from './normalize';
import type { ReferencePaths } from './referencePaths';

const PADDING_MESSAGE =
  "verl's batch padding: rows with uid pad<hex>_<i>_0 and empty input and output were added by upsample_batch_to_divisible_size so the batch divides over the data-parallel ranks; verl's metrics leave them out, and so does this report (they are not samples)";

/** How far into a file that has shown no valid JSON yet lines are sniffed for binary content. */
const SNIFF_WINDOW = 512;

export class RecordCollector {
  readonly state: CollectorState;
  private ctx: NormalizeContext | null = null;
  /** The per-line path of settled miles-sample files (milesSample/line.ts); null: every line is scanned whole. */
  private lineReader: MilesLineReader | null = null;
  /** This scan's JSON builder (reader/ruleParse.ts): its position and short strings are its own. */
  private readonly parser = new RuleParser();
  /** Verdicts the per-line path left to another thread until `settleVerdicts`. */
  private offloaded: OffloadedVerdicts | null = null;
  /** Findings kept of each severity (counted from the state's on the first finding: a resumed scan's). */
  private held: Record<Severity, number> | null = null;

  constructor(
    private readonly displayPath: string,
    private readonly settings: RolloutLensSettings,
    private readonly rule: Rule,
    state?: CollectorState,
    /** Normalises one record (an editor passes a memo over kept line scans). */
    private readonly normalize: typeof normalizeRecord = normalizeRecord,
    /** Test-only: reference paths instead of the fast ones (the differential tests). */
    private readonly reference: ReferencePaths = {},
  ) {
    this.state = state ?? emptyCollectorState();
    if (this.state.settled && this.state.format !== 'unknown') this.setContext();
  }

  private setContext(): void {
    this.ctx = this.makeContext();
    // Only with the default rule (no `fields` mapping reshapes what the full scan builds) and the
    // default normaliser, whose records the per-line path reproduces.
    const plainRule = !Object.values(this.settings.fields ?? {}).some((pointer) => typeof pointer === 'string');
    const fast =
      isSampleDump(this.state.format) && plainRule && this.reference.zodOnly !== true && this.reference.fullScan !== true && this.normalize === normalizeRecord;
    this.lineReader = fast ? new MilesLineReader(this.rule) : null;
  }

  /**
   * From now on the per-line path may leave the compression of long responses' tails to `jobs`
   * (reader/deflateJobs.ts); `settleVerdicts` must then run before the samples are read.
   */
  offloadDeflate(jobs: DeflateJobs): void {
    this.offloaded = new OffloadedVerdicts(jobs);
  }

  /** Waits for the offloaded verdicts and writes them into the samples; later lines compress here. */
  async settleVerdicts(): Promise<void> {
    const offloaded = this.offloaded;
    if (offloaded === null) return;
    this.offloaded = null;
    await offloaded.settle(this.state.samples);
  }

  /**
   * A deep-enough copy to resume from later while this collector moves on. The sample store is
   * shared (append-only: the rows it counts never change); `restoreState` copies it.
   */
  snapshot(): CollectorState {
    return snapshotState(this.state);
  }

  addFinding(code: FindingCode, line: number, message: string, column?: number): void {
    this.pushFinding(this.makeFinding(code, line, message, column));
  }

  private makeFinding(code: FindingCode, line: number, message: string, column?: number): Finding {
    const finding: Finding = { code, severity: severityOf(code), file: this.displayPath, line, message, group: null, dataset: null, fix: null };
    if (column !== undefined) finding.column = column;
    return finding;
  }

  /**
   * Keeps the first `maxProblems` findings of each severity, counts the rest: the engine's cap
   * (core/findingCap.ts) keeps the most severe `maxProblems`, each among these.
   */
  private pushFinding(finding: Finding): void {
    const held = (this.held ??= countBySeverity(this.state.findings));
    if (held[finding.severity] >= this.settings.maxProblems) {
      this.state.droppedFindings++;
      return;
    }
    held[finding.severity]++;
    this.state.findings.push(finding);
  }

  /**
   * A non-JSON line near the start of a file that has shown no valid JSON: is the file binary?
   * Looked at until SNIFF_WINDOW bytes were seen, since random data can start with a short line.
   */
  /** Whether a non-JSON line here would be sniffed (so a scan asks `parseLogLine` for it). */
  private wantsSniff(): boolean {
    const s = this.state;
    return s.binary === null && s.records === 0 && s.candidates.length === 0 && (s.sniffedBytes ?? 0) < SNIFF_WINDOW;
  }

  private sniffScanned(scan: Extract<ParsedLogLine, { type: 'invalid' }>, byteLength: number): void {
    if (!this.wantsSniff()) return;
    const s = this.state;
    s.sniffedBytes = (s.sniffedBytes ?? 0) + byteLength + 1;
    s.binary = scan.binary ?? null;
  }

  /** A non-JSON line while the file looks binary: held, not reported (see `binaryFirst`). */
  private holdWhileBinary(line: number, message: string, column: number): void {
    const s = this.state;
    if (!s.binaryFirst && !s.binarySkipped) {
      s.binaryFirst = this.makeFinding('invalid-json', line, message, column);
    } else {
      if (!s.binarySkipped) s.binarySkippedFrom = line;
      s.binarySkipped = (s.binarySkipped ?? 0) + 1;
    }
  }

  /** A known format's record showed up: the file is a text log with a bad first line. */
  private notBinary(atLine: number): void {
    const s = this.state;
    s.binary = null;
    if (s.binaryFirst) this.pushFinding(s.binaryFirst);
    const skipped = s.binarySkipped ?? 0;
    if (skipped > 0) {
      const from = s.binarySkippedFrom ?? 2;
      this.addFinding(
        'invalid-json',
        from,
        `invalid JSON: ${skipped} of lines ${from}-${atLine - 1} are not JSON (not reported one by one while the file's start looked binary)`,
      );
    }
    s.binaryFirst = null;
    s.binarySkipped = 0;
  }

  /**
   * A last line without `\n`. Blank or one complete JSON value: a line like any other (hand-written
   * files often end so). In a binary file: one more non-JSON line. Else a line still being
   * written: `truncated-line`, not an error.
   */
  onPendingLine(bytes: Uint8Array, start: number, end: number, line: number, offset: number): void {
    this.onPendingScanned(parseLogLine(bytes, start, end, this.rule, this.wantsSniff(), this.parser), line, offset, end - start);
  }

  /**
   * True when a row read without its line may be pushed (`pushMilesRow`): the file is settled as
   * miles samples read through the per-line path. A `.pt` dump reads the same rows from its
   * pickled samples (scan/ptSampleRecord.ts).
   */
  takesMilesRows(): boolean {
    return this.lineReader !== null;
  }

  /**
   * The row `push` reads from sample `index` (`value`) without a line into the store, as the
   * per-line path pushes a line's (see `takesMilesRows`); false when it could not, and the
   * sample's line is to be fed instead. `push` notes a tail the offloaded jobs took (its
   * `repetition` is false until the scan settles it).
   */
  pushMilesRow<T>(push: (value: T, index: number, store: SampleStore, offloaded: OffloadedVerdicts | null) => boolean, value: T, index: number): boolean {
    if (!push(value, index, this.state.samples, this.offloaded)) return false;
    this.state.records++;
    return true;
  }

  /** One line (without its end-of-line). */
  onLine(bytes: Uint8Array, start: number, end: number, line: number, offset: number): void {
    if (this.lineReader !== null) {
      if (this.lineReader.readInto(bytes, start, end, line, offset, this.state.samples, this.offloaded)) {
        this.state.records++;
        return;
      }
    }
    this.onScanned(parseLogLine(bytes, start, end, this.rule, this.wantsSniff(), this.parser), line, offset, end - start);
  }

  /**
   * `onPendingLine` for a line scanned earlier (an editor keeps its lines' scans between edits).
   * An invalid line must carry `binary` when `wantsSniff` could hold for it.
   */
  onPendingScanned(scan: ParsedLogLine, line: number, offset: number, byteLength: number): void {
    if (scan.type !== 'invalid') {
      this.onScanned(scan, line, offset, byteLength);
      return;
    }
    this.sniffScanned(scan, byteLength);
    if (this.state.binary !== null) {
      this.state.invalidLines++;
      return;
    }
    this.addFinding('truncated-line', line, 'incomplete last line: no end of line yet (the file may still be written); it is read again when the file grows');
  }

  /** `onLine` for a line scanned earlier (a scan worker, an editor's kept scans): same records and findings. */
  onScanned(scan: ParsedLogLine, line: number, offset: number, byteLength: number): void {
    if (scan.type === 'blank') {
      this.state.blankLines++;
      return;
    }
    if (scan.type === 'invalid') {
      this.state.invalidLines++;
      this.sniffScanned(scan, byteLength);
      const message = `invalid JSON: ${scan.reason} at column ${scan.column}`;
      if (this.state.binary !== null) this.holdWhileBinary(line, message, scan.column);
      else this.addFinding('invalid-json', line, message, scan.column);
      return;
    }
    const info: LineInfo = { line, offset, byteLength };
    if (!this.state.settled) {
      this.state.candidates.push({ value: scan.value, info });
      this.tryDetect(scan.value, line);
      return;
    }
    this.accept(scan.value, info);
  }

  private makeContext(): NormalizeContext {
    const s = this.state;
    return {
      format: s.format,
      kind: s.kind,
      settings: this.settings,
      rewardKey: rewardKeyFor(s.kind, this.settings),
      zeroStdRewardKey: zeroStdRewardKeyFor(s.kind, this.settings),
      inputRun: s.inputRun,
      reference: this.reference,
      shapes: s.samples.shapes,
    };
  }

  private tryDetect(value: unknown, line: number): void {
    const s = this.state;
    const found = detectRecord(value, this.displayPath, this.settings);
    if (found === null && s.candidates.length < DETECTION_WINDOW) return;
    s.settled = true;
    if (found !== null) {
      s.format = found.format;
      s.kind = found.kind;
      this.setContext();
      if (s.binary !== null) this.notBinary(line);
    }
    const waiting = s.candidates;
    s.candidates = [];
    for (const c of waiting) this.accept(c.value, c.info);
  }

  private accept(value: unknown, info: LineInfo): void {
    const s = this.state;
    if (this.ctx === null) {
      s.records++; // unknown format: a valid JSON line, nothing to normalise
      return;
    }
    const out = this.normalize(value, info, this.ctx);
    if (out.type === 'invalid') {
      s.invalidLines++;
      this.addFinding('invalid-record', info.line, out.message);
      return;
    }
    s.records++;
    if (out.type === 'padding') {
      s.paddingRows = (s.paddingRows ?? 0) + 1;
      if (s.paddingRows === 1) this.addFinding('verl-padding-rows', info.line, PADDING_MESSAGE);
      return;
    }
    if (out.type === 'metrics') {
      s.metricsRecords.push(out.metrics);
      return;
    }
    s.samples.push(out.sample);
    if (out.rewardProblem !== null && !s.rewardProblemReported) {
      s.rewardProblemReported = true;
      this.addFinding('invalid-record', info.line, `${out.rewardProblem}; rewards of this file count as missing`);
    }
  }

  /** End of the readable lines: settle detection; `unknown-format` when nothing matched. */
  finish(): void {
    const s = this.state;
    if (!s.settled) {
      s.settled = true;
      const waiting = s.candidates;
      s.candidates = [];
      for (const c of waiting) this.accept(c.value, c.info);
    }
    // A field of another shape, once per file (docs/diagnostics.md#field-shape).
    for (const [field, note] of Object.entries(s.samples.shapes) as [CheckedField, { line: number; shape: string }][])
      this.addFinding('field-shape', note.line, fieldShapeMessage(field, note));
    if (s.binary !== null) {
      this.addFinding(
        'unknown-format',
        1,
        `unknown log format: this is ${s.binary}; its ${s.invalidLines} line${s.invalidLines === 1 ? '' : 's'} that are not JSON are not reported one by one`,
      );
    } else if (s.format === 'unknown') {
      const what = s.records === 0 && s.invalidLines === 0 ? 'the file holds no records' : 'no known log format matched its first records';
      const hint = this.settings.fields.groupKey ? '' : '; map its fields with the `fields` setting to read it as `generic`';
      this.addFinding(
        'unknown-format',
        1,
        `unknown log format: ${what} (miles samples, trajectories, eval trials, metrics; verl rollout or validation dumps)${hint}`,
      );
    }
  }
}
