// The summary's schema checked by hand (summaryJson.ts's zod schema, the reference): a parsed
// document is taken as it is only when it is surely what the schema would give back, keys in the
// schema's order and every figure plainly valid. Anything else (a missing or extra key, another
// order, a figure zod might judge otherwise) is left to zod, which then gives the same summary or
// the same error as always. zod on a 1 000-step summary's 1.6 MB without its rows took ~160 ms of
// CPU and ~24 MB of fresh memory on its first run (its module loaded, its parsers warmed); this
// check ~10 ms (BENCHMARKS.md, "Comparing runs: summarize and diff").
import type { RunSummary } from './summary';
import { SUMMARY_VERSION } from './summaryFormat';

type Json = Record<string, unknown>;

/** A plain JSON object (JSON.parse makes no other), with no `__proto__` key (zod drops it). */
function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !Object.hasOwn(v, '__proto__');
}

/** A whole number zod's `.int()` surely takes (no -0, nothing past 2^53). */
function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && !Object.is(v, -0);
}

function isCount(v: unknown): boolean {
  return isInt(v) && v >= 0;
}

function isLine(v: unknown): boolean {
  return isInt(v) && v >= 1;
}

function isNumber(v: unknown): boolean {
  return typeof v === 'number';
}

function isNumberOrNull(v: unknown): boolean {
  return v === null || typeof v === 'number';
}

/** Whether `o`'s own keys are `keys`, in that order (`optional` may be absent from its place). */
function hasKeys(o: Json, keys: readonly string[], optional: string | null = null): boolean {
  let k = 0;
  for (const key in o) {
    // The optional key absent: its place skipped.
    if (keys[k] === optional && key !== optional) k++;
    if (key !== keys[k]) return false;
    k++;
  }
  if (keys[k] === optional) k++;
  return k === keys.length;
}

function isRecordOf(v: unknown, value: (x: unknown) => boolean): boolean {
  if (!isObject(v)) return false;
  for (const key in v) if (!value(v[key])) return false;
  return true;
}

function isArrayOf(v: unknown, element: (x: unknown) => boolean): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (!element(x)) return false;
  return true;
}

const GROUPS = ['total', 'kept', 'dropped'];
function isGroups(v: unknown): boolean {
  return isObject(v) && hasKeys(v, GROUPS) && isCount(v.total) && isCount(v.kept) && isCount(v.dropped);
}

const REWARD = ['count', 'sum', 'sumSq', 'none'];
function isReward(v: unknown): boolean {
  return isObject(v) && hasKeys(v, REWARD) && isCount(v.count) && isNumber(v.sum) && isNumber(v.sumSq) && isCount(v.none);
}

function isMetrics(v: unknown): boolean {
  return isRecordOf(v, isNumberOrNull);
}

const FINDING = ['count', 'file', 'line'];
function isFinding(v: unknown): boolean {
  return isObject(v) && hasKeys(v, FINDING) && isCount(v.count) && typeof v.file === 'string' && isLine(v.line);
}

/** A rollout prompt row: [id, state, samples, passes, reward sum, line, tokens]. */
function isPromptRow(v: unknown): boolean {
  if (!Array.isArray(v) || v.length !== 7) return false;
  const tokens = v[6] as unknown;
  return (
    typeof v[0] === 'string' && isCount(v[1]) && isCount(v[2]) && isCount(v[3]) && isNumber(v[4]) && isLine(v[5]) && typeof tokens === 'number' && tokens >= 0
  );
}

/** An eval prompt row: [id, samples, passes, reward sum, line]. */
function isDatasetRow(v: unknown): boolean {
  return Array.isArray(v) && v.length === 5 && typeof v[0] === 'string' && isCount(v[1]) && isCount(v[2]) && isNumber(v[3]) && isLine(v[4]);
}

/** The name, n and counts that a file's dataset and a step's merged dataset both carry. */
function hasDatasetCounts(v: Json): boolean {
  return typeof v.name === 'string' && isLine(v.n) && isCount(v.samples) && isCount(v.noneReward) && isCount(v.truncated);
}

const FILE_DATASET = ['name', 'n', 'samples', 'noneReward', 'truncated', 'line', 'metrics', 'prompts'];
function isFileDataset(v: unknown): boolean {
  return isObject(v) && hasKeys(v, FILE_DATASET) && hasDatasetCounts(v) && isLine(v.line) && isMetrics(v.metrics) && isArrayOf(v.prompts, isDatasetRow);
}

const FILE = [
  'path',
  'format',
  'samples',
  'groups',
  'droppedByCause',
  'responseTokens',
  'droppedTokens',
  'reward',
  'truncated',
  'withStatus',
  'metrics',
  'examples',
  'findings',
  'states',
  'prompts',
  'datasets',
];
function isFile(v: unknown): boolean {
  return (
    isObject(v) &&
    hasKeys(v, FILE) &&
    typeof v.path === 'string' &&
    typeof v.format === 'string' &&
    isCount(v.samples) &&
    isGroups(v.groups) &&
    isRecordOf(v.droppedByCause, isCount) &&
    isNumber(v.responseTokens) &&
    isNumber(v.droppedTokens) &&
    isReward(v.reward) &&
    isCount(v.truncated) &&
    isCount(v.withStatus) &&
    isMetrics(v.metrics) &&
    isRecordOf(v.examples, isLine) &&
    isRecordOf(v.findings, isFinding) &&
    isArrayOf(v.states, (s) => typeof s === 'string') &&
    (v.states as unknown[]).length >= 1 &&
    isArrayOf(v.prompts, isPromptRow) &&
    isArrayOf(v.datasets, isFileDataset)
  );
}

const DATASET = ['name', 'n', 'samples', 'noneReward', 'truncated', 'score', 'passAtK'];
function isDataset(v: unknown): boolean {
  return isObject(v) && hasKeys(v, DATASET) && hasDatasetCounts(v) && isNumberOrNull(v.score) && isRecordOf(v.passAtK, isNumberOrNull);
}

const MISMATCH = ['tokens', 'mean', 'p99', 'ranks', 'file', 'worstSample'];
function isMismatch(v: unknown): boolean {
  return (
    isObject(v) &&
    hasKeys(v, MISMATCH) &&
    isLine(v.tokens) &&
    typeof v.mean === 'number' &&
    v.mean >= 0 &&
    typeof v.p99 === 'number' &&
    v.p99 >= 0 &&
    isLine(v.ranks) &&
    typeof v.file === 'string' &&
    (v.worstSample === null || isInt(v.worstSample))
  );
}

const STEP = [
  'kind',
  'step',
  'partial',
  'samples',
  'groups',
  'droppedByCause',
  'responseTokens',
  'droppedTokens',
  'reward',
  'truncated',
  'withStatus',
  'datasets',
  'mismatch',
  'files',
];
function isStep(v: unknown): boolean {
  if (!isObject(v) || !hasKeys(v, STEP, 'mismatch')) return false;
  const files = v.files;
  return (
    (v.kind === 'rollout' || v.kind === 'eval') &&
    (v.step === null || isCount(v.step)) &&
    typeof v.partial === 'boolean' &&
    isCount(v.samples) &&
    isGroups(v.groups) &&
    isRecordOf(v.droppedByCause, isCount) &&
    isNumber(v.responseTokens) &&
    isNumber(v.droppedTokens) &&
    isReward(v.reward) &&
    isCount(v.truncated) &&
    isCount(v.withStatus) &&
    isArrayOf(v.datasets, isDataset) &&
    (!Object.hasOwn(v, 'mismatch') || isMismatch(v.mismatch)) &&
    isArrayOf(files, isFile) &&
    // The schema's refinement: a step without files is a numbered rollout step with a mismatch.
    ((files as unknown[]).length > 0 || (Object.hasOwn(v, 'mismatch') && v.kind === 'rollout' && v.step !== null))
  );
}

const SUMMARY = ['version', 'framework', 'steps'];
const FRAMEWORKS: ReadonlySet<unknown> = new Set<unknown>(['miles', 'slime', 'verl', 'other']);

/**
 * Whether `doc` (from JSON.parse) is a summary the schema takes and gives back unchanged: then it
 * is that summary. False says nothing: zod decides.
 */
export function isPlainSummary(doc: unknown): doc is RunSummary {
  return (
    isObject(doc) &&
    hasKeys(doc, SUMMARY) &&
    doc.version === SUMMARY_VERSION &&
    (doc.framework === null || FRAMEWORKS.has(doc.framework)) &&
    isArrayOf(doc.steps, isStep)
  );
}
