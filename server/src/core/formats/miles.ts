// miles formats (docs/semantics.md#formats): `Sample.to_dict()` lines, `--dump-details` trajectories, agent-server
// eval trials, and the dashboard's metrics.jsonl.
import { noteShape, type ShapeNotes } from './fieldShape';
import { classifyCause } from '../causes';
import { intLiteral, Skipped } from '../reader/jsonRule';
import { LongString, stringTail, type TextTail } from '../reader/textTail';
import type { MilesSampleFields, SampleRecord } from '../types';

import { causeOf, recordDatasetName, type LineInfo, type NormalizeContext, type Normalized } from './context';
import { fastMilesMetrics, fastMilesSample, fastMilesTrajectory, fastMilesTrials, validate } from './fastValidate';
import { formatIssues } from './issues';
import { keyedReward, resolveReward } from './reward';
import { abortedByStatus, isPlainObject, milesMetricsSchema, milesSampleSchema, milesTrajectorySchema, milesTrialsSchema } from './schemas';

type Obj = Record<string, unknown>;

/**
 * Group key text: the integer's literal (exact beyond 2^53), else the string. Python reads `-0`
 * as the int 0, so it keys the same group as `0` (the only integer literal JSON can spell twice).
 */
export function groupKeyText(holder: unknown, field: string, value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  const literal = intLiteral(holder, field);
  return literal === '-0' ? '0' : (literal ?? String(value));
}

function hashOf(v: unknown): string | null {
  return v instanceof Skipped ? v.hash : null;
}

// The records below spell out line/offset/byteLength: an object spread (`...base(info)`) in these
// per-line literals made V8 build each record slowly (BENCHMARKS.md, "Design measurements").
export function normalizeMilesSample(o: Obj, info: LineInfo, ctx: NormalizeContext): Normalized {
  const parsed = validate(milesSampleSchema, fastMilesSample, o, ctx.zodOnly);
  if (!parsed.success) return { type: 'invalid', message: formatIssues('miles-sample', parsed.error.issues, o) };
  const r = parsed.data;
  const meta = r.metadata;
  const reward = resolveReward(o, 'reward', r.reward ?? null, ctx.rewardKey);
  const instance = meta?.instance_id;
  const sample: SampleRecord = {
    line: info.line,
    offset: info.offset,
    byteLength: info.byteLength,
    groupKey: groupKeyText(o, 'group_index', r.group_index),
    index: r.index ?? null,
    dataset: recordDatasetName(r, meta),
    promptKey: hashOf(o.prompt) ?? (instance !== undefined && instance !== null ? String(instance) : null) ?? hashOf(o.label),
    status: r.status ?? null,
    aborted: abortedByStatus(r.status ?? null),
    reward: reward.reward,
    rewardIsInt: reward.rewardIsInt,
    cause: causeOf(meta?.exit_status),
    responseLength: r.response_length ?? null,
    // `Sample.rollout_id` is the rollout a sample came from, not the step (miles main 31f1ca9,
    // docs/framework-files.md#compact-rollouts): a sample names no step; its file's name does.
    step: null,
  };
  if (r.rollout_id !== undefined && r.rollout_id !== null) sample.rolloutId = r.rollout_id;
  if (reward.rewardIsBool === true) sample.rewardIsBool = true;
  sample.miles = milesFields(o, r.response_length ?? null);
  if (sample.miles.weightVersions === null && ctx.shapes !== undefined) noteOddShape(o.weight_versions, ctx.shapes, info.line);
  if (ctx.zeroStdRewardKey !== undefined && isPlainObject(r.reward)) sample.zeroStdReward = keyedReward(r.reward, ctx.zeroStdRewardKey);
  return { type: 'sample', sample, rewardProblem: reward.problem };
}

/** miles' `has_repetition`: the compression ratio of the tail must exceed this. */
const REPETITION_RATIO = 10;

/**
 * miles' `has_repetition(text)` (docs/semantics.md#miles-sample-metrics):
 * False for at most 10 000 characters; else the last 10 000, UTF-8 encoded, compressed by zlib at
 * level 9, and True when the encoded length over the compressed length exceeds 10. The figures
 * are integers below 2^53, so `a / b > 10` is `a > 10 * b` exactly. A lone surrogate in the tail
 * makes Python's UTF-8 encoder raise: the exception is the verdict.
 */
export function repetitionOf(response: unknown): boolean | null | string {
  // `Sample.response` defaults to "".
  if (response === undefined) return false;
  let tail: TextTail | null;
  if (typeof response === 'string') tail = stringTail(response);
  else if (response instanceof LongString) tail = response.tail;
  else return null;
  return repetitionOfTail(tail);
}

/** `has_repetition`'s verdict on a text whose tail is `tail` (null: at most 10 000 characters). */
export function repetitionOfTail(tail: TextTail | null): boolean | string {
  if (tail === null) return false;
  if (tail.surrogates !== null) return encodeError(tail.surrogates);
  return isRepetitive(tail.utf8Length, tail.deflatedLength!);
}

/** `has_repetition`'s verdict on a tail Python can encode: its UTF-8 length and zlib's length of it. */
export function isRepetitive(utf8Length: number, deflatedLength: number): boolean {
  return utf8Length > REPETITION_RATIO * deflatedLength;
}

/** Python's `UnicodeEncodeError` text for the first run of surrogates (its start and length, in the encoded text). */
function encodeError(s: NonNullable<TextTail['surrogates']>): string {
  const where =
    s.length === 1 ? `character '\\u${s.first.toString(16).padStart(4, '0')}' in position ${s.at}` : `characters in position ${s.at}-${s.at + s.length - 1}`;
  return `UnicodeEncodeError: 'utf-8' codec can't encode ${where}: surrogates not allowed`;
}

/** A present `weight_versions` that is not a list of str or int (absent and None read as none). */
function noteOddShape(wv: unknown, shapes: ShapeNotes, line: number): void {
  if (wv !== undefined && wv !== null) noteShape(shapes, 'weight_versions', wv, line);
}

/** The Sample fields miles' logged sample metrics read (docs/semantics.md#miles-sample-metrics). */
function milesFields(o: Obj, responseLength: number | null): MilesSampleFields {
  const mask = o.loss_mask;
  const effectiveLength = typeof mask === 'number' ? mask : mask === null || mask === undefined ? responseLength : null;
  const wv = o.weight_versions;
  const weightVersions = Array.isArray(wv) && wv.every((v) => typeof v === 'string' || typeof v === 'number') ? (wv as (string | number)[]) : null;
  const cache = o.prefix_cache_info;
  const num = (holder: unknown, key: string): number => {
    const v = isPlainObject(holder) ? holder[key] : undefined;
    return typeof v === 'number' ? v : 0;
  };
  return {
    effectiveLength,
    weightVersions,
    cachedTokens: num(cache, 'cached_tokens'),
    totalPromptTokens: num(cache, 'total_prompt_tokens'),
    repetition: repetitionOf(o.response),
  };
}

export function normalizeMilesTrajectory(o: Obj, info: LineInfo, ctx: NormalizeContext): Normalized {
  const parsed = validate(milesTrajectorySchema, fastMilesTrajectory, o, ctx.zodOnly);
  if (!parsed.success) return { type: 'invalid', message: formatIssues('miles-trajectory', parsed.error.issues, o) };
  const r = parsed.data;
  const reward = resolveReward(o, 'reward', r.reward ?? null, ctx.rewardKey);
  const sample: SampleRecord = {
    line: info.line,
    offset: info.offset,
    byteLength: info.byteLength,
    groupKey: groupKeyText(o, 'group_index', r.group_index),
    index: r.sample_index,
    dataset: recordDatasetName(r, r.metadata),
    promptKey: hashOf(o.prompt),
    status: r.status ?? null,
    aborted: abortedByStatus(r.status ?? null),
    reward: reward.reward,
    rewardIsInt: reward.rewardIsInt,
    cause: causeOf(r.metadata?.exit_status),
    responseLength: null,
    step: null,
  };
  return { type: 'sample', sample, rewardProblem: reward.problem };
}

/**
 * Trials of the agent-server eval scripts. Aborted: `status_code == -1`, an `error` recorded, or an
 * `exit_status` that is an infrastructure cause (docs/semantics.md#failure-causes, plus settings `infraCauses`).
 */
export function normalizeMilesTrials(o: Obj, info: LineInfo, ctx: NormalizeContext): Normalized {
  const parsed = validate(milesTrialsSchema, fastMilesTrials, o, ctx.zodOnly);
  if (!parsed.success) return { type: 'invalid', message: formatIssues('miles-eval-trials', parsed.error.issues, o) };
  const r = parsed.data;
  const reward = resolveReward(o, 'reward', r.reward ?? null, ctx.rewardKey);
  const cause = causeOf(r.exit_status);
  const error = o.error;
  const hasError = error !== undefined && error !== null && error !== '' && error !== false;
  const aborted = r.status_code === -1 || hasError || classifyCause(cause, ctx.settings) === 'infrastructure';
  const sample: SampleRecord = {
    line: info.line,
    offset: info.offset,
    byteLength: info.byteLength,
    groupKey: groupKeyText(o, 'instance_id', r.instance_id),
    index: r.trial_idx ?? null,
    dataset: recordDatasetName(r, r.metadata),
    promptKey: groupKeyText(o, 'instance_id', r.instance_id),
    status: aborted ? 'aborted' : null,
    aborted,
    reward: reward.reward,
    rewardIsInt: reward.rewardIsInt,
    cause,
    responseLength: null,
    step: null,
  };
  return { type: 'sample', sample, rewardProblem: reward.problem };
}

/** A dashboard line: numeric metrics only (other values are not metrics to compare). */
export function normalizeMilesMetrics(o: Obj, info: LineInfo, ctx: NormalizeContext): Normalized {
  const parsed = validate(milesMetricsSchema, fastMilesMetrics, o, ctx.zodOnly);
  if (!parsed.success) return { type: 'invalid', message: formatIssues('miles-metrics', parsed.error.issues, o) };
  const metrics: Record<string, number> = {};
  for (const [name, value] of Object.entries(parsed.data.metrics)) {
    if (typeof value === 'number') metrics[name] = value;
  }
  return {
    type: 'metrics',
    metrics: {
      line: info.line,
      offset: info.offset,
      byteLength: info.byteLength,
      step: parsed.data.step ?? null,
      stepKey: parsed.data.step_key ?? null,
      metrics,
    },
  };
}

export { isPlainObject };
