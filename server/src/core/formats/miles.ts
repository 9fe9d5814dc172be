// miles formats (docs/semantics.md#formats): `--dump-details` trajectories, agent-server eval trials,
// the dashboard's metrics.jsonl, and what `Sample.to_dict()` lines (milesSample/) share with them.
import { classifyCause } from '../vocabulary/causes';
import { intLiteral, Skipped } from '../reader/jsonRule';
import { LongString, stringTail, type TextTail } from '../reader/textTail';
import type { SampleRecord } from '../vocabulary/types';

import { causeOf, recordDatasetName, type LineInfo, type NormalizeContext, type Normalized } from './context';
import { formatIssues } from './issues';
import { abortedByStatus } from './members/checks';
import { MILES_METRICS, MILES_TRAJECTORY, MILES_TRIALS } from './members/miles';
import { resolveReward } from './reward';
import { validate, validator } from './validation/fast';

type Obj = Record<string, unknown>;

const TRAJECTORY = validator(MILES_TRAJECTORY);
const TRIALS = validator(MILES_TRIALS);
const METRICS = validator(MILES_METRICS);

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

export function normalizeMilesTrajectory(o: Obj, info: LineInfo, ctx: NormalizeContext): Normalized {
  const parsed = validate(TRAJECTORY, o, ctx.reference?.zodOnly);
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
  const parsed = validate(TRIALS, o, ctx.reference?.zodOnly);
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
  const parsed = validate(METRICS, o, ctx.reference?.zodOnly);
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
