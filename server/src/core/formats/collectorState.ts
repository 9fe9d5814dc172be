// A collector's state (formats/collector.ts): plain data, so a scan can stop at the last complete
// line and resume there when the file grows; its snapshot, restore, and the part a scan keeps.
import { SampleStore } from '../store/sampleStore';
import type { FileKind, Finding, FormatId, MetricsRecord } from '../vocabulary/types';

import { copyInputRun, type InputRunState, type LineInfo } from './context';

/** A valid record seen before the format was known (small: the rule builds only a few fields). */
export interface Candidate {
  value: unknown;
  info: LineInfo;
}

/** Everything a resumed scan needs; arrays are copied on restore, never shared. */
export interface CollectorState {
  format: FormatId;
  kind: FileKind;
  /** True once the format is decided (a match, or `unknown` after the detection window). */
  settled: boolean;
  candidates: Candidate[];
  /** Append-only; a snapshot shares it and keeps its length in `samplesLength`. */
  samples: SampleStore;
  /** In a snapshot: how many of `samples` it holds (rows after it belong to the live collector). */
  samplesLength?: number;
  metricsRecords: MetricsRecord[];
  /** Valid records (for `unknown` files: valid JSON lines). */
  records: number;
  invalidLines: number;
  blankLines: number;
  findings: Finding[];
  /** Findings not stored: past the first `maxProblems` of their severity. */
  droppedFindings: number;
  inputRun: InputRunState;
  rewardProblemReported: boolean;
  /** Rows the framework never counts (verl's batch padding): not samples. */
  paddingRows?: number;
  /** What line 1 showed the file to be when it is not text (then lines are not reported one by one). */
  binary: string | null;
  /**
   * Held while the file looks binary: line 1's own finding, and how many later lines were not
   * reported (from which line). A record of a known format proves the file is text after all (a log
   * whose first line got corrupted): then they are reported.
   */
  binaryFirst?: Finding | null;
  binarySkipped?: number;
  binarySkippedFrom?: number;
  /** Bytes of the first lines looked at for binary content (a short first line alone says little). */
  sniffedBytes?: number;
}

export function emptyCollectorState(): CollectorState {
  return {
    format: 'unknown',
    kind: 'unknown',
    settled: false,
    candidates: [],
    samples: new SampleStore(),
    metricsRecords: [],
    records: 0,
    invalidLines: 0,
    blankLines: 0,
    findings: [],
    droppedFindings: 0,
    inputRun: { ids: new Map() },
    rewardProblemReported: false,
    binary: null,
  };
}

/**
 * A deep-enough copy to resume from later while the collector moves on. The sample store is
 * shared (append-only: the rows it counts never change); `restoreState` copies it.
 */
export function snapshotState(s: CollectorState): CollectorState {
  return {
    ...s,
    candidates: s.candidates.slice(),
    samples: s.samples,
    samplesLength: s.samples.length,
    metricsRecords: s.metricsRecords.slice(),
    findings: s.findings.slice(),
    inputRun: copyInputRun(s.inputRun),
  };
}

/** A snapshot's copy a new collector can resume from (shares nothing the snapshot's owner writes). */
export function restoreState(s: CollectorState): CollectorState {
  return {
    ...s,
    candidates: s.candidates.slice(),
    samples: s.samples.slice(s.samplesLength ?? s.samples.length),
    samplesLength: undefined,
    metricsRecords: s.metricsRecords.slice(),
    findings: s.findings.slice(),
    inputRun: copyInputRun(s.inputRun),
  };
}

/**
 * What a scan keeps of its collector's state (`findings`: the reader's and the format's; the
 * analysis's come later).
 */
export type CollectedFields = Pick<
  CollectorState,
  'format' | 'kind' | 'samples' | 'metricsRecords' | 'records' | 'invalidLines' | 'blankLines' | 'findings' | 'droppedFindings'
>;

/** The part of a scan's result that is the collector's: the same for disk files and open documents. */
export function collectedFields(s: CollectorState): CollectedFields {
  return {
    format: s.format,
    kind: s.kind,
    samples: s.samples,
    metricsRecords: s.metricsRecords,
    records: s.records,
    invalidLines: s.invalidLines,
    blankLines: s.blankLines,
    findings: s.findings,
    droppedFindings: s.droppedFindings,
  };
}
