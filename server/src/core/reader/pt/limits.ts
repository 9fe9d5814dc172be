// The bounds of the pickle machine (docs/pt.md): what a pickle may claim before reading stops
// with a finding, so no file can make the reader allocate, recurse or loop without end.
export const LIMITS = {
  stack: 1 << 20,
  marks: 1 << 16,
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
};
