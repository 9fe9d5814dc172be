// One analysed file as its summary (docs/compare.md#the-summary): its figures, one prompt row per
// group (held in a compact table) and its eval datasets, from its store column by column or from
// its records (an editor's open document), the same either way.
import { evalDatasetSamples, sampleCount, verdictOf } from '../inspect';
import { fileStep } from '../vocabulary/logFiles';
import { droppedByCause } from '../run/fileOverview';
import { runFrameworkOf, stepNumberOf } from '../run/model';
import type { RunPlan } from '../run/plan';
import type { SampleColumns } from '../store/sampleColumns';
import type { FileDetail, FileReport, SampleRecord } from '../vocabulary/types';
import { attachPromptTable } from './attachedRows';
import { PromptTableBuilder } from './promptTableBuilder';
import { type DatasetFile, type EvalPromptRow, type FileSummary, KEPT, passes, type PromptRow, type SummarizedFile } from './summary';

function finiteOrNull(record: Record<string, number>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(record)) out[k] = Number.isFinite(v) ? v : null;
  return out;
}

/** A prompt's identity: miles' prompt hash, `instance_id` or label, verl's input hash; else its group key. */
function identityOf(store: SampleColumns, i: number): string {
  return store.promptKeyAt(i) ?? store.groupKeyAt(i) ?? `line:${store.lineAt(i)}`;
}

function identityOfRecord(s: SampleRecord): string {
  return s.promptKey ?? s.groupKey ?? `line:${s.line}`;
}

/** One analysed file (with its detail: `keepDetail: 'store'`, or records) as its summary; null for files that make no step. */
export function summarizeFile(report: FileReport, plan: RunPlan | null): SummarizedFile | null {
  if (report.kind !== 'rollout' && report.kind !== 'eval') return null;
  const framework = runFrameworkOf(report.format);
  if (framework === null) return null;
  const detail = report.detail;
  const planned = plan?.byPath.get(report.path);
  const step = stepNumberOf(report, planned) ?? (detail ? fileStep(report.path, detail.store ?? detail.samples) : null);
  const file: FileSummary = {
    path: report.path,
    format: report.format,
    samples: detail ? sampleCount(detail) : report.records,
    groups: { ...report.groups },
    droppedByCause: droppedByCause(report),
    responseTokens: 0,
    droppedTokens: 0,
    reward: { count: 0, sum: 0, sumSq: 0, none: 0 },
    truncated: 0,
    withStatus: 0,
    metrics: finiteOrNull(report.metrics),
    examples: {},
    findings: {},
    states: [KEPT],
    prompts: [],
    datasets: [],
  };
  if (detail?.store) summarizeStore(report, detail, file);
  else if (detail) summarizeRecords(report, detail, file);
  if (report.kind === 'eval' && detail) file.datasets = datasetsOf(report);
  return { framework, kind: report.kind, step, partial: planned?.role === 'partial', file };
}

/**
 * A file's samples, read column by column from its store (no object per sample: a run folder is
 * millions of them), into its figures and one prompt row per group, held in a compact table.
 */
function summarizeStore(report: FileReport, detail: FileDetail, file: FileSummary): void {
  const store = detail.store!;
  // Per group (by group id): its first sample, counts, reward sum, and the sample that names it
  // with its rank (not aborted 1 after aborted 0, then index, then line). Typed arrays: a file of a
  // million samples has 125 000 groups, which as objects would outlive the young generation.
  const n = store.groupKeys.size;
  const first = new Int32Array(n).fill(-1);
  const samples = new Float64Array(n);
  const passCounts = new Float64Array(n);
  const rewardSums = new Float64Array(n);
  const tokenSums = new Float64Array(n);
  const bestAborted = new Uint8Array(n);
  const bestIndex = new Float64Array(n);
  const bestLine = new Float64Array(n);
  const rollout = report.kind === 'rollout';
  const reasonOf = detail.verdicts?.reasonOf;
  // Sums in locals (a field would box each double), added in sample order.
  const reward = file.reward;
  let { count, sum, sumSq, none } = reward;
  let tokens = file.responseTokens;
  let droppedTokens = file.droppedTokens;
  let withStatus = file.withStatus;
  let truncated = file.truncated;
  for (let i = 0; i < store.length; i++) {
    const r = store.rewardAt(i);
    if (r === null) none++;
    else if (Number.isFinite(r)) {
      count++;
      sum += r;
      sumSq += r * r;
    }
    const responseLength = store.responseLengthAt(i);
    const length = responseLength !== null && Number.isFinite(responseLength) ? responseLength : 0;
    tokens += length;
    const status = store.statusAt(i);
    if (status !== null) {
      withStatus++;
      if (status === 'truncated') truncated++;
    }
    if (!rollout) continue;
    const gid = store.groupId(i);
    if (gid < 0) continue;
    if ((reasonOf?.[gid] ?? 0) !== 0) droppedTokens += length;
    const aborted = store.abortedAt(i) ? 0 : 1;
    const index = store.indexAt(i) ?? Infinity;
    const line = store.lineAt(i);
    samples[gid]++;
    if (passes(r)) passCounts[gid]++;
    if (r !== null && Number.isFinite(r)) rewardSums[gid] += r;
    tokenSums[gid] += length;
    if (first[gid] < 0) {
      first[gid] = i;
      bestAborted[gid] = aborted;
      bestIndex[gid] = index;
      bestLine[gid] = line;
    } else if (aborted !== bestAborted[gid] ? aborted < bestAborted[gid] : index !== bestIndex[gid] ? index < bestIndex[gid] : line < bestLine[gid]) {
      // The sample that names the group: the first aborted member in group order, else the first.
      bestAborted[gid] = aborted;
      bestIndex[gid] = index;
      bestLine[gid] = line;
    }
  }
  Object.assign(reward, { count, sum, sumSq, none });
  file.responseTokens = tokens;
  file.droppedTokens = droppedTokens;
  file.withStatus = withStatus;
  file.truncated = truncated;
  const stateIndex = new Map<string, number>([[KEPT, 0]]);
  const stateOf = new Int32Array(n);
  for (let gid = 0; gid < n; gid++) {
    if (first[gid] < 0) continue;
    const reason = verdictOf(detail, gid) ?? KEPT;
    let state = stateIndex.get(reason);
    if (state === undefined) {
      stateIndex.set(reason, (state = file.states.length));
      file.states.push(reason);
    }
    stateOf[gid] = state;
    if (reason !== KEPT && !(reason in file.examples)) file.examples[reason] = bestLine[gid];
  }
  const row = (gid: number): PromptRow => [
    identityOf(store, first[gid]),
    stateOf[gid],
    samples[gid],
    passCounts[gid],
    rewardSums[gid],
    bestLine[gid],
    tokenSums[gid],
  ];
  const table = new PromptTableBuilder(null);
  let fits = true;
  for (let gid = 0; gid < n && fits; gid++) {
    if (first[gid] >= 0)
      fits = table.pushId(identityOf(store, first[gid]), stateOf[gid], samples[gid], passCounts[gid], rewardSums[gid], bestLine[gid], tokenSums[gid]);
  }
  if (fits) attachPromptTable(file, table.finish());
  // Rows as arrays only for a file whose counts do not fit a table's 32 bits (never in practice).
  else for (let gid = 0; gid < n; gid++) if (first[gid] >= 0) file.prompts.push(row(gid));
}

interface GroupAcc {
  id: string;
  /** `kept` or its drop reason. */
  reason: string;
  samples: number;
  passes: number;
  rewardSum: number;
  tokens: number;
  /** The sample that names the group, and its rank: not aborted (1) after aborted (0), then index, then line. */
  line: number;
  aborted: number;
  index: number;
}

/**
 * A file held as records and group outcomes (an editor's open document, without a store) into the
 * same figures and rows as `summarizeStore` gives (tested on the same files both ways).
 */
function summarizeRecords(report: FileReport, detail: FileDetail, file: FileSummary): void {
  const groupOfLine = new Map<number, number>();
  detail.groups.forEach((g, gi) => {
    for (const line of g.lines) groupOfLine.set(line, gi);
  });
  // Groups in the order of their first sample (a store's group ids are that order already).
  const groups: (GroupAcc | undefined)[] = [];
  const order: GroupAcc[] = [];
  for (const s of detail.samples) {
    if (s.reward === null) file.reward.none++;
    else if (Number.isFinite(s.reward)) {
      file.reward.count++;
      file.reward.sum += s.reward;
      file.reward.sumSq += s.reward * s.reward;
    }
    const length = s.responseLength !== null && Number.isFinite(s.responseLength) ? s.responseLength : 0;
    file.responseTokens += length;
    if (s.status !== null) {
      file.withStatus++;
      if (s.status === 'truncated') file.truncated++;
    }
    const gid = groupOfLine.get(s.line) ?? -1;
    if (report.kind !== 'rollout' || gid < 0) continue;
    const outcome = detail.groups[gid];
    if (!outcome.kept) file.droppedTokens += length;
    const [aborted, index, line] = [s.aborted ? 0 : 1, s.index ?? Infinity, s.line];
    let g = groups[gid];
    if (!g) {
      g = {
        id: identityOfRecord(s),
        reason: outcome.kept ? KEPT : (outcome.reason ?? KEPT),
        samples: 0,
        passes: 0,
        rewardSum: 0,
        tokens: 0,
        line,
        aborted,
        index,
      };
      order.push((groups[gid] = g));
    }
    g.samples++;
    g.tokens += length;
    if (passes(s.reward)) g.passes++;
    if (s.reward !== null && Number.isFinite(s.reward)) g.rewardSum += s.reward;
    // The sample that names the group: the first aborted member in group order, else the first.
    if (aborted !== g.aborted ? aborted < g.aborted : index !== g.index ? index < g.index : line < g.line) {
      g.aborted = aborted;
      g.index = index;
      g.line = line;
    }
  }
  const stateIndex = new Map<string, number>([[KEPT, 0]]);
  for (const g of order) {
    let state = stateIndex.get(g.reason);
    if (state === undefined) {
      stateIndex.set(g.reason, (state = file.states.length));
      file.states.push(g.reason);
    }
    if (g.reason !== KEPT && !(g.reason in file.examples)) file.examples[g.reason] = g.line;
    file.prompts.push([g.id, state, g.samples, g.passes, g.rewardSum, g.line, g.tokens]);
  }
}

function datasetsOf(report: FileReport): DatasetFile[] {
  const detail = report.detail!;
  const out: DatasetFile[] = [];
  for (const part of evalDatasetSamples(report, detail)) {
    const summary = detail.datasets.find((d) => d.name === part.name);
    const byPrompt = new Map<string, EvalPromptRow>();
    const d: DatasetFile = {
      name: part.name,
      n: summary?.n ?? 1,
      samples: part.samples.length,
      noneReward: 0,
      truncated: 0,
      line: Infinity,
      metrics: finiteOrNull(summary?.metrics ?? {}),
      prompts: [],
    };
    for (const s of part.samples) {
      d.line = Math.min(d.line, s.line);
      if (s.reward === null) d.noneReward++;
      if (s.status === 'truncated') d.truncated++;
      const id = identityOfRecord(s);
      let row = byPrompt.get(id);
      if (!row) {
        byPrompt.set(id, (row = [id, 0, 0, 0, s.line]));
        d.prompts.push(row);
      }
      row[1]++;
      if (passes(s.reward)) row[2]++;
      if (s.reward !== null && Number.isFinite(s.reward)) row[3] += s.reward;
      row[4] = Math.min(row[4], s.line);
    }
    if (!Number.isFinite(d.line)) d.line = 1;
    out.push(d);
  }
  return out;
}
