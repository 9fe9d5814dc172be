// One file's part of the run view (core/views/runView.ts): everything the model takes from the
// file, read in one pass over its samples, in a few numbers and at most `samplesPerReason` listed
// samples per drop reason. The builder folds these parts in file order; a host may keep a file's part
// (by the file's stamp) and fold it again without reading the file (the editor's run view, drawn
// again when one step file of a large run appears).
import type { SampleRef } from '../../../../shared/runViewModel';
import type { CauseSettings } from '../vocabulary/causes';
import { summarizeFile } from '../compare/summarizeFile';
import { eachSample, failureCause, sampleAt, sampleCount, verdictOf } from '../inspect';
import { fileStep } from '../vocabulary/logFiles';
import { npMean } from '../eval/numeric';
import { verlScore } from '../eval/verlRows';
import { inGroupOrder } from '../rollout/groups';
import { stepNumberOf } from '../run/model';
import type { RunPlan } from '../run/plan';
import type { SampleColumns } from '../store/sampleColumns';
import type { DatasetSummary, FileDetail, FileReport, MetricsRecord, SampleRecord } from '../vocabulary/types';
import { rememberPlace } from './runViewExcerpts';
import { type FilePrompts, MAX_FILE_PROMPT_GROUPS, packPromptRows } from './runViewPrompts';

/** What a rollout file adds to its step. */
export interface RolloutPart {
  samples: number;
  rewardSum: number;
  rewardCount: number;
  lengthSum: number;
  lengthCount: number;
  statusCount: number;
  truncated: number;
  droppedTokens: number;
  totalTokens: number;
  /** verl: `critic/score/mean` times the rows it counts, and the sum of every attempt's score. */
  verlKept: { sum: number; count: number };
  verlAll: { sum: number; count: number };
  /** Reason → the first `samplesPerReason` samples naming its dropped groups, in file order. */
  listed: Record<string, SampleRef[]>;
  /** Reason → dropped groups of this file not listed. */
  omitted: Record<string, number>;
  /**
   * Its prompt rows as its run summary holds them (core/compare/summary.ts `summarizeFile`),
   * packed, for the run's prompt history (core/views/runViewPrompts.ts); null without the file's samples.
   */
  prompts: FilePrompts | null;
}

export interface FilePart {
  report: Pick<FileReport, 'path' | 'kind' | 'format' | 'groups' | 'metrics' | 'records' | 'step'>;
  source: string;
  /** The file's step: its plan's (a dump file's name), else its records', else its name's. */
  step: number | null;
  rollout: RolloutPart | null;
  datasets: DatasetSummary[];
  metricsRecords: Pick<MetricsRecord, 'step' | 'metrics'>[];
}

/** One file's part, from its report with its detail (records or store); the detail may be released afterwards. */
export function filePart(file: FileReport, plan: RunPlan | null | undefined, samplesPerReason: number, causes: CauseSettings): FilePart {
  const detail = file.detail;
  const step = stepNumberOf(file, plan?.byPath.get(file.path)) ?? fileStep(file.path, detail?.store ?? detail?.samples ?? []);
  const { detail: _detail, ...report } = file;
  return {
    report,
    source: detail?.source ?? file.path,
    step,
    rollout: file.kind === 'rollout' ? rolloutPart(file, plan, step, samplesPerReason, causes) : null,
    datasets: file.kind === 'eval' ? (detail?.datasets ?? []) : [],
    metricsRecords: file.kind === 'metrics' ? (detail?.metricsRecords ?? []).map((r) => ({ step: r.step, metrics: r.metrics })) : [],
  };
}

function rolloutPart(file: FileReport, plan: RunPlan | null | undefined, step: number | null, perReason: number, causes: CauseSettings): RolloutPart {
  const detail = file.detail;
  const part: RolloutPart = {
    samples: detail ? sampleCount(detail) : file.records,
    rewardSum: 0,
    rewardCount: 0,
    lengthSum: 0,
    lengthCount: 0,
    statusCount: 0,
    truncated: 0,
    droppedTokens: 0,
    totalTokens: 0,
    verlKept: { sum: 0, count: 0 },
    verlAll: { sum: 0, count: 0 },
    listed: {},
    omitted: {},
    prompts: null,
  };
  if (!detail) return part;
  if (file.format === 'verl-rollout') addVerlScores(file, detail, part);
  if (detail.store && detail.verdicts) {
    addStore(file, detail as FileDetail & { store: SampleColumns }, step, part, perReason, causes);
    return withPrompts(part, file, plan);
  }
  for (const s of eachSample(detail)) addSample(part, s);
  for (const g of detail.groups) {
    if (g.kept || g.reason === null) continue;
    const members = g.lines.map((l) => sampleAt(detail, l)).filter((s): s is SampleRecord => s !== undefined);
    for (const s of members) if (s.responseLength !== null && Number.isFinite(s.responseLength)) part.droppedTokens += s.responseLength;
    // The sample that names the reason: the first aborted member, else the first member.
    const at = members.find((s) => s.aborted) ?? members[0];
    if (!at) continue;
    const listed = (part.listed[g.reason] ??= []);
    if (listed.length < perReason) listed.push(sampleRef(file, detail.source, step, at, causes));
    else part.omitted[g.reason] = (part.omitted[g.reason] ?? 0) + 1;
  }
  return withPrompts(part, file, plan);
}

/** The file's prompt rows, made by the run summary's own `summarizeFile` (one owner of a prompt's identity, state and tokens). */
function withPrompts(part: RolloutPart, file: FileReport, plan: RunPlan | null | undefined): RolloutPart {
  // A file past the bound is not summarised at all: its rows would only be made to be dropped.
  const groups = file.detail?.store ? file.detail.store.groupKeys.size : (file.detail?.groups.length ?? 0);
  if (groups > MAX_FILE_PROMPT_GROUPS) {
    part.prompts = { omittedGroups: groups };
    return part;
  }
  const summarized = summarizeFile(file, plan ?? null)?.file;
  if (!summarized) return part;
  const packed = packPromptRows(summarized.states, summarized.prompts);
  part.prompts = packed ? { packed } : { omittedGroups: summarized.prompts.length };
  return part;
}

function addSample(part: RolloutPart, s: SampleRecord): void {
  if (s.reward !== null && Number.isFinite(s.reward)) {
    part.rewardSum += s.reward;
    part.rewardCount++;
  }
  if (s.responseLength !== null && Number.isFinite(s.responseLength)) {
    part.lengthSum += s.responseLength;
    part.lengthCount++;
    part.totalTokens += s.responseLength;
  }
  if (s.status !== null) {
    part.statusCount++;
    if (s.status === 'truncated') part.truncated++;
  }
}

/**
 * The same pass over a store and its groups' verdicts, in one pass over the rows: no group
 * outcome, no line index, a record at a time; only the groups whose sample gets listed keep their
 * records until the pass ends. Groups are met in file order (a scan's rows are in line order, and
 * group ids are first-appearance ordinals).
 */
function addStore(
  file: FileReport,
  detail: FileDetail & { store: SampleColumns },
  step: number | null,
  part: RolloutPart,
  perReason: number,
  causes: CauseSettings,
): void {
  const store = detail.store;
  const seen = new Uint8Array(store.groupKeys.size);
  /** Groups whose naming sample is listed: their members, by group id, in file order. */
  const listed = new Map<number, { reason: string; members: SampleRecord[] }>();
  const pending: Record<string, number> = {};
  for (let i = 0; i < store.length; i++) {
    const s = store.at(i);
    addSample(part, s);
    const gid = store.groupId(i);
    if (gid < 0) continue;
    const reason = verdictOf(detail, gid);
    if (reason === null) continue;
    if (s.responseLength !== null && Number.isFinite(s.responseLength)) part.droppedTokens += s.responseLength;
    if (seen[gid] === 0) {
      seen[gid] = 1;
      if ((pending[reason] ?? 0) < perReason) {
        pending[reason] = (pending[reason] ?? 0) + 1;
        listed.set(gid, { reason, members: [] });
      } else part.omitted[reason] = (part.omitted[reason] ?? 0) + 1;
    }
    listed.get(gid)?.members.push(s);
  }
  for (const { reason, members } of listed.values()) {
    // The sample that names the reason: the first aborted member in group order, else the first.
    const ordered = inGroupOrder(members);
    const at = ordered.find((m) => m.aborted) ?? ordered[0];
    (part.listed[reason] ??= []).push(sampleRef(file, detail.source, step, at, causes));
  }
}

/**
 * verl's `critic/score/mean` (rows with output only, as the engine recomputed it) and the mean over
 * every attempt (core/eval/verlRollout.ts), each weighted by its rows (a step may have several files).
 */
function addVerlScores(file: FileReport, detail: FileDetail, part: RolloutPart): void {
  const all: number[] = [];
  let kept = 0;
  for (const s of eachSample(detail)) {
    all.push(verlScore(s).value ?? 0);
    if (!s.aborted) kept++;
  }
  const keptMean = file.metrics['critic/score/mean'];
  if (kept > 0 && Number.isFinite(keptMean)) part.verlKept = { sum: keptMean * kept, count: kept };
  if (all.length > 0) part.verlAll = { sum: npMean(all) * all.length, count: all.length };
}

/** A listed sample; its cause only when it failed (`failureCause`: a finished attempt's `Submitted` is none). */
function sampleRef(file: FileReport, source: string, step: number | null, s: SampleRecord, causes: CauseSettings): SampleRef {
  const ref: SampleRef = {
    file: file.path,
    source,
    line: s.line,
    step,
    group: s.groupKey,
    index: s.index,
    status: s.status,
    reward: s.reward !== null && Number.isFinite(s.reward) ? s.reward : null,
    cause: failureCause(s, causes)?.name ?? null,
  };
  rememberPlace(ref, s);
  return ref;
}
