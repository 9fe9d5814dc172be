// Re-reading one sample's line from disk, for the views that show more than the scanner kept (the
// hover's detail, the sample view, the run view's excerpts). One owner, so every view gives the
// same reason when a line cannot be shown. A `.pt` dump's samples have no line on disk (their
// `offset` is the sample's index in the pickle): their line is line N of the dump's JSON Lines
// export (docs/pt.md), made by the same inert pickle machine, which stops once sample N is read.
import type { FileAccess } from './fileAccess';
import { isPtDumpName } from './logFiles';
import { readRange } from './reader/lineReader';
import { readPt } from './reader/pt/ptFile';
import { boundedSampleLine, sampleLine } from './reader/pt/serialize';

export type SampleLine = { bytes: Uint8Array; unavailable: null } | { bytes: null; unavailable: string };

const CHANGED = 'the file changed since it was analysed';

/** The sample's line as written, or why it cannot be given; never throws. */
export async function readSampleLine(access: FileAccess, path: string, sample: { offset: number; byteLength: number }, maxBytes: number): Promise<SampleLine> {
  if (isPtDumpName(path)) return readPtSample(access, path, sample, maxBytes);
  if (sample.byteLength > maxBytes) return { bytes: null, unavailable: `the line is ${sample.byteLength} bytes long` };
  let bytes: Uint8Array;
  try {
    bytes = await readRange(access, path, sample.offset, sample.byteLength);
  } catch (err) {
    return { bytes: null, unavailable: `could not re-read the line (${err instanceof Error ? err.message : String(err)})` };
  }
  if (bytes.byteLength !== sample.byteLength) return { bytes: null, unavailable: CHANGED };
  return { bytes, unavailable: null };
}

/**
 * Sample N (`offset`) of a `.pt` dump as its export line. The analysis's `byteLength` is that of
 * the summarised line (number runs counted), so the consistency check reads the sample the way
 * the analysis did and compares; the export line itself keeps every number and is bounded by
 * `maxBytes` as a JSON Lines line is.
 */
async function readPtSample(access: FileAccess, path: string, sample: { offset: number; byteLength: number }, maxBytes: number): Promise<SampleLine> {
  const index = sample.offset;
  try {
    const summarised = await ptSampleText(access, path, index, true, (v) => new TextEncoder().encode(sampleLine(v)).byteLength);
    if (summarised === NOT_FOUND || summarised !== sample.byteLength) return { bytes: null, unavailable: CHANGED };
    // A UTF-16 unit is at least one UTF-8 byte: past maxBytes characters the line is too long.
    const text = await ptSampleText(access, path, index, false, (v) => boundedSampleLine(v, maxBytes));
    if (text === NOT_FOUND) return { bytes: null, unavailable: CHANGED };
    const bytes = text === null ? null : new TextEncoder().encode(text);
    if (bytes === null || bytes.byteLength > maxBytes) return { bytes: null, unavailable: `the sample's line is more than ${maxBytes} bytes long` };
    return { bytes, unavailable: null };
  } catch (err) {
    return { bytes: null, unavailable: `could not re-read the sample (${err instanceof Error ? err.message : String(err)})` };
  }
}

const NOT_FOUND = Symbol('not found');

/**
 * `use` of sample `index` as the pickle machine builds it, applied while it is handed over (its
 * long texts are released after); reading stops right after it.
 */
async function ptSampleText<T>(access: FileAccess, path: string, index: number, summarize: boolean, use: (value: unknown) => T): Promise<T | typeof NOT_FOUND> {
  let found: T | typeof NOT_FOUND = NOT_FOUND;
  await readPt(access, path, {
    summarize,
    onSample: (value, i) => {
      if (i === index) found = use(value);
    },
    isCancelled: () => found !== NOT_FOUND,
  });
  return found;
}
