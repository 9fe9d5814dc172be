// Re-reading one sample's line from disk, for the views that show more than the scanner kept (the
// hover's detail, the sample view, the run view's excerpts). One owner, so every view gives the
// same reason when a line cannot be shown. A `.pt` dump's samples have no line on disk (their
// `offset` is the sample's index in the pickle): their line is line N of the dump's JSON Lines
// export (docs/pt.md), made by the same inert pickle machine, which stops once sample N is read.
import type { FileAccess } from '../seams/fileAccess';
import { readRange } from '../reader/lineReader';
import type { PickleOptions } from '../reader/pt/pickleTypes';
import { readPt } from '../reader/pt/ptFile';
import { isTorchDump } from './ptDumpScan';
import { boundedSampleLine, sampleLine } from '../reader/pt/serialize';

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
  // By content, as the scan decided (a dump need not be named `.pt`).
  if (await isTorchDump(access, path)) return readPtSamples(access, path, samples, maxBytes);
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
 * `maxBytes` as a JSON Lines line is. One reading gives both, each sample built in full from its
 * bytes once it is read summarised; a sample that cannot be built so (it holds numbers of an earlier
 * sample, which the summarised reading counted) is read from a second reading that keeps every
 * number.
 */
async function readPtSamples(access: FileAccess, path: string, samples: readonly SamplePlace[], maxBytes: number): Promise<SampleLine[]> {
  const indexes = new Set(samples.map((s) => s.offset));
  const summarised = new Map<number, number>();
  const kept = new KeptPtLines(indexes, maxBytes);
  const notBuilt = new Set<number>();
  let failure = await readPtSampleValues(access, path, {
    summarize: true,
    fullSamples: indexes,
    onSample: (v, i) => {
      if (indexes.has(i)) summarised.set(i, new TextEncoder().encode(sampleLine(v)).byteLength);
    },
    onFullSample: (v, i) => {
      if (v === undefined) notBuilt.add(i);
      else kept.keep(v, i);
    },
    isCancelled: () => kept.size + notBuilt.size === indexes.size,
  });
  const unchanged = new Set(samples.filter((s) => notBuilt.has(s.offset) && summarised.get(s.offset) === s.byteLength).map((s) => s.offset));
  if (failure === null && unchanged.size > 0) {
    let read = 0;
    failure = await readPtSampleValues(access, path, {
      summarize: false,
      onSample: (v, i) => {
        if (!unchanged.has(i)) return;
        kept.keep(v, i);
        read++;
      },
      isCancelled: () => read === unchanged.size,
    });
  }
  return samples.map((s): SampleLine => {
    const length = summarised.get(s.offset);
    if (length === undefined && failure !== null) return couldNotRead(failure.error);
    if (length !== s.byteLength) return { bytes: null, unavailable: CHANGED };
    return kept.line(s.offset) ?? (failure !== null ? couldNotRead(failure.error) : { bytes: null, unavailable: CHANGED });
  });
}

/**
 * An export line made by `boundedSampleLine(…, maxBytes)` (null: it passed `maxBytes` characters)
 * as a sample's line. A UTF-16 unit is at least one UTF-8 byte: past maxBytes characters the line
 * is too long.
 */
function exportedLine(text: string | null, maxBytes: number): SampleLine {
  const bytes = text === null ? null : new TextEncoder().encode(text);
  if (bytes === null || bytes.byteLength > maxBytes) return { bytes: null, unavailable: `the sample's line is more than ${maxBytes} bytes long` };
  return { bytes, unavailable: null };
}

/**
 * Lines of a `.pt` dump's samples kept while the analysis reads the dump (a scan's `keepPtLines`):
 * the analysis's own reading builds them in full as it hands them on (PickleOptions'
 * `fullSamples`), so `rollout-lens inspect` needs no reading of its own. A sample the reading
 * cannot build alone (see `readPtSamples`) is not kept: read it with `readSampleLine`.
 */
export class KeptPtLines {
  private readonly texts = new Map<number, string | null>();

  /** `indexes`: samples by their index in the dump (line N is index N − 1). */
  constructor(
    readonly indexes: ReadonlySet<number>,
    private readonly maxBytes: number,
  ) {}

  /** Keeps sample `index`'s line, from its value built in full (undefined: it could not be). */
  keep(value: unknown, index: number): void {
    if (value !== undefined) this.texts.set(index, boundedSampleLine(value, this.maxBytes));
  }

  /** Lines kept. */
  get size(): number {
    return this.texts.size;
  }

  /** Sample `index`'s line, as `readSampleLine` gives it; undefined: not kept. */
  line(index: number): SampleLine | undefined {
    const text = this.texts.get(index);
    return text === undefined ? undefined : exportedLine(text, this.maxBytes);
  }
}

function couldNotRead(err: unknown): SampleLine {
  return { bytes: null, unavailable: `could not re-read the sample (${messageOf(err)})` };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * A reading of the dump with `options`, stopped by their `isCancelled`; where it failed before
 * (the file could not be opened or read), why. A dump whose pickle breaks off just ends before
 * the samples after the break.
 */
async function readPtSampleValues(access: FileAccess, path: string, options: PickleOptions): Promise<{ error: unknown } | null> {
  try {
    await readPt(access, path, options);
  } catch (err) {
    return { error: err };
  }
  return null;
}
