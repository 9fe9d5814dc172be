// The bounds of the pickle machine (docs/pt.md): what a pickle may claim before reading stops
// with a finding, so no file can make the reader allocate, recurse or loop without end.
export const LIMITS = {
  stack: 1 << 20,
  marks: 1 << 16,
  /** Memo slots kept (slots of released samples are not kept: releasedSamples.ts). */
  memo: 1 << 22,
  depth: 1000,
  /** Digits of a LONG / bytes of a LONG1/LONG4 beyond which an integer is not converted. */
  longBytes: 4096,
  /** Longest text line (protocol 0 arguments, GLOBAL names). */
  line: 64 << 20,
  /** Values visited, over the whole file, to decode again texts that memo reads bring back. */
  rewalk: 1 << 26,
  /** Bytes of texts read back from the memo kept decoded (releasedValues.ts). */
  keptTexts: 8 << 20,
  /** Memo slots never released (a dump's keys are stored by its first sample). */
  keptSlots: 4096,
  /** Samples handed on after a sample before its memo slots are released (releasedSamples.ts). */
  releaseLag: 64,
  /** Released samples read again kept whole (at most `keptTexts` of their bytes). */
  rereadSamples: 256,
  /** Released samples read again to read one again (a sample referring back to another's values). */
  rereadDepth: 64,
  /** Bytes of released samples read again, over the file. */
  rereadBytes: 2 ** 32,
  /** Tensors whose view does not fit their storage named per file (pt-bad-tensor). */
  tensorProblems: 100,
};
