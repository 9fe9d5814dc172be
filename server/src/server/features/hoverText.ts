// The hover of one sample line, as markdown, rendered from the engine's inspection
// (core/inspect.ts). Pure: everything it shows is handed in. Every value that comes from the log
// (keys, causes, dataset names, messages, metadata, even metric names built from causes) goes
// through `codeSpan`/`codeBlock`/`inline`, so policy-written text renders as text; only this
// file's own fixed words are markdown.
import type { CauseClass } from '../../core/causes';
import type { RecordDetail, SampleInspection } from '../../core/inspect';
import type { DatasetSummary, FileKind, FormatId, SampleRecord } from '../../core/types';
import type { RolloutLensSettings } from '../../../../shared/protocol';
import { codeBlock, codeSpan, inline, numberText } from './escape';

/** Members listed in a hover; the rest are counted. */
const MAX_MEMBERS_SHOWN = 12;

export type HoverSettings = Pick<RolloutLensSettings, 'dynamicFilter'>;

function rewardText(s: SampleRecord): string {
  if (s.reward === null) return 'null';
  if (s.rewardIsInt || !Number.isFinite(s.reward)) return numberText(s.reward);
  return Number.isInteger(s.reward) ? `${s.reward}.0` : String(s.reward);
}

function memberLine(m: SampleRecord, self: SampleRecord): string {
  const status = m.status ?? (m.aborted ? 'aborted' : 'no status');
  const cause = m.cause ? `, cause ${codeSpan(m.cause, 80)}` : '';
  const me = m === self ? ' ← this sample' : '';
  return `- line ${m.line}: ${inline(status)}, reward ${inline(rewardText(m))}${cause}${me}`;
}

const CLASS_TEXT: Record<CauseClass, string> = {
  infrastructure: 'infrastructure (the policy cannot cause it)',
  policy: 'policy (the policy can cause it)',
  scored: 'none: the attempt finished and was scored',
  unclassified: 'unclassified (in neither cause list; extend `rolloutLens.infraCauses` or `rolloutLens.policyCauses`)',
};

function causeVerdict(s: SampleRecord, cls: CauseClass, kind: FileKind): string | null {
  if (kind === 'eval') {
    // Evaluation discards nothing: an aborted attempt scores 0 and stays in pass@k (docs/semantics.md#eval-metrics).
    if (cls === 'infrastructure') return "In evaluation nothing is discarded: this infrastructure failure scores 0 and lowers the dataset's score and pass@k.";
    if (s.aborted) return 'In evaluation an aborted attempt scores 0 and stays in the score and pass@k.';
    return null;
  }
  if (cls === 'infrastructure' && s.aborted) return 'Aborting is right: the group is discarded, not trained on.';
  if (cls === 'infrastructure') return '**Kept and scored**: an infrastructure failure is trained as a policy failure (`infra-failure-scored`).';
  if (cls === 'policy' && s.aborted) return '**Aborted**: a failure the policy can cause is hidden from training (`policy-failure-discarded`).';
  if (cls === 'policy') return 'Kept and scored 0 is right: the policy is trained on its own failure.';
  return null;
}

function causeSection(input: SampleInspection): string[] {
  const s = input.sample;
  if (input.cause === null && !s.aborted) return [];
  if (input.cause === null) {
    if (input.kind !== 'rollout' || isVerl(input.format)) return ['**Cause**: none recorded.'];
    return ['**Cause**: none recorded (no `exit_status`): the group counts as `group_has_aborted_unknown`.'];
  }
  const cls = input.cause.class;
  const lines = [`**Cause** ${codeSpan(input.cause.name)}: ${CLASS_TEXT[cls]}.`];
  const verdict = causeVerdict(s, cls, input.kind);
  if (verdict) lines.push(verdict);
  return lines;
}

function isVerl(format: FormatId): boolean {
  return format === 'verl-rollout' || format === 'verl-validation';
}

function memberList(members: SampleRecord[], sample: SampleRecord): string[] {
  const shown = members.slice(0, MAX_MEMBERS_SHOWN).map((m) => memberLine(m, sample));
  if (members.length > shown.length) shown.push(`- … and ${members.length - shown.length} more`);
  return shown.length ? [shown.join('\n')] : [];
}

function evalGroupSection(input: SampleInspection): string[] {
  const g = input.evalGroup;
  if (!g) return [];
  const correct = g.members.filter((m) => m.reward === 1).length;
  const head = `**Prompt group** ${g.index} (the dataset's samples ${g.index * g.n}–${g.index * g.n + g.n - 1} in index order, ${g.n} per prompt): ${correct} of ${g.members.length} have reward 1 (what pass@k counts).`;
  return [head, ...memberList(g.members, input.sample)];
}

function groupSection(input: SampleInspection, settings: HoverSettings): string[] {
  const { group, sample } = input;
  if (input.kind === 'eval') return evalGroupSection(input);
  if (!group) return sample.groupKey === null ? [] : [`**Group** ${codeSpan(sample.groupKey)}`];
  const members = group.members;
  const out = [
    `**Group** ${codeSpan(group.outcome.key)}: ${members.length} sample${members.length === 1 ? '' : 's'}, ${group.kept ? '**kept**' : '**dropped**'}`,
  ];
  if (group.droppedBy === 'aborted-group') {
    const namer = group.firstAborted;
    const at = namer ? ` (line ${namer.line}, the first aborted sample in group order)` : '';
    out.push(`Dropped by the aborted-group filter, which runs before any dynamic filter: a sample aborted${at}. Reason ${codeSpan(group.reason!)}.`);
  } else if (group.droppedBy === 'reward-std') {
    out.push(
      `Dropped by \`check_reward_nonzero_std\`: the rewards' standard deviation is not above 1e-8 (equal rewards, or one sample). Reason ${codeSpan(group.reason!)}.`,
    );
  } else if (group.kept && isVerl(input.format) && group.firstAborted !== null) {
    out.push(
      'Kept: verl has no aborted-group filter; a sample with an empty response (response_length 0) is masked out of the loss and of `critic/score/mean` instead.',
    );
  } else if (group.kept) {
    const filter = settings.dynamicFilter === 'check_reward_nonzero_std' ? ' and its rewards vary (kept by `check_reward_nonzero_std`)' : '';
    out.push(`Kept: no sample aborted${filter}.`);
  }
  if (group.metric !== null && group.reason !== null) {
    const former = group.formerly.map((f) => `${codeSpan(f.name)} (${f.mode})`);
    out.push(`Counted in ${codeSpan(group.metric)}${former.length ? `; formerly ${former.join(', ')}` : ''}.`);
  }
  return [...out, ...memberList(members, sample)];
}

function datasetSection(d: DatasetSummary | undefined): string[] {
  if (!d) return [];
  const score = d.metrics[`eval/${d.name}`];
  const out = [`**Dataset** ${codeSpan(d.name)}: ${d.samples} samples, ${d.n} per prompt (${inline(d.nSource)}).`];
  if (score !== undefined) out.push(`Counted in ${codeSpan(`eval/${d.name}`)} = ${inline(numberText(score))} (a null reward counts as 0) and its pass@k.`);
  if (d.wrongPassAtK) {
    const wrong = 'crash' in d.wrongPassAtK ? codeSpan(d.wrongPassAtK.crash) : 'other pass@k values';
    out.push(`Older miles groups pass@k by ${d.wrongPassAtK.groupSize} instead: ${wrong}.`);
  }
  return out;
}

function detailSection(s: SampleRecord, detail: RecordDetail | null): string[] {
  if (!detail || (!s.aborted && s.cause === null && detail.message === null)) return [];
  if (detail.unavailable) return [`*Line detail unavailable: ${inline(detail.unavailable)}*`];
  const out: string[] = [];
  if (detail.fields.length) out.push(detail.fields.map((f) => `${inline(f.name)}: ${codeSpan(f.value, 200)}`).join('  \n'));
  if (detail.message) out.push(`${inline(detail.message.field)} (as logged):`, codeBlock(detail.message.text, 1500));
  return out;
}

/** The hover of a sample: the inspection, and the line's detail when it was read. */
export function renderSampleHover(input: SampleInspection, detail: RecordDetail | null, settings: HoverSettings): string {
  const s = input.sample;
  const status = s.status ?? (s.aborted ? 'aborted' : null);
  const head = [
    `**Rollout Lens** · line ${s.line}`,
    [
      status !== null ? `status ${codeSpan(status)}` : null,
      `reward ${codeSpan(rewardText(s))}`,
      s.index !== null ? `index ${s.index}` : null,
      s.dataset !== null ? `dataset ${codeSpan(s.dataset)}` : null,
      s.step !== null ? `step ${s.step}` : null,
    ]
      .filter((x) => x !== null)
      .join(' · '),
  ];
  // Every entry of a section is its own paragraph (markdown would join single lines).
  const sections = [groupSection(input, settings), causeSection(input), datasetSection(input.dataset), detailSection(s, detail)];
  return [...head, ...sections.flat()].join('\n\n');
}
