// Test-only: which fast paths a scan or a bootstrap trades for their reference twins, so the
// differential tests can compare both (test/unit/formats/fastPath.test.ts, lineFastPath.test.ts,
// test/unit/pt/direct.test.ts, test/unit/compare/summaryBytes.test.ts). Production callers pass
// none; no production option type carries these.

export interface ReferencePaths {
  /** Validate with the zod schemas alone (validation/reference.ts), not the fast check first (validation/fast.ts). */
  zodOnly?: boolean;
  /** Scan every line whole (reader/ruleParse.ts + the format's normaliser), never through a per-line path (milesSample/line.ts). */
  fullScan?: boolean;
  /** Feed each `.pt` sample as its JSON line, never its row read straight from the pickle (scan/ptSampleRecord.ts). */
  ptLines?: boolean;
  /** Draw a paired bootstrap's numerators in the JS loop, never in WebAssembly (compare/bootstrap.ts). */
  jsDraws?: boolean;
}
