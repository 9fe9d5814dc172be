// The quick fix of `misgrouped-dataset` / `passk-group-size-mismatch`: set one dataset's
// `n_samples_per_eval_prompt` in the eval config as one text edit, keeping comments and layout.
// Pure: text in, text and edit out; the CLI writes files, the language server makes a WorkspaceEdit.
import { isMap, isScalar, isSeq } from '../lazy/yaml';
import type { Node, Pair, YAMLMap, YAMLSeq } from 'yaml';
import { datasetNodes, EvalConfigError, findPair, N_KEY, parseConfigDoc } from './configNodes';
import type { ParsedConfigDoc } from './configNodes';

export interface TextEdit {
  startOffset: number;
  endOffset: number;
  newText: string;
}

export interface ConfigFixResult {
  text: string;
  edit: TextEdit;
  /** The dataset's own value before (null when it had none or the entry is new). */
  previous: number | null;
  action: 'replaced' | 'added-key' | 'added-entry';
}

/** Applies `set n_samples_per_eval_prompt of <dataset> to <value>` to config text. Throws EvalConfigError. */
export function applyNSamplesFix(text: string, path: string, fix: { dataset: string; value: number }): ConfigFixResult {
  if (!Number.isInteger(fix.value) || fix.value < 1) throw new EvalConfigError(`${path}: ${N_KEY} must be a positive integer, got ${fix.value}`);
  const parsed = parseConfigDoc(text, path);
  const entry = datasetNodes(parsed, path).find((d) => d.name === fix.dataset);
  let result: Omit<ConfigFixResult, 'text'>;
  if (entry && entry.map) {
    const nPair = findPair(entry.map, N_KEY);
    const valueNode = nPair?.value as Node | null | undefined;
    if (nPair && valueNode && valueNode.range) {
      const previous = isScalar(valueNode) && typeof valueNode.value === 'number' ? valueNode.value : null;
      result = { edit: { startOffset: valueNode.range[0], endOffset: valueNode.range[1], newText: String(fix.value) }, previous, action: 'replaced' };
    } else {
      result = { edit: addPair(text, entry.map, N_KEY, String(fix.value)), previous: null, action: 'added-key' };
    }
  } else if (entry && entry.pair) {
    result = { edit: fillEmptyEntry(text, entry.pair, fix.value), previous: null, action: 'added-key' };
  } else {
    result = { edit: addEntry(text, parsed, path, fix.dataset, fix.value), previous: null, action: 'added-entry' };
  }
  const e = result.edit;
  return { ...result, text: text.slice(0, e.startOffset) + e.newText + text.slice(e.endOffset) };
}

// ---- layout helpers ----

function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset of the end of the line holding `offset` (before `\r\n` / `\n`). */
function lineEndOf(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  if (nl < 0) return text.length;
  return text[nl - 1] === '\r' ? nl - 1 : nl;
}

function columnOf(text: string, offset: number): number {
  return offset - lineStartOf(text, offset);
}

function start(node: unknown): number {
  return (node as Node).range![0];
}

function end(node: unknown): number {
  return (node as Node).range![1];
}

/** Where a pair's text ends: the end of its value's content, or its key when the value is empty. */
function pairEnd(pair: Pair): number {
  const v = pair.value as Node | null;
  return v && v.range ? Math.max(contentEnd(v), end(pair.key)) : end(pair.key);
}

/**
 * End of a node's own text. A block collection's range runs on over trailing line breaks and
 * comments, so look into its last entry instead; flow collections end at their bracket.
 */
function contentEnd(node: Node): number {
  if (isMap(node) && !node.flow && node.items.length > 0) return pairEnd(node.items[node.items.length - 1] as Pair);
  if (isSeq(node) && !node.flow && node.items.length > 0) return contentEnd(node.items[node.items.length - 1] as Node);
  return end(node);
}

/** End of the line on which the text ending at `offset` ends (`offset` may sit after its line break). */
function lineEndAfter(text: string, offset: number): number {
  return lineEndOf(text, Math.max(0, offset - 1));
}

/** Keys written with double quotes (JSON style) stay so. */
function quoteStyle(text: string, map: YAMLMap): 'json' | 'plain' {
  const k = map.items[0]?.key;
  return k && text[start(k)] === '"' ? 'json' : 'plain';
}

function keyText(style: 'json' | 'plain', key: string): string {
  return style === 'json' ? JSON.stringify(key) : yamlString(key);
}

/** A YAML plain scalar when it reads back as the same string; else a double-quoted one. */
function yamlString(s: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_./+-]*$/.test(s) && !/^(null|true|false|yes|no|on|off|y|n|~)$/i.test(s);
  return plain ? s : JSON.stringify(s);
}

/** Is the collection written over several lines (block, or a flow collection with line breaks)? */
function multiline(text: string, node: Node): boolean {
  return text.slice(start(node), end(node)).includes('\n');
}

// ---- edits ----

/** Adds `key: value` as the last pair of a mapping, in its style. */
function addPair(text: string, map: YAMLMap, key: string, value: string): TextEdit {
  const eol = eolOf(text);
  const last = map.items[map.items.length - 1] as Pair | undefined;
  if (!map.flow) {
    // Block mapping: a new line after the last pair (and after any comment on its line).
    const at = lineEndAfter(text, pairEnd(last!));
    const indent = ' '.repeat(columnOf(text, start(map.items[0].key)));
    return { startOffset: at, endOffset: at, newText: `${eol}${indent}${yamlString(key)}: ${value}` };
  }
  const style = quoteStyle(text, map);
  const k = keyText(style, key);
  if (!last) {
    const open = start(map) + 1;
    return { startOffset: open, endOffset: open, newText: style === 'json' ? `${k}: ${value}` : ` ${k}: ${value} ` };
  }
  const at = pairEnd(last);
  if (multiline(text, map as unknown as Node)) {
    const indent = ' '.repeat(columnOf(text, start(last.key)));
    return { startOffset: at, endOffset: at, newText: `,${eol}${indent}${k}: ${value}` };
  }
  return { startOffset: at, endOffset: at, newText: `, ${k}: ${value}` };
}

/** Mapping shape with an empty entry (`aime:`): give it a body. */
function fillEmptyEntry(text: string, pair: Pair, value: number): TextEdit {
  const keyEnd = end(pair.key);
  const colon = text.indexOf(':', keyEnd);
  const v = pair.value as Node | null;
  const from = colon + 1;
  const to = v && v.range ? end(v) : from;
  const indent = ' '.repeat(columnOf(text, start(pair.key)) + 2);
  return { startOffset: from, endOffset: to, newText: `${eolOf(text)}${indent}${N_KEY}: ${value}` };
}

/** A dataset the config does not list yet: a new entry in the style of the existing ones. */
function addEntry(text: string, parsed: ParsedConfigDoc, path: string, name: string, value: number): TextEdit {
  const datasets = parsed.datasetsPair?.value as Node | null | undefined;
  if (datasets && isSeq(datasets) && datasets.items.length > 0) return addListItem(text, datasets, name, value);
  if (datasets && isMap(datasets) && datasets.items.length > 0) return addMapEntry(text, datasets, name, value);
  if (!parsed.datasetsPair && parsed.evalMap.items.length > 0) {
    const evalMap = parsed.evalMap;
    if (evalMap.flow) {
      const style = quoteStyle(text, evalMap);
      const q = (s: string) => (style === 'json' ? JSON.stringify(s) : yamlString(s));
      return addPair(text, evalMap, 'datasets', `[{${q('name')}: ${q(name)}, ${q(N_KEY)}: ${value}}]`);
    }
    const eol = eolOf(text);
    const indent = ' '.repeat(columnOf(text, start(evalMap.items[0].key)));
    const at = lineEndAfter(text, pairEnd(evalMap.items[evalMap.items.length - 1] as Pair));
    const newText = `${eol}${indent}datasets:${eol}${indent}  - name: ${yamlString(name)}${eol}${indent}    ${N_KEY}: ${value}`;
    return { startOffset: at, endOffset: at, newText };
  }
  throw new EvalConfigError(`${path}: cannot add dataset ${name}: eval.datasets is empty; add the entry by hand`);
}

function addListItem(text: string, seq: YAMLSeq, name: string, value: number): TextEdit {
  const eol = eolOf(text);
  const last = seq.items[seq.items.length - 1] as YAMLMap;
  if (!seq.flow) {
    // `- name: …` items: the dash sits before the item's first key.
    const itemCol = columnOf(text, start(last));
    const dash = text.lastIndexOf('-', start(last) - 1);
    const dashCol = columnOf(text, dash);
    const at = lineEndAfter(text, contentEnd(last));
    const keyIndent = ' '.repeat(itemCol);
    const firstLine = `${' '.repeat(dashCol)}-${' '.repeat(Math.max(1, itemCol - dashCol - 1))}name: ${yamlString(name)}`;
    return { startOffset: at, endOffset: at, newText: `${eol}${firstLine}${eol}${keyIndent}${N_KEY}: ${value}` };
  }
  const style = isMap(last) ? quoteStyle(text, last) : 'json';
  const q = (s: string) => (style === 'json' ? JSON.stringify(s) : yamlString(s));
  const at = end(last);
  if (isMap(last) && multiline(text, last as unknown as Node)) {
    const itemIndent = ' '.repeat(columnOf(text, start(last)));
    const keyIndent = ' '.repeat(columnOf(text, start(last.items[0].key)));
    const body = `{${eol}${keyIndent}${q('name')}: ${q(name)},${eol}${keyIndent}${q(N_KEY)}: ${value}${eol}${itemIndent}}`;
    return { startOffset: at, endOffset: at, newText: `,${eol}${itemIndent}${body}` };
  }
  const item = `{${q('name')}: ${q(name)}, ${q(N_KEY)}: ${value}}`;
  if (multiline(text, seq as unknown as Node)) {
    return { startOffset: at, endOffset: at, newText: `,${eol}${' '.repeat(columnOf(text, start(last)))}${item}` };
  }
  return { startOffset: at, endOffset: at, newText: `, ${item}` };
}

function addMapEntry(text: string, map: YAMLMap, name: string, value: number): TextEdit {
  const eol = eolOf(text);
  const last = map.items[map.items.length - 1] as Pair;
  if (!map.flow) {
    const keyCol = columnOf(text, start(last.key));
    const inner =
      last.value && isMap(last.value) && !last.value.flow && last.value.items.length > 0 ? columnOf(text, start(last.value.items[0].key)) : keyCol + 2;
    const at = lineEndAfter(text, pairEnd(last));
    return { startOffset: at, endOffset: at, newText: `${eol}${' '.repeat(keyCol)}${yamlString(name)}:${eol}${' '.repeat(inner)}${N_KEY}: ${value}` };
  }
  const style = quoteStyle(text, map);
  const q = (s: string) => (style === 'json' ? JSON.stringify(s) : yamlString(s));
  return addPair(text, map, name, `{${q(N_KEY)}: ${value}}`);
}
