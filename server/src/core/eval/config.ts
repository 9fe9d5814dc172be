// The miles eval config loader (docs/semantics.md#eval-grouping): YAML or JSON, with the line of each dataset entry and of
// its `n_samples_per_eval_prompt`, for diagnostics' related information and for the quick fix.
import type { FileAccess } from '../seams/fileAccess';
import { isMap, isScalar } from '../lazy/yaml';
import type { Node } from 'yaml';
import { datasetNodes, EvalConfigError, findPair, lineOf, N_KEY, parseConfigDoc, scalarText } from './configNodes';
import type { ParsedConfigDoc } from './configNodes';

export { EvalConfigError } from './configNodes';

export interface EvalDatasetConfig {
  name: string;
  /** The dataset's own `n_samples_per_eval_prompt`; null when it does not set one. */
  nSamplesPerEvalPrompt: number | null;
  /** 1-based line of the entry (list item or mapping key). */
  line: number;
  /** 1-based line of its `n_samples_per_eval_prompt`; null when absent. */
  nLine: number | null;
  /**
   * The dataset names its `metadata_overrides` writes into every sample's metadata (`dataset`,
   * `dataset_name`; strings only): a sample recorded under one of them is logged by miles under
   * this entry's `name` (docs/framework-files.md#eval-dataset-names). Empty when it sets none.
   */
  overriddenNames: { dataset: string | null; datasetName: string | null };
}

/** The parsed miles eval config (docs/semantics.md#eval-grouping), with where each value sits for quick fixes. */
export interface EvalConfig {
  path: string;
  defaults: { nSamplesPerEvalPrompt: number | null; nLine?: number | null };
  /** In config order (index-restart matching relies on it). */
  datasets: EvalDatasetConfig[];
}

/** Largest config we read: an eval config is a few KB; anything bigger is not one. */
const MAX_CONFIG_BYTES = 8 * 1024 * 1024;

/** Reads and parses an eval config (YAML or JSON). Throws an Error with a readable message. */
export async function loadEvalConfig(path: string, access: FileAccess): Promise<EvalConfig> {
  let text: string;
  try {
    text = await readSmallFile(path, access);
  } catch (e) {
    if (e instanceof EvalConfigError) throw e;
    throw new EvalConfigError(`${path}: cannot read eval config: ${(e as Error).message}`);
  }
  return parseEvalConfig(text, path);
}

/** Parses eval config text. Throws EvalConfigError (`path:line:col: …`). */
export function parseEvalConfig(text: string, path: string): EvalConfig {
  const parsed = parseConfigDoc(text, path);
  const defaults = readDefaults(parsed, path);
  const seen = new Set<string>();
  const datasets = datasetNodes(parsed, path).map((entry): EvalDatasetConfig => {
    if (seen.has(entry.name)) {
      throw new EvalConfigError(`${path}:${parsed.lines.linePos(entry.start).line}: invalid eval config: dataset ${entry.name} is listed twice`);
    }
    seen.add(entry.name);
    const nPair = entry.map ? findPair(entry.map, N_KEY) : null;
    const n = nPair ? readN(nPair.value as Node, parsed, path, `dataset ${entry.name}`) : null;
    return {
      name: entry.name,
      nSamplesPerEvalPrompt: n,
      line: parsed.lines.linePos(entry.start).line,
      nLine: nPair ? lineOf(parsed.lines, nPair.key as Node) : null,
      overriddenNames: readOverrides(entry.map ? findPair(entry.map, 'metadata_overrides') : null, parsed, path, entry.name),
    };
  });
  return { path, defaults, datasets };
}

/**
 * `metadata_overrides` of a dataset: miles' `EvalDatasetConfig` takes None or a mapping and raises
 * `TypeError: metadata_overrides must be a mapping.` on anything else; `inject_metadata` then sets
 * each key in every sample's metadata. Only the keys that name a sample's dataset matter here.
 */
function readOverrides(pair: ReturnType<typeof findPair>, parsed: ParsedConfigDoc, path: string, name: string): EvalDatasetConfig['overriddenNames'] {
  const none = { dataset: null, datasetName: null };
  const value = pair?.value as Node | null | undefined;
  if (!pair || value === null || value === undefined || (isScalar(value) && value.value === null)) return none;
  if (!isMap(value)) {
    throw new EvalConfigError(
      `${path}:${lineOf(parsed.lines, value)}: invalid eval config: metadata_overrides of dataset ${name} must be a mapping (miles raises TypeError: metadata_overrides must be a mapping.)`,
    );
  }
  const text = (key: string): string | null => {
    const v = findPair(value, key)?.value;
    return isScalar(v) && typeof v.value === 'string' ? scalarText(v) : null;
  };
  return { dataset: text('dataset'), datasetName: text('dataset_name') };
}

function readDefaults(parsed: ParsedConfigDoc, path: string): EvalConfig['defaults'] {
  const pair = findPair(parsed.evalMap, 'defaults');
  const value = pair?.value as Node | null | undefined;
  if (!pair || value === null || value === undefined || (isScalar(value) && value.value === null)) {
    return { nSamplesPerEvalPrompt: null, nLine: null };
  }
  if (!isMap(value)) throw new EvalConfigError(`${path}:${lineOf(parsed.lines, value)}: invalid eval config: eval.defaults must be a mapping`);
  const nPair = findPair(value, N_KEY);
  if (!nPair) return { nSamplesPerEvalPrompt: null, nLine: null };
  return {
    nSamplesPerEvalPrompt: readN(nPair.value as Node, parsed, path, 'eval.defaults'),
    nLine: lineOf(parsed.lines, nPair.key as Node),
  };
}

/** A positive integer, or null for an explicit null (miles then falls through to the next source). */
function readN(node: Node | null, parsed: ParsedConfigDoc, path: string, where: string): number | null {
  if (node === null || (isScalar(node) && node.value === null)) return null;
  const v = isScalar(node) ? node.value : undefined;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 1) return v;
  const shown = isScalar(node) ? JSON.stringify(v) : 'a collection';
  throw new EvalConfigError(`${path}:${lineOf(parsed.lines, node)}: invalid eval config: ${N_KEY} of ${where} must be a positive integer, got ${shown}`);
}

async function readSmallFile(path: string, access: FileAccess): Promise<string> {
  const stat = await access.stat(path);
  if (!stat.isFile) throw new EvalConfigError(`${path}: cannot read eval config: not a file`);
  if (stat.size > MAX_CONFIG_BYTES) throw new EvalConfigError(`${path}: eval config is ${stat.size} bytes; an eval config is at most ${MAX_CONFIG_BYTES}`);
  const file = await access.open(path);
  try {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const buf = new Uint8Array(64 * 1024);
      const n = await file.read(buf, 0, buf.length, total);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
      if (total > MAX_CONFIG_BYTES) throw new EvalConfigError(`${path}: eval config is larger than ${MAX_CONFIG_BYTES} bytes`);
    }
    const all = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
    }
    return new TextDecoder('utf-8').decode(all).replace(/^\uFEFF/, '');
  } finally {
    await file.close();
  }
}
