// The sample view model (shared/sampleViewModel.ts): the inspection facade (core/inspect.ts) says
// what the sample is and what happened to its group; the sample's line, re-read by offset, gives
// the conversation, response, token facts and metadata, each clipped or summarised (sampleValues.ts),
// so the panel receives a bounded model whatever the line's size.
import type { SampleMismatch, SampleView, SiblingView } from '../../../../shared/sampleViewModel';
import { DEFAULT_SETTINGS } from '../vocabulary/settings';
import type { CauseSettings } from '../vocabulary/causes';
import { failureCause, inspectSample, membersInOrder, type InspectedFile, type SampleInspection } from '../inspect';
import { MAX_DETAIL_LINE_BYTES, recordDetail } from '../recordDetail';
import { existingFile, readTrajectoryRow, siblingTrajectory, sidecarRowOf, sidecarRows } from '../rollout/trajectorySidecar';
import { readSampleLine } from '../scan/sampleLine';
import { readSampleMismatch, trainDataFilesOf, withTokenTexts } from '../train/sampleMismatch';
import { findRunTokenizer, followAny } from '../tokenizer/runTokenizer';
import { dirnameOf } from '../locate/paths';
import type { FormatId, SampleRecord } from '../vocabulary/types';
import { isPtFormat } from '../vocabulary/frameworks';
import { isObject } from '../vocabulary/types';
import { clip, logProbSummary, messagesOf, numbers, parseLine, rawOf, str, treeOf } from './sampleValues';

export type { SampleView };

/** The response of an aborted sample that wrote none. */
const NO_OUTPUT_ABORTED = '(no output: aborted)';
/** Siblings listed. */
const MAX_SIBLINGS = 64;

/**
 * The group's members in group order; a member this file has no line for (a trajectory sidecar's
 * sample aborted before any model call) in its place, as missing, with what its `.pt` says.
 */
function siblingsOf(inspection: SampleInspection, settings: CauseSettings): { list: SiblingView[]; omitted: number } {
  const g = inspection.group;
  const ordered = g ? membersInOrder(g) : (inspection.evalGroup?.members ?? []).map((sample) => ({ sample }));
  const line = inspection.sample.line;
  const finite = (r: number | null) => (r !== null && Number.isFinite(r) ? r : null);
  const list = ordered.slice(0, MAX_SIBLINGS).map((x): SiblingView => {
    const s = 'sample' in x ? x.sample : x.missing;
    return {
      line: 'sample' in x ? x.sample.line : null,
      index: s.index,
      status: s.status,
      reward: finite(s.reward),
      cause: failureCause(s, settings)?.name ?? null,
      aborted: s.aborted,
      current: 'sample' in x && x.sample.line === line,
      missingFrom: 'missing' in x ? { file: x.missing.file, line: x.missing.line } : null,
      missingIn: null,
    };
  });
  return { list, omitted: Math.max(0, ordered.length - MAX_SIBLINGS) };
}

/** The model from what the analysis knows and the line's parsed record (null: not available, and why). */
function buildSampleView(
  file: string,
  inspection: SampleInspection,
  record: unknown,
  unavailable: string | null,
  settings: CauseSettings = DEFAULT_SETTINGS,
): SampleView {
  const s = inspection.sample;
  const r = isObject(record) ? record : {};
  const meta = isObject(r.metadata) ? r.metadata : null;
  const g = inspection.group;
  let verdict: SampleView['verdict'] = null;
  if (g) {
    verdict = {
      kind: 'rollout',
      kept: g.kept,
      reason: g.reason,
      droppedBy: g.droppedBy,
      metric: g.metric,
      formerly: g.formerly.map((f) => ({ name: f.name, mode: f.mode })),
      namedBy: g.droppedBy === 'aborted-group' ? (g.firstAborted?.line ?? null) : g.kept ? null : (g.members[0]?.line ?? null),
    };
  } else if (inspection.dataset) {
    const d = inspection.dataset;
    verdict = { kind: 'eval', dataset: d.name, n: d.n, nSource: d.nSource, groupIndex: inspection.evalGroup?.index ?? null };
  }
  let rewards: SampleView['rewards'] = null;
  if (isObject(r.reward)) {
    rewards = {};
    for (const [k, v] of Object.entries(r.reward).slice(0, 50)) rewards[k] = typeof v === 'number' ? v : null;
  }
  const tokens = numbers(r.tokens);
  const mask = numbers(r.loss_mask);
  const logProbs = numbers(r.rollout_log_probs) ?? numbers(r.log_probs);
  const ones = mask ? mask.filter((x) => x === 1).length : 0;
  const versions = Array.isArray(r.weight_versions)
    ? r.weight_versions.map((v) => String(v))
    : typeof r.weight_version === 'string' || typeof r.weight_version === 'number'
      ? [String(r.weight_version)]
      : null;
  const distinct = versions ? [...new Set(versions)] : [];
  const response = str(r.response) ?? str(r.output) ?? null;
  const label = r.label ?? r.gts ?? null;
  const raw = rawOf(record);
  const failure = record === null ? null : recordDetail(record).message;
  const sib = siblingsOf(inspection, settings);
  return {
    version: 1,
    file,
    line: s.line,
    title: sampleTitle(file, s.line, inspection.format),
    format: inspection.format,
    kind: inspection.kind,
    status: s.status,
    aborted: s.aborted,
    reward: s.reward !== null && Number.isFinite(s.reward) ? s.reward : null,
    rewards,
    label: label === null ? null : typeof label === 'string' ? clip(label) : clip(JSON.stringify(label) ?? ''),
    index: s.index,
    group: s.groupKey,
    step: inspection.step,
    dataset: s.dataset ?? inspection.dataset?.name ?? null,
    prompt: messagesOf(r.prompt ?? r.input ?? r.question ?? null),
    conversation: messagesOf(r.messages ?? null),
    conversationSource: null,
    conversationMissing: null,
    response: response === null || response === '' ? null : clip(response),
    responseNote: (response === null || response === '') && s.aborted ? NO_OUTPUT_ABORTED : null,
    verdict,
    cause: inspection.cause ? { name: inspection.cause.name, class: inspection.cause.class } : null,
    failure: failure ? { field: failure.field, text: clip(failure.text, 4096).text } : null,
    siblings: sib.list,
    siblingsOmitted: sib.omitted,
    tokens: {
      responseLength: s.responseLength,
      tokens: tokens ? tokens.length : null,
      lossMask: mask ? { length: mask.length, ones, coverage: mask.length > 0 ? ones / mask.length : null } : null,
      logProbs: logProbs ? logProbSummary(logProbs) : null,
    },
    weightVersions: versions ? { values: versions.slice(0, 50), distinct: distinct.slice(0, 50), mixed: distinct.length > 1 } : null,
    metadata: meta ? treeOf(meta) : null,
    raw: raw.raw,
    rawClipped: raw.clipped,
    unavailable,
  };
}

/** A `.pt` sample is named by its place in the dump (sample N is line N, docs/pt.md), a line by its number. */
export function sampleTitle(file: string, line: number, format: FormatId): string {
  return isPtFormat(format) ? `${file} · sample ${line}` : `${file}:${line}`;
}

/**
 * The sample view of the sample on a 1-based line; undefined when no sample is there. `display`
 * names the file in the view (default: as analysed).
 */
export async function readSampleView(file: InspectedFile, line1: number, display: string = file.report?.path ?? file.path): Promise<SampleView | undefined> {
  const inspection = inspectSample(file, line1);
  if (!inspection) return undefined;
  const s = inspection.sample;
  const line = await readSampleLine(file.access, file.path, s, MAX_DETAIL_LINE_BYTES);
  let view: SampleView;
  if (line.bytes === null) view = buildSampleView(display, inspection, null, line.unavailable, file.settings);
  else {
    let record: unknown = null;
    try {
      record = parseLine(new TextDecoder().decode(line.bytes));
      view = buildSampleView(display, inspection, record, null, file.settings);
    } catch (err) {
      view = buildSampleView(display, inspection, null, `could not read the line (${err instanceof Error ? err.message : String(err)})`, file.settings);
    }
  }
  // Files named by the analysis (a missing member's `.pt`) are named as `display` names this one.
  const analysed = file.report?.path ?? file.path;
  const root = display !== analysed && analysed.endsWith(display) ? analysed.slice(0, analysed.length - display.length) : null;
  if (root)
    for (const x of view.siblings) if (x.missingFrom?.file.startsWith(root)) x.missingFrom = { ...x.missingFrom, file: x.missingFrom.file.slice(root.length) };
  await addTrajectory(file, display, s, view);
  await addTrainMismatch(file, display, s, view);
  return view;
}

/**
 * A miles dump sample's log-probs from its step's train_data (core/train/sampleMismatch.ts), when
 * `D/train_data/<step>_*.pt` holds it: files are named as `display` names this one.
 */
async function addTrainMismatch(file: InspectedFile, display: string, s: SampleRecord, view: SampleView): Promise<void> {
  if (s.index === null) return;
  const found = await trainDataFilesOf(file.access, file.path);
  if (found === null) return;
  const root = file.path.endsWith(display) ? file.path.slice(0, file.path.length - display.length) : '';
  try {
    const show = (p: string) => (root && p.startsWith(root) ? p.slice(root.length) : p);
    const m = await readSampleMismatch(file.access, found.files, s.index, show);
    view.trainMismatch = m && (await addTokenTexts(m, file, root || null, show, found.root));
  } catch {
    // train_data is optional: unreadable, the view is the sample's alone (check reports the file).
  }
}

/**
 * The tokens' text from the run's tokenizer (core/tokenizer/runTokenizer.ts): the `tokenizer`
 * setting (relative: to the workspace folder `root`, else the log's folder), else what the dump
 * folder `dump` holds or names. One that cannot be read is said in the view; the ids stay.
 */
async function addTokenTexts(m: SampleMismatch, file: InspectedFile, root: string | null, show: (p: string) => string, dump: string): Promise<SampleMismatch> {
  const found = await findRunTokenizer(file.access, {
    setting: file.settings.tokenizer ?? null,
    base: root ?? dirnameOf(file.path),
    root: dump,
    mayFollow: file.mayFollow ?? followAny,
  });
  if (found.texts === null || found.note === null) return found.problem === null ? m : { ...m, tokenizerProblem: found.problem };
  return withTokenTexts(m, found.texts, { ...found.note, file: show(found.note.file), namedBy: found.note.namedBy && show(found.note.namedBy) });
}

/**
 * A miles `.pt` sample's conversation is not in the `.pt` (Sample.to_dict has no messages): the
 * step's trajectory sidecar has it, in the row whose `sample_index` is the sample's `index`
 * (docs/pt.md#the-trajectory-sidecar). Shown as the conversation, with where it was read; a sample
 * the sidecar has no row for says so (miles writes none for a sample aborted before any model call),
 * and so does each sibling it has none for.
 */
async function addTrajectory(file: InspectedFile, display: string, s: SampleRecord, view: SampleView): Promise<void> {
  const sidecar = siblingTrajectory(file.path);
  if (sidecar === null || s.index === null || !(await existingFile(file.access, sidecar))) return;
  const shownSidecar = siblingTrajectory(display) ?? sidecar;
  let found;
  let rows;
  try {
    found = await readTrajectoryRow(file.access, sidecar, s.index, MAX_DETAIL_LINE_BYTES);
    rows = await sidecarRows(file.access, sidecar, MAX_DETAIL_LINE_BYTES);
  } catch {
    return; // the sidecar is optional: unreadable, the view is the .pt's alone
  }
  // The group's members the sidecar lacks, as the trajectory view lists them missing (sidecarRowOf).
  for (const x of view.siblings) if (x.line !== null && sidecarRowOf(rows, x.index) === undefined) x.missingIn = shownSidecar;
  if (found === null) {
    view.conversationMissing = `${shownSidecar} has no row for this sample (index ${s.index}): miles writes none for a sample aborted before any model call`;
    return;
  }
  if (!Array.isArray(found.row.messages)) return;
  view.conversation = messagesOf(found.row.messages);
  view.conversationSource = { file: shownSidecar, line: found.line };
}
