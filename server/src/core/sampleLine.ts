// Re-reading one sample's line from disk, for the views that show more than the scanner kept (the
// hover's detail, the sample view, the run view's excerpts). One owner, so every view gives the
// same reason when a line cannot be shown. A `.pt` dump's samples have no line on disk (their
// `offset` is the sample's index in the pickle), so they are never read by offset.
import type { FileAccess } from './fileAccess';
import { isPtDumpName } from './logFiles';
import { readRange } from './reader/lineReader';

export type SampleLine = { bytes: Uint8Array; unavailable: null } | { bytes: null; unavailable: string };

export const PT_SAMPLE_UNAVAILABLE =
  "a .pt dump's sample is not re-read from disk: open the dump with 'Open miles .pt Dump as JSON Lines' (or rollout-lens export) to see it whole";

/** The sample's line as written, or why it cannot be given; never throws. */
export async function readSampleLine(access: FileAccess, path: string, sample: { offset: number; byteLength: number }, maxBytes: number): Promise<SampleLine> {
  if (isPtDumpName(path)) return { bytes: null, unavailable: PT_SAMPLE_UNAVAILABLE };
  if (sample.byteLength > maxBytes) return { bytes: null, unavailable: `the line is ${sample.byteLength} bytes long` };
  let bytes: Uint8Array;
  try {
    bytes = await readRange(access, path, sample.offset, sample.byteLength);
  } catch (err) {
    return { bytes: null, unavailable: `could not re-read the line (${err instanceof Error ? err.message : String(err)})` };
  }
  if (bytes.byteLength !== sample.byteLength) return { bytes: null, unavailable: 'the file changed since it was analysed' };
  return { bytes, unavailable: null };
}
