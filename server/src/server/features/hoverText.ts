// The hover of one sample line, rendered from the engine's inspection (core/inspect.ts) as
// markdown or as plain text, whichever the client asked for (`hover.contentFormat`). Pure:
// everything it shows is handed in. Every piece goes through a `Markup`: identifiers and values
// (keys, causes, statuses, rewards, dataset and metric names, field names, even metric names built
// from causes) as code, prose from the log as escaped text, messages as a block. In markdown that
// is `codeSpan`/`inline`/`codeBlock` (features/escape.ts), so policy-written text renders as text
// and only this file's own fixed words are markdown; in plain text there is no markup at all and
// log text is only made visible (`revealInvisible`, shared/unsafeText.ts).
import type { CauseClass } from '../../core/vocabulary/causes';
import { sampleRulesOf } from '../../core/vocabulary/frameworks';
import { failureCause, membersInOrder, type SampleInspection } from '../../core/inspect';
import type { RecordDetail } from '../../core/recordDetail';
import type { DatasetSummary, FormatId, MissingMember, SampleRecord } from '../../core/vocabulary/types';
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

export type HoverSettings = Pick<RolloutLensSettings, 'dynamicFilter' | 'infraCauses' | 'policyCauses'>;

function rewardText(s: Pick<SampleRecord, 'reward' | 'rewardIsInt'>): string {
  if (s.reward === null) return 'null';
  if (s.rewardIsInt || !Number.isFinite(s.reward)) return numberText(s.reward);
  return Number.isInteger(s.reward) ? `${s.reward}.0` : String(s.reward);
}

function statusOf(s: Pick<SampleRecord, 'status' | 'aborted'>): string {
  return s.status ?? (s.aborted ? 'aborted' : 'no status');
}

function isVerl(format: FormatId): boolean {
  return format === 'verl-rollout' || format === 'verl-validation';
}

/** A cause and its class, as the headline names it. */
function causeText(m: Markup, cause: { name: string; class: CauseClass }): string {
  return `${m.code(cause.name, 80)} (${cause.class})`;
}

/** What the group (or eval attempt) came to and why, in one sentence: the hover's first paragraph. */
function headline(m: Markup, input: SampleInspection): string {
  const s = input.sample;
  const own = input.cause;
  if (input.kind === 'eval') {
    const d = input.dataset ? `${m.code(input.dataset.name)} attempt` : 'eval attempt';
    // Evaluation discards nothing: an aborted attempt scores 0 and stays in pass@k (docs/semantics.md#eval-metrics).
    if (own?.class === 'infrastructure') return `${d} failed: ${causeText(m, own)}, scored 0 in the dataset's score and pass@k`;
    if (s.aborted) return `${d} aborted${own ? `: ${causeText(m, own)}` : ''}, scored 0 and kept in pass@k`;
    const g = input.evalGroup;
    if (!g) return `${d}: ${m.code(statusOf(s))}, reward ${m.code(rewardText(s))}`;
    const correct = g.members.filter((member) => member.reward === 1).length;
    return `${d} in prompt group ${g.index}: ${correct} of ${g.members.length} have reward 1`;
  }
  const g = input.group;
  if (!g) return `line ${s.line}: ${m.code(statusOf(s))}, reward ${m.code(rewardText(s))}`;
  const name = `group ${m.code(g.outcome.key, 80)}`;
  if (g.droppedBy === 'aborted-group') {
    const c = g.dropCause;
    if (c === null) return `${name} dropped: ${m.code(g.reason!)}, an aborted sample with no cause recorded`;
    if (c.class === 'infrastructure') return `${name} dropped: ${causeText(m, c)}, right to discard`;
    if (c.class === 'policy') return `${name} dropped: ${causeText(m, c)}, wrong to discard: a failure the policy can cause is hidden from training`;
    return `${name} dropped: ${causeText(m, c)}`;
  }
  if (g.droppedBy === 'reward-std') return `${name} dropped: ${m.code(g.reason!)}, all its rewards are equal`;
  if (own?.class === 'infrastructure') return `${name} kept, but this sample's ${causeText(m, own)} is trained as a policy failure`;
  if (own?.class === 'policy') return `${name} kept: this sample's ${causeText(m, own)} is scored, right to train on`;
  if (isVerl(input.format) && s.aborted) return `${name} kept: verl masks this empty response out of the loss`;
  if (s.aborted && !sampleRulesOf(input.format).abortedGroupFilter) return `${name} kept: ${sampleRulesOf(input.format).version} has no aborted-group filter`;
  return `${name} kept`;
}

/** The sample's own facts: line, status, reward, index, dataset, step, and an exit status that is no failure cause. */
function factsLine(m: Markup, input: SampleInspection): string {
  const s = input.sample;
  return [
    `line ${s.line}`,
    `status ${m.code(statusOf(s))}`,
    `reward ${m.code(rewardText(s))}`,
    s.index !== null ? `index ${s.index}` : null,
    s.dataset !== null ? `dataset ${m.code(s.dataset)}` : null,
    input.step !== null ? `step ${input.step}` : null,
    input.cause === null && input.exitStatus !== null ? `exit status ${m.code(input.exitStatus, 80)}` : null,
  ]
    .filter((x) => x !== null)
    .join(' · ');
}

/** Which filter, its reason and metric (exact names), and why the group was kept. */
function verdictLines(m: Markup, input: SampleInspection, settings: HoverSettings): string[] {
  const g = input.group;
  if (!g) return [];
  const out: string[] = [];
  const metric = g.metric !== null ? `, counted in ${m.code(g.metric)}` : '';
  if (g.droppedBy === 'aborted-group') {
    const namer = g.firstAborted;
    const by = namer === null || namer === input.sample ? '' : `, named by line ${namer.line}`;
    out.push(`Aborted-group filter${by}: reason ${m.code(g.reason!)}${metric}.`);
  } else if (g.droppedBy === 'reward-std') {
    out.push(
      `${m.code('check_reward_nonzero_std')} (reward std not above ${sampleRulesOf(input.format).zeroStdThreshold}): reason ${m.code(g.reason!)}${metric}.`,
    );
  } else if (isVerl(input.format) && g.firstAborted !== null) {
    out.push(
      `verl has no aborted-group filter: a sample with an empty response (${m.code('response_length')} 0) is masked out of the loss and of ${m.code('critic/score/mean')}.`,
    );
  } else if (!isVerl(input.format) && !sampleRulesOf(input.format).abortedGroupFilter && g.firstAborted !== null) {
    out.push(
      `${sampleRulesOf(input.format).version} has no aborted-group filter: the aborted sample stays in its group, in the logged metrics and in the dump.`,
    );
  } else {
    const filter = settings.dynamicFilter === 'check_reward_nonzero_std' ? ` and its rewards vary (${m.code('check_reward_nonzero_std')})` : '';
    out.push(`No sample aborted${filter}.`);
  }
  if (g.formerly.length) out.push(`miles main (31f1ca9) logs it in ${g.formerly.map((f) => `${m.code(f.name)} (${f.mode})`).join(', ')}.`);
  return [out.join(' ')];
}

function memberLine(m: Markup, member: SampleRecord, self: SampleRecord, settings: HoverSettings): string {
  if (member === self) return `- line ${member.line}: this sample`;
  const cause = failureCause(member, settings);
  return `- line ${member.line}: ${m.code(statusOf(member))}, reward ${m.code(rewardText(member))}${cause ? `, cause ${m.code(cause.name, 80)}` : ''}`;
}

function missingLine(m: Markup, member: MissingMember, settings: HoverSettings): string {
  const cause = failureCause(member, settings);
  const index = member.index !== null ? `index ${member.index}` : `member ${member.position + 1}`;
  return `- ${index}: missing here; ${m.code(statusOf(member))}${cause ? `, cause ${m.code(cause.name, 80)}` : ''} in ${m.code(stepFileName(member.file), 200)} line ${member.line}`;
}

/** A step file by its folder and name (`rollout_data/1.pt`): the hover sits in the same run. */
function stepFileName(path: string): string {
  return path.split(/[\\/]/).slice(-2).join('/');
}

/** The members in group order, the ones this file lacks in their place. */
function memberList(m: Markup, input: SampleInspection, settings: HoverSettings): string[] {
  const ordered = input.group ? membersInOrder(input.group) : (input.evalGroup?.members ?? []).map((sample) => ({ sample }));
  const lines = ordered.map((x) => ('sample' in x ? memberLine(m, x.sample, input.sample, settings) : missingLine(m, x.missing, settings)));
  const missing = input.group?.missing ?? [];
  const shown = lines.slice(0, MAX_MEMBERS_SHOWN);
  if (lines.length > shown.length) shown.push(`- … and ${lines.length - shown.length} more`);
  return shown.length > 1 || missing.length > 0 ? [shown.join('\n')] : [];
}

/** What the headline has not said about this sample's own cause. */
function causeLines(m: Markup, input: SampleInspection): string[] {
  const own = input.cause;
  const g = input.group;
  if (own === null) return [];
  const out: string[] = [];
  if (input.kind === 'rollout' && g?.droppedBy === 'aborted-group' && g.dropCause?.name !== own.name) out.push(`This sample's cause: ${causeText(m, own)}.`);
  if (input.kind === 'rollout' && g?.kept && own.class === 'infrastructure')
    out.push(`The agent should abort it so the group is discarded (${m.code('infra-failure-scored')}).`);
  if (input.kind === 'rollout' && own.class === 'policy' && input.sample.aborted && g?.dropCause?.name === own.name)
    out.push(`Keep it and score it 0 instead (${m.code('policy-failure-discarded')}).`);
  if (own.class === 'unclassified')
    out.push(`${m.code(own.name, 80)} is in neither cause list; extend ${m.code('rolloutLens.infraCauses')} or ${m.code('rolloutLens.policyCauses')}.`);
  return out;
}

function evalLines(m: Markup, input: SampleInspection): string[] {
  const out: string[] = [];
  const g = input.evalGroup;
  if (g)
    out.push(
      `Prompt group ${g.index}: the dataset's samples ${g.index * g.n}–${g.index * g.n + g.n - 1} in index order, ${g.n} per prompt; pass@k counts reward 1.`,
    );
  const d: DatasetSummary | undefined = input.dataset;
  if (!d) return out;
  const score = d.metrics[`eval/${d.name}`];
  out.push(
    `Dataset ${m.code(d.name)}: ${d.samples} samples, ${d.n} per prompt (${m.text(d.nSource)})${score !== undefined ? `; ${m.code(`eval/${d.name}`)} = ${m.code(numberText(score))} (a null reward counts as 0)` : ''}.`,
  );
  if (d.wrongPassAtK) {
    const wrong = 'crash' in d.wrongPassAtK ? m.code(d.wrongPassAtK.crash) : 'other pass@k values';
    out.push(`miles main (31f1ca9) groups pass@k by ${d.wrongPassAtK.groupSize} instead: ${wrong}.`);
  }
  return out;
}

function detailSection(m: Markup, input: SampleInspection, detail: RecordDetail | null): string[] {
  if (!detail || (!input.failed && detail.message === null)) return [];
  if (detail.unavailable) return [m.em(`Line detail unavailable: ${m.text(detail.unavailable)}`)];
  const out: string[] = [];
  if (detail.fields.length) out.push(detail.fields.map((f) => `${m.code(f.name)}: ${m.code(f.value, 200)}`).join(m.lineBreak));
  if (detail.message) out.push(`${m.code(detail.message.field)} (as logged):`, m.block(detail.message.text, 1500));
  return out;
}

/**
 * The hover of a sample, markdown unless `m` says otherwise: one headline (what its group came to
 * and why), then the details, each said once: the sample's facts, the filter with its exact
 * reason and metric names, the members, what the headline left out about its cause, the eval
 * dataset, and the line's failure detail when it was read. Paragraphs are separated by a blank
 * line; the first is the headline (the editor puts its "Open Sample" link after it).
 */
export function renderSampleHover(input: SampleInspection, detail: RecordDetail | null, settings: HoverSettings, m: Markup = MARKDOWN): string {
  const parts = [
    m.strong(headline(m, input)),
    factsLine(m, input),
    ...verdictLines(m, input, settings),
    ...causeLines(m, input),
    ...memberList(m, input, settings),
    ...(input.kind === 'eval' ? evalLines(m, input) : []),
    ...detailSection(m, input, detail),
  ];
  return parts.join('\n\n');
}
