// Which dataset each eval sample belongs to (docs/semantics.md#dataset-of-a-sample): the name the record gives (for
// miles eval files, a name an eval config entry's `metadata_overrides` wrote is that entry's
// `name`, under which miles logs it); else, for miles eval files, the order in which `index`
// restarts matched to the eval config's dataset order (`dataset <k>` past the config's list, or
// without a config); else the file's name.
import { fileStem } from '../vocabulary/logFiles';
import type { FormatId } from '../vocabulary/types';
import type { SampleList } from '../store/sampleList';

/** Formats whose eval files hold datasets back to back, each with `index` from 0 (miles dumps). */
const RESTARTING_FORMATS: ReadonlySet<FormatId> = new Set(['miles-sample', 'miles-pt', 'slime-sample', 'slime-pt', 'miles-trajectory']);

export interface DatasetPart {
  name: string;
  /**
   * How the name was found: as recorded, as the config entry whose `metadata_overrides` wrote the
   * recorded name, by index restart matched to the config, or the file name.
   */
  source: 'recorded' | 'config-override' | 'config-order' | 'index-restart' | 'file-name';
  samples: SampleList;
}

const NO_RENAMES: ReadonlyMap<string, string | null> = new Map();

/**
 * Splits one eval file's samples (line order) into datasets, in order of first appearance.
 * `configOrder`: the eval config's dataset names in its order (empty without a config).
 * `renamed`: recorded names the config's `metadata_overrides` wrote → the entry's name (null: two
 * entries wrote it, so the index restarts decide); miles logs those samples under the entry's name.
 * miles writes each dataset sorted by `index` (0…N−1), one after another, so a segment starts
 * wherever `index` does not increase (normally: back to 0). A file of one dataset is handed on as
 * it is.
 */
export function splitDatasets(
  file: string,
  format: FormatId,
  samples: SampleList,
  configOrder: readonly string[],
  renamed: ReadonlyMap<string, string | null> = NO_RENAMES,
): DatasetPart[] {
  const n = samples.length;
  const restarting = RESTARTING_FORMATS.has(format);
  const renames = restarting && renamed.size > 0;
  /** The recorded name, or the entry's name when an override wrote it; null: none, or ambiguous. */
  const recorded = (k: number): [string | null, DatasetPart['source']] => {
    const dataset = samples.dataset(k);
    if (dataset === null || !renames || !renamed.has(dataset)) return [dataset, 'recorded'];
    return [renamed.get(dataset) ?? null, 'config-override'];
  };
  let unnamedNeedsOrder = false;
  for (let k = 0; k < n && !unnamedNeedsOrder; k++) unnamedNeedsOrder = recorded(k)[0] === null;
  const segments = unnamedNeedsOrder && restarting ? indexSegments(samples) : null;
  const stem = fileStem(file);
  // miles writes every dataset from index 0: several segments are several datasets even when no
  // config names them (each gets its own inferred n).
  const segmentCount = segments ? segments[segments.length - 1] + 1 : 0;
  const partOf = (k: number): [string, DatasetPart['source']] => {
    const [dataset, source] = recorded(k);
    if (dataset !== null) return [dataset, source];
    const seg = segments ? segments[k] : -1;
    if (seg >= 0 && seg < configOrder.length) return [configOrder[seg], 'config-order'];
    if (seg >= 0 && segmentCount > 1) return [`dataset ${seg + 1}`, 'index-restart'];
    return [stem, 'file-name'];
  };
  if (n === 0) return [];
  const [firstName, firstSource] = partOf(0);
  let one = true;
  for (let k = 1; k < n && one; k++) one = partOf(k)[0] === firstName;
  if (one) return [{ name: firstName, source: firstSource, samples }];

  const parts = new Map<string, { name: string; source: DatasetPart['source']; positions: number[] }>();
  for (let k = 0; k < n; k++) {
    const [name, source] = partOf(k);
    let part = parts.get(name);
    if (!part) parts.set(name, (part = { name, source, positions: [] }));
    part.positions.push(k);
  }
  return [...parts.values()].map((p) => ({ name: p.name, source: p.source, samples: samples.pick(Int32Array.from(p.positions)) }));
}

/**
 * Segment number of each sample: a new segment starts where `index` does not increase, but for the
 * siblings of a compact rollout (docs/framework-files.md#compact-rollouts): miles' eval path extends
 * its data with every sample an attempt returns, all copies of the attempt's sample (same `index`,
 * and the same `rollout_id`), so a repeated index with the previous sample's rollout_id continues.
 */
function indexSegments(samples: SampleList): Int32Array {
  const out = new Int32Array(samples.length);
  let seg = 0;
  let prev: number | null = null;
  let prevRollout: number | null = null;
  for (let k = 0; k < samples.length; k++) {
    const index = samples.index(k);
    if (index !== null) {
      const rollout = samples.rolloutId(k);
      const sibling = index === prev && rollout !== null && rollout === prevRollout;
      if (prev !== null && index <= prev && !sibling) seg++;
      prev = index;
      prevRollout = rollout;
    }
    out[k] = seg;
  }
  return out;
}
