// Which dataset each eval sample belongs to (docs/semantics.md#dataset-of-a-sample): the name the record gives; else,
// for miles eval files, the order in which `index` restarts matched to the eval config's dataset
// order (`dataset <k>` past the config's list, or without a config); else the file's name.
import { fileStem } from '../logFiles';
import type { FormatId, SampleRecord } from '../types';
import type { EvalConfig } from './config';

/** Formats whose eval files hold datasets back to back, each with `index` from 0 (miles dumps). */
const RESTARTING_FORMATS: ReadonlySet<FormatId> = new Set(['miles-sample', 'miles-pt', 'miles-trajectory']);

export interface DatasetPart {
  name: string;
  /** How the name was found: as recorded, by index restart matched to the config, or the file name. */
  source: 'recorded' | 'config-order' | 'index-restart' | 'file-name';
  samples: SampleRecord[];
}

/**
 * Splits one eval file's samples (line order) into datasets, in order of first appearance.
 * miles writes each dataset sorted by `index` (0…N−1), one after another, so a segment starts
 * wherever `index` does not increase (normally: back to 0).
 */
export function splitDatasets(file: string, format: FormatId, samples: readonly SampleRecord[], config: EvalConfig | null): DatasetPart[] {
  const parts = new Map<string, DatasetPart>();
  const add = (name: string, source: DatasetPart['source'], s: SampleRecord) => {
    let part = parts.get(name);
    if (!part) parts.set(name, (part = { name, source, samples: [] }));
    part.samples.push(s);
  };
  const unnamedNeedsOrder = samples.some((s) => s.dataset === null);
  const segments = unnamedNeedsOrder && RESTARTING_FORMATS.has(format) ? indexSegments(samples) : null;
  const configNames = config?.datasets.map((d) => d.name) ?? [];
  const stem = fileStem(file);
  // miles writes every dataset from index 0: several segments are several datasets even when no
  // config names them (each gets its own inferred n).
  const segmentCount = segments ? segments[segments.length - 1] + 1 : 0;
  samples.forEach((s, i) => {
    if (s.dataset !== null) return add(s.dataset, 'recorded', s);
    const seg = segments ? segments[i] : -1;
    if (seg >= 0 && seg < configNames.length) return add(configNames[seg], 'config-order', s);
    if (seg >= 0 && segmentCount > 1) return add(`dataset ${seg + 1}`, 'index-restart', s);
    add(stem, 'file-name', s);
  });
  return [...parts.values()];
}

/** Segment number of each sample: a new segment starts where `index` does not increase. */
function indexSegments(samples: readonly SampleRecord[]): number[] {
  const out: number[] = [];
  let seg = 0;
  let prev: number | null = null;
  for (const s of samples) {
    if (s.index !== null) {
      if (prev !== null && s.index <= prev) seg++;
      prev = s.index;
    }
    out.push(seg);
  }
  return out;
}
