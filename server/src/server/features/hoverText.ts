// The hover of one sample line, rendered from the engine's inspection (core/inspect.ts) as
// markdown or as plain text, whichever the client asked for (`hover.contentFormat`). Pure:
// everything it shows is handed in. Every piece goes through a `Markup`: identifiers and values
// (keys, causes, statuses, rewards, dataset and metric names, field names, even metric names built
// from causes) as code, prose from the log as escaped text, messages as a block. In markdown that
// is `codeSpan`/`inline`/`codeBlock` (features/escape.ts), so policy-written text renders as text
// and only this file's own fixed words are markdown; in plain text there is no markup at all and
// log text is only made visible (`revealInvisible`, shared/unsafeText.ts).
import { sampleRulesOf } from '../../core/frameworks';
import type { CauseClass } from '../../core/causes';
import type { SampleInspection } from '../../core/inspect';
import type { RecordDetail } from '../../core/recordDetail';
import type { DatasetSummary, FileKind, FormatId, SampleRecord } from '../../core/types';
import type { RolloutLensSettings } from '../../../../shared/protocol';
import { revealInvisible, truncate } from '../../../../shared/unsafeText';
import { codeBlock, codeSpan, inline, numberText } from './escape';

/** How the hover's pieces are written: markdown, or plain text for clients that render no markdown. */
export interface Markup {
  /** This file's own emphasised words (never log text). */
  strong(fixed: string): string;
  em(fixed: string): string;
  /** An identifier or value, from the log or fixed: a metric, key, cause, status, number. */
  code(text: string, max?: number): string;
  /** Prose from the log that is not an identifier. */
  text(text: string, max?: number): string;
  /** A multi-line message from the log. */
  block(text: string, max?: number): string;
  /** A line break inside one paragraph. */
  lineBreak: string;
}

export const MARKDOWN: Markup = {
  strong: (fixed) => `**${fixed}**`,
  em: (fixed) => `*${fixed}*`,
  code: codeSpan,
  text: inline,
  block: codeBlock,
  lineBreak: '  \n',
};

export const PLAIN_TEXT: Markup = {
  strong: (fixed) => fixed,
  em: (fixed) => fixed,
  code: (text, max = 300) => revealInvisible(truncate(text, max), false),
  text: (text, max = 300) => revealInvisible(truncate(text, max), false),
  // Indented, so the message stands apart from the hover's own words.
  block: (text, max = 2000) =>
    revealInvisible(truncate(text, max), true)
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n'),
  lineBreak: '\n',
};

/** Members listed in a hover; the rest are counted. */
const MAX_MEMBERS_SHOWN = 12;

export type HoverSettings = Pick<RolloutLensSettings, 'dynamicFilter'>;

function rewardText(s: SampleRecord): string {
  if (s.reward === null) return 'null';
  if (s.rewardIsInt || !Number.isFinite(s.reward)) return numberText(s.reward);
  return Number.isInteger(s.reward) ? `${s.reward}.0` : String(s.reward);
}

function memberLine(m: Markup, member: SampleRecord, self: SampleRecord): string {
  const status = member.status ?? (member.aborted ? 'aborted' : 'no status');
  const cause = member.cause ? `, cause ${m.code(member.cause, 80)}` : '';
  const me = member === self ? ' ← this sample' : '';
  return `- line ${member.line}: ${m.code(status)}, reward ${m.code(rewardText(member))}${cause}${me}`;
}

function classText(m: Markup, cls: CauseClass): string {
  switch (cls) {
    case 'infrastructure':
      return 'infrastructure (the policy cannot cause it)';
    case 'policy':
      return 'policy (the policy can cause it)';
    case 'scored':
      return 'none: the attempt finished and was scored';
    case 'unclassified':
      return `unclassified (in neither cause list; extend ${m.code('rolloutLens.infraCauses')} or ${m.code('rolloutLens.policyCauses')})`;
  }
}

function causeVerdict(m: Markup, s: SampleRecord, cls: CauseClass, kind: FileKind): string | null {
  if (kind === 'eval') {
    // Evaluation discards nothing: an aborted attempt scores 0 and stays in pass@k (docs/semantics.md#eval-metrics).
    if (cls === 'infrastructure') return "In evaluation nothing is discarded: this infrastructure failure scores 0 and lowers the dataset's score and pass@k.";
    if (s.aborted) return 'In evaluation an aborted attempt scores 0 and stays in the score and pass@k.';
    return null;
  }
  if (cls === 'infrastructure' && s.aborted) return 'Aborting is right: the group is discarded, not trained on.';
  if (cls === 'infrastructure')
    return `${m.strong('Kept and scored')}: an infrastructure failure is trained as a policy failure (${m.code('infra-failure-scored')}).`;
  if (cls === 'policy' && s.aborted)
    return `${m.strong('Aborted')}: a failure the policy can cause is hidden from training (${m.code('policy-failure-discarded')}).`;
  if (cls === 'policy') return 'Kept and scored 0 is right: the policy is trained on its own failure.';
  return null;
}

function causeSection(m: Markup, input: SampleInspection): string[] {
  const s = input.sample;
  if (input.cause === null && !s.aborted) return [];
  if (input.cause === null) {
    if (input.kind !== 'rollout' || isVerl(input.format) || !sampleRulesOf(input.format).abortedGroupFilter) return [`${m.strong('Cause')}: none recorded.`];
    return [`${m.strong('Cause')}: none recorded (no ${m.code('exit_status')}): the group counts as ${m.code('group_has_aborted_unknown')}.`];
  }
  const cls = input.cause.class;
  const lines = [`${m.strong('Cause')} ${m.code(input.cause.name)}: ${classText(m, cls)}.`];
  const verdict = causeVerdict(m, s, cls, input.kind);
  if (verdict) lines.push(verdict);
  return lines;
}

function isVerl(format: FormatId): boolean {
  return format === 'verl-rollout' || format === 'verl-validation';
}

function memberList(m: Markup, members: SampleRecord[], sample: SampleRecord): string[] {
  const shown = members.slice(0, MAX_MEMBERS_SHOWN).map((member) => memberLine(m, member, sample));
  if (members.length > shown.length) shown.push(`- … and ${members.length - shown.length} more`);
  return shown.length ? [shown.join('\n')] : [];
}

function evalGroupSection(m: Markup, input: SampleInspection): string[] {
  const g = input.evalGroup;
  if (!g) return [];
  const correct = g.members.filter((member) => member.reward === 1).length;
  const head = `${m.strong('Prompt group')} ${g.index} (the dataset's samples ${g.index * g.n}–${g.index * g.n + g.n - 1} in index order, ${g.n} per prompt): ${correct} of ${g.members.length} have reward 1 (what pass@k counts).`;
  return [head, ...memberList(m, g.members, input.sample)];
}

function groupSection(m: Markup, input: SampleInspection, settings: HoverSettings): string[] {
  const { group, sample } = input;
  if (input.kind === 'eval') return evalGroupSection(m, input);
  if (!group) return sample.groupKey === null ? [] : [`${m.strong('Group')} ${m.code(sample.groupKey)}`];
  const members = group.members;
  const out = [
    `${m.strong('Group')} ${m.code(group.outcome.key)}: ${members.length} sample${members.length === 1 ? '' : 's'}, ${m.strong(group.kept ? 'kept' : 'dropped')}`,
  ];
  if (group.droppedBy === 'aborted-group') {
    const namer = group.firstAborted;
    const at = namer ? ` (line ${namer.line}, the first aborted sample in group order)` : '';
    out.push(`Dropped by the aborted-group filter, which runs before any dynamic filter: a sample aborted${at}. Reason ${m.code(group.reason!)}.`);
  } else if (group.droppedBy === 'reward-std') {
    out.push(
      `Dropped by ${m.code('check_reward_nonzero_std')}: the rewards' standard deviation is not above ${sampleRulesOf(input.format).zeroStdThreshold} (equal rewards, or one sample). Reason ${m.code(group.reason!)}.`,
    );
  } else if (group.kept && isVerl(input.format) && group.firstAborted !== null) {
    out.push(
      `Kept: verl has no aborted-group filter; a sample with an empty response (${m.code('response_length')} 0) is masked out of the loss and of ${m.code('critic/score/mean')} instead.`,
    );
  } else if (group.kept && !isVerl(input.format) && !sampleRulesOf(input.format).abortedGroupFilter && group.firstAborted !== null) {
    out.push(
      `Kept: ${sampleRulesOf(input.format).version} has no aborted-group filter; the aborted sample stays in its group, in the logged metrics and in the dump.`,
    );
  } else if (group.kept) {
    const filter = settings.dynamicFilter === 'check_reward_nonzero_std' ? ` and its rewards vary (kept by ${m.code('check_reward_nonzero_std')})` : '';
    out.push(`Kept: no sample aborted${filter}.`);
  }
  if (group.metric !== null && group.reason !== null) {
    const former = group.formerly.map((f) => `${m.code(f.name)} (${f.mode})`);
    out.push(`Counted in ${m.code(group.metric)}${former.length ? ` (per-cause drop reasons); miles main (31f1ca9) logs ${former.join(', ')}` : ''}.`);
  }
  return [...out, ...memberList(m, members, sample)];
}

function datasetSection(m: Markup, d: DatasetSummary | undefined): string[] {
  if (!d) return [];
  const score = d.metrics[`eval/${d.name}`];
  const out = [`${m.strong('Dataset')} ${m.code(d.name)}: ${d.samples} samples, ${d.n} per prompt (${m.text(d.nSource)}).`];
  if (score !== undefined) out.push(`Counted in ${m.code(`eval/${d.name}`)} = ${m.code(numberText(score))} (a null reward counts as 0) and its pass@k.`);
  if (d.wrongPassAtK) {
    const wrong = 'crash' in d.wrongPassAtK ? m.code(d.wrongPassAtK.crash) : 'other pass@k values';
    out.push(`miles main (31f1ca9) groups pass@k by ${d.wrongPassAtK.groupSize} instead: ${wrong}.`);
  }
  return out;
}

function detailSection(m: Markup, s: SampleRecord, detail: RecordDetail | null): string[] {
  if (!detail || (!s.aborted && s.cause === null && detail.message === null)) return [];
  if (detail.unavailable) return [m.em(`Line detail unavailable: ${m.text(detail.unavailable)}`)];
  const out: string[] = [];
  if (detail.fields.length) out.push(detail.fields.map((f) => `${m.code(f.name)}: ${m.code(f.value, 200)}`).join(m.lineBreak));
  if (detail.message) out.push(`${m.code(detail.message.field)} (as logged):`, m.block(detail.message.text, 1500));
  return out;
}

/** The hover of a sample: the inspection, and the line's detail when it was read; markdown unless `m` says otherwise. */
export function renderSampleHover(input: SampleInspection, detail: RecordDetail | null, settings: HoverSettings, m: Markup = MARKDOWN): string {
  const s = input.sample;
  const status = s.status ?? (s.aborted ? 'aborted' : null);
  const head = [
    `${m.strong('Rollout Lens')} · line ${s.line}`,
    [
      status !== null ? `status ${m.code(status)}` : null,
      `reward ${m.code(rewardText(s))}`,
      s.index !== null ? `index ${s.index}` : null,
      s.dataset !== null ? `dataset ${m.code(s.dataset)}` : null,
      s.step !== null ? `step ${s.step}` : null,
    ]
      .filter((x) => x !== null)
      .join(' · '),
  ];
  // Every entry of a section is its own paragraph (markdown would join single lines).
  const sections = [groupSection(m, input, settings), causeSection(m, input), datasetSection(m, input.dataset), detailSection(m, s, detail)];
  return [...head, ...sections.flat()].join('\n\n');
}
