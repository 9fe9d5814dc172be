// `rollout-lens inspect <file> <line>`: what the engine knows about one sample, from the
// inspection facade (core/inspect.ts) the editor's hover also renders: its record, its group and
// what the filters did to it, the metric it counts in, its cause and who could have caused it,
// its eval prompt group and dataset, and a failure's message from the line itself. Plain text;
// everything from the log is terminal-escaped.
import type { CauseSettings } from '../core/vocabulary/causes';
import { failureCause, inspectSample, type SampleInspection } from '../core/inspect';
import { keepDumpLine, lineDetail, readRecordDetail, type RecordDetail, type SamplePlace } from '../core/recordDetail';
import type { SampleRecord } from '../core/vocabulary/types';

import type { InspectArgs } from './args';
import { analyzeRun, type Io } from './check';
import { escapeInline } from './escape';
import { cliFileAccess } from './fileAccess';

const MAX_MEMBERS = 12;

function reward(s: SampleRecord): string {
  return s.reward === null ? 'null' : String(s.reward);
}

/** A member's line: its cause only when it failed (`failureCause`: a finished attempt's `Submitted` is none). */
function member(m: SampleRecord, self: SampleRecord, settings: CauseSettings): string {
  const status = m.status ?? (m.aborted ? 'aborted' : 'no status');
  const failure = failureCause(m, settings);
  const cause = failure ? `, cause ${escapeInline(failure.name)}` : '';
  // By line, not identity: records read from a file's store are views made when asked for.
  return `  line ${m.line}: ${escapeInline(status)}, reward ${reward(m)}${cause}${m.line === self.line ? '  <- this sample' : ''}`;
}

function members(list: SampleRecord[], self: SampleRecord, settings: CauseSettings): string[] {
  const shown = list.slice(0, MAX_MEMBERS).map((m) => member(m, self, settings));
  if (list.length > shown.length) shown.push(`  ... and ${list.length - shown.length} more`);
  return shown;
}

function render(inspection: string[], detail: RecordDetail | null): string {
  return `${[...inspection, ...detailLines(detail)].join('\n')}\n`;
}

/** What the analysis knows of the sample, its failure detail aside. */
function inspectionLines(i: SampleInspection, settings: CauseSettings): string[] {
  const s = i.sample;
  const status = s.status ?? (s.aborted ? 'aborted' : null);
  const head = [
    `line ${s.line}`,
    status !== null ? `status ${escapeInline(status)}` : null,
    `reward ${reward(s)}`,
    s.index !== null ? `index ${s.index}` : null,
    s.dataset !== null ? `dataset ${escapeInline(s.dataset)}` : null,
    i.step !== null ? `step ${i.step}` : null,
    // An exit status that is no failure cause (a finished attempt's `Submitted`) is its exit status.
    i.cause === null && i.exitStatus !== null ? `exit status ${escapeInline(i.exitStatus)}` : null,
  ].filter((x) => x !== null);
  const out = [`${head.join(' · ')} (${i.format}, ${i.kind})`];
  const g = i.group;
  if (g) {
    const verdict = g.kept ? 'kept' : `dropped by the ${g.droppedBy === 'aborted-group' ? 'aborted-group filter' : 'check_reward_nonzero_std filter'}`;
    out.push(`group ${escapeInline(g.outcome.key)}: ${g.members.length} samples, ${verdict}${g.reason !== null ? `, reason ${escapeInline(g.reason)}` : ''}`);
    if (g.metric !== null) {
      const former = g.formerly.map((f) => `${escapeInline(f.name)} (${f.mode})`);
      out.push(`counted in ${escapeInline(g.metric)}${former.length ? ` (per-cause drop reasons); miles main (31f1ca9) logs ${former.join(', ')}` : ''}`);
    }
    out.push(...members(g.members, s, settings));
  } else if (s.groupKey !== null) {
    out.push(`group ${escapeInline(s.groupKey)}`);
  }
  if (i.evalGroup) {
    const e = i.evalGroup;
    const correct = e.members.filter((m) => m.reward === 1).length;
    out.push(`prompt group ${e.index} (${e.n} per prompt): ${correct} of ${e.members.length} have reward 1`);
    out.push(...members(e.members, s, settings));
  }
  if (i.cause) out.push(`cause ${escapeInline(i.cause.name)}: ${i.cause.class}`);
  if (i.dataset)
    out.push(`dataset ${escapeInline(i.dataset.name)}: ${i.dataset.samples} samples, ${i.dataset.n} per prompt (${escapeInline(i.dataset.nSource)})`);
  return out;
}

/** What the sample's line says about its failure. */
function detailLines(detail: RecordDetail | null): string[] {
  const out: string[] = [];
  if (detail?.unavailable) out.push(`line detail unavailable: ${escapeInline(detail.unavailable)}`);
  for (const f of detail?.fields ?? []) out.push(`${escapeInline(f.name)}: ${escapeInline(f.value)}`);
  if (detail?.message) out.push(`${escapeInline(detail.message.field)}: ${escapeInline(detail.message.text)}`);
  return out;
}

export async function runInspect(args: InspectArgs, io: Io): Promise<number> {
  // Rendered while the file's store is held (check releases it right after); the failure's
  // detail is read after the run, from the line's place. A `.pt` dump's sample N is only reached by
  // reading the dump up to it, so the analysis's own reading keeps its line.
  let inspected: { lines: string[]; failed: boolean; place: SamplePlace } | undefined;
  let path = args.paths[0];
  const kept = await keepDumpLine(cliFileAccess, path, args.line);
  const analysed = await analyzeRun(
    args,
    io,
    (file, settings) => {
      const inspection = inspectSample({ report: file, settings }, args.line);
      if (inspection) {
        const { offset, byteLength } = inspection.sample;
        inspected = { lines: inspectionLines(inspection, settings), failed: inspection.failed, place: { offset, byteLength } };
      }
      path = file.path;
    },
    kept,
  );
  if (analysed === null) return 2;
  if (!inspected) {
    io.stderr(`rollout-lens: ${escapeInline(path)}: no sample on line ${args.line}\n`);
    return 1;
  }
  const keptLine = kept?.line(inspected.place.offset);
  const detail = !inspected.failed
    ? null
    : keptLine !== undefined
      ? lineDetail(keptLine)
      : await readRecordDetail({ path, access: cliFileAccess }, inspected.place);
  io.stdout(render(inspected.lines, detail));
  return 0;
}
