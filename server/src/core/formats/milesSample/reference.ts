// The reference path of miles `Sample.to_dict()` records (miles, slime, `.pt` samples): a line
// scanned whole (reader/ruleParse.ts), validated (formats/validation/) and normalised here. Its fast
// twin, `line.ts`, reads the same members straight from the line's bytes and must give the same
// record (test/unit/formats/lineFastPath.test.ts); which members both read is MILES_SAMPLE
// (formats/members/miles.ts).
import { noteShape, type ShapeNotes } from '../fieldShape';
import { Skipped } from '../../reader/jsonRule';
import type { MilesSampleFields, SampleRecord } from '../../vocabulary/types';

import { recordDatasetName, causeOf, type LineInfo, type NormalizeContext, type Normalized } from '../context';
import { formatIssues } from '../issues';
import { groupKeyText, repetitionOf } from '../miles';
import { abortedByStatus, isPlainObject } from '../members/checks';
import { MILES_SAMPLE } from '../members/miles';
import { keyedReward, resolveReward } from '../reward';
import { validate, validator } from '../validation/fast';

type Obj = Record<string, unknown>;

const SAMPLE = validator(MILES_SAMPLE);

function hashOf(v: unknown): string | null {
  return v instanceof Skipped ? v.hash : null;
}

// The records below spell out line/offset/byteLength: an object spread (`...base(info)`) in these
// per-line literals made V8 build each record slowly (BENCHMARKS.md, "Design measurements").
export function normalizeMilesSample(o: Obj, info: LineInfo, ctx: NormalizeContext): Normalized {
  const parsed = validate(SAMPLE, o, ctx.reference?.zodOnly);
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
