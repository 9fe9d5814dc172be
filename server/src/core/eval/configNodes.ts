// Where things sit in a miles eval config (docs/semantics.md#eval-grouping), shared by the loader and the quick fix:
// root `{eval: {...}}` or the inner mapping, `eval.defaults`, `eval.datasets` as a list of mappings
// with `name` or a mapping name → config.
import type { Document, LineCounter, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { isMap, isScalar, isSeq, newLineCounter, parseDocument } from '../lazy/yaml';
import type { Node, Pair } from 'yaml';

export const N_KEY = 'n_samples_per_eval_prompt';

export interface ParsedConfigDoc {
  doc: Document.Parsed;
  lines: LineCounter;
  /** The mapping that holds `defaults` and `datasets`. */
  evalMap: YAMLMap;
  /** The pair `datasets: …` in evalMap, when present. */
  datasetsPair: Pair | null;
}

export interface DatasetNode {
  name: string;
  /** The dataset's own mapping (null for `name:` with an empty value in the mapping shape). */
  map: YAMLMap | null;
  /** For the mapping shape, the pair `name: {…}`; null for the list shape. */
  pair: Pair | null;
  /** Source offset where the entry starts (the list item or the mapping key). */
  start: number;
}

export class EvalConfigError extends Error {}

/** Parses YAML or JSON (JSON is YAML) keeping comments and positions. Throws EvalConfigError. */
export function parseConfigDoc(text: string, path: string): ParsedConfigDoc {
  const lines = newLineCounter();
  const doc = parseDocument(text, { lineCounter: lines, keepSourceTokens: false, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const pos = lines.linePos(e.pos[0]);
    throw new EvalConfigError(`${path}:${pos.line}:${pos.col}: invalid eval config: ${e.message.split('\n')[0]}`);
  }
  if (!isMap(doc.contents)) {
    throw new EvalConfigError(`${path}: invalid eval config: the top level must be a mapping ({eval: {...}} or its inner mapping)`);
  }
  let evalMap: YAMLMap = doc.contents;
  const inner = evalMap.get('eval', true);
  if (inner !== undefined) {
    if (!isMap(inner)) throw new EvalConfigError(`${path}:${lineOf(lines, inner)}: invalid eval config: \`eval\` must be a mapping`);
    evalMap = inner;
  }
  const datasetsPair = findPair(evalMap, 'datasets');
  return { doc, lines, evalMap, datasetsPair };
}

export function findPair(map: YAMLMap, key: string): Pair | null {
  for (const item of map.items) {
    if (scalarKeyText(item.key) === key) return item as Pair;
  }
  return null;
}

function scalarKeyText(key: unknown): string | null {
  if (isScalar(key)) return key.value === null || key.value === undefined ? null : String(key.value);
  return null;
}

/** The datasets of the config in order, with their nodes. Throws EvalConfigError on a bad shape. */
export function datasetNodes(parsed: ParsedConfigDoc, path: string): DatasetNode[] {
  const value = parsed.datasetsPair?.value;
  if (value === undefined || value === null || (isScalar(value) && value.value === null)) return [];
  if (isSeq(value)) return listEntries(value, parsed, path);
  if (isMap(value)) return mapEntries(value, parsed, path);
  throw new EvalConfigError(`${path}:${lineOf(parsed.lines, value as Node)}: invalid eval config: eval.datasets must be either a list or a mapping`);
}

function listEntries(seq: YAMLSeq, parsed: ParsedConfigDoc, path: string): DatasetNode[] {
  return seq.items.map((item) => {
    const node = item as Node;
    if (!isMap(node)) {
      throw new EvalConfigError(`${path}:${lineOf(parsed.lines, node)}: invalid eval config: each eval.datasets entry must be a mapping`);
    }
    const name = scalarText(node.get('name', true));
    if (name === null) {
      throw new EvalConfigError(`${path}:${lineOf(parsed.lines, node)}: invalid eval config: each evaluation dataset entry must include a \`name\` field`);
    }
    return { name, map: node, pair: null, start: node.range?.[0] ?? 0 };
  });
}

function mapEntries(map: YAMLMap, parsed: ParsedConfigDoc, path: string): DatasetNode[] {
  return map.items.map((pair) => {
    const keyNode = pair.key as Node;
    const value = pair.value as Node | null;
    const inner = value !== null && isMap(value) ? value : null;
    if (value !== null && inner === null && !(isScalar(value) && value.value === null)) {
      throw new EvalConfigError(
        `${path}:${lineOf(parsed.lines, keyNode)}: invalid eval config: the config of dataset ${String(scalarKeyText(keyNode))} must be a mapping`,
      );
    }
    // miles: `dataset.setdefault("name", name)` — an explicit name inside wins.
    const name = scalarText(inner?.get('name', true)) ?? scalarKeyText(keyNode);
    if (name === null) throw new EvalConfigError(`${path}:${lineOf(parsed.lines, keyNode)}: invalid eval config: a dataset has an empty name`);
    return { name, map: inner, pair: pair as Pair, start: keyNode.range?.[0] ?? 0 };
  });
}

export function scalarText(node: unknown): string | null {
  if (!isScalar(node)) return null;
  const v = (node as Scalar).value;
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? v : String(v);
}

export function lineOf(lines: LineCounter, node: Node | null | undefined): number {
  const offset = node?.range?.[0] ?? 0;
  return lines.linePos(offset).line;
}
