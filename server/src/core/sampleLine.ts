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

/** Where a sample is: a line's byte offset and length, or for a `.pt` dump its index and summarised line's length. */
export interface SamplePlace {
  offset: number;
  byteLength: number;
}

/** The sample's line as written, or why it cannot be given; never throws. */
export async function readSampleLine(access: FileAccess, path: string, sample: SamplePlace, maxBytes: number): Promise<SampleLine> {
  return (await readSampleLines(access, path, [sample], maxBytes))[0];
}

/**
 * The lines of several samples of one file, in their order; never throws. A `.pt` dump is read
 * from its start at most twice for all of them (each of its samples is only reached by reading
 * the pickle up to it), not twice for each.
 */
export async function readSampleLines(access: FileAccess, path: string, samples: readonly SamplePlace[], maxBytes: number): Promise<SampleLine[]> {
  if (isPtDumpName(path)) return readPtSamples(access, path, samples, maxBytes);
  const lines: SampleLine[] = [];
  for (const sample of samples) lines.push(await readLine(access, path, sample, maxBytes));
  return lines;
}

async function readLine(access: FileAccess, path: string, sample: SamplePlace, maxBytes: number): Promise<SampleLine> {
  if (sample.byteLength > maxBytes) return { bytes: null, unavailable: `the line is ${sample.byteLength} bytes long` };
  let bytes: Uint8Array;
  try {
    bytes = await readRange(access, path, sample.offset, sample.byteLength);
  } catch (err) {
    return { bytes: null, unavailable: `could not re-read the line (${messageOf(err)})` };
  }
  if (bytes.byteLength !== sample.byteLength) return { bytes: null, unavailable: CHANGED };
  return { bytes, unavailable: null };
}

/**
 * Samples N (`offset`) of a `.pt` dump as their export lines. The analysis's `byteLength` is that
 * of the summarised line (number runs counted), so the consistency check reads each sample the way
 * the analysis did and compares; the export line itself keeps every number and is bounded by
 * `maxBytes` as a JSON Lines line is.
 */
async function readPtSamples(access: FileAccess, path: string, samples: readonly SamplePlace[], maxBytes: number): Promise<SampleLine[]> {
  const summarised = await ptSampleValues(access, path, new Set(samples.map((s) => s.offset)), true, (v) => new TextEncoder().encode(sampleLine(v)).byteLength);
  const unchanged = new Set(samples.filter((s) => summarised.values.get(s.offset) === s.byteLength).map((s) => s.offset));
  // A UTF-16 unit is at least one UTF-8 byte: past maxBytes characters the line is too long.
  const texts = await ptSampleValues(access, path, unchanged, false, (v) => boundedSampleLine(v, maxBytes));
  return samples.map((s): SampleLine => {
    const length = summarised.values.get(s.offset);
    if (length === undefined && summarised.failure !== null) return couldNotRead(summarised.failure.error);
    if (length !== s.byteLength) return { bytes: null, unavailable: CHANGED };
    const text = texts.values.get(s.offset);
    if (text === undefined) return texts.failure !== null ? couldNotRead(texts.failure.error) : { bytes: null, unavailable: CHANGED };
    const bytes = text === null ? null : new TextEncoder().encode(text);
    if (bytes === null || bytes.byteLength > maxBytes) return { bytes: null, unavailable: `the sample's line is more than ${maxBytes} bytes long` };
    return { bytes, unavailable: null };
  });
}

function couldNotRead(err: unknown): SampleLine {
  return { bytes: null, unavailable: `could not re-read the sample (${messageOf(err)})` };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * `use` of each sample whose index is in `indexes`, as the pickle machine builds it, applied while
 * it is handed over (its long texts are released after); reading stops right after the last of
 * them. Where reading failed before the last of them (the file could not be opened or read),
 * `failure` says why; a dump whose pickle breaks off just ends before the samples after the break.
 */
async function ptSampleValues<T>(
  access: FileAccess,
  path: string,
  indexes: ReadonlySet<number>,
  summarize: boolean,
  use: (value: unknown) => T,
): Promise<{ values: Map<number, T>; failure: { error: unknown } | null }> {
  const values = new Map<number, T>();
  if (indexes.size === 0) return { values, failure: null };
  try {
    await readPt(access, path, {
      summarize,
      onSample: (value, i) => {
        if (indexes.has(i)) values.set(i, use(value));
      },
      isCancelled: () => values.size === indexes.size,
    });
  } catch (err) {
    return { values, failure: { error: err } };
  }
  return { values, failure: null };
}
