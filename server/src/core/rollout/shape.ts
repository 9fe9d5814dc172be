// Group shape checks (docs/semantics.md#group-shape): group size against n_samples_per_prompt, and prompt identity
// against group membership.
import { attemptCount } from '../eval/verlRows';
import type { SampleRecord } from '../vocabulary/types';
import type { SampleGroup } from './groups';
import { rolloutCount } from './compactRollouts';
import { incompleteGroupMessage, incompleteRolloutsMessage, mixedPromptsMessage, spreadPromptMessage } from './messages';
import { relatedMembers } from './related';

/** A shape problem, located at a sample; the caller turns it into a Finding. */
export interface ShapeProblem {
  code: 'incomplete-group' | 'misgrouped';
  at: SampleRecord;
  group: string;
  message: string;
  /** A group's problem lists its first `MAX_RELATED_LINES` other members (related.ts). */
  related: SampleRecord[];
}

/**
 * With n known, every group of another size (miles' sync loop would assert). A verl v1 session
 * that wrote several outputs is one attempt (docs/framework-files.md#verl-v1); with `compact`, the
 * samples sharing a rollout are one rollout (docs/framework-files.md#compact-rollouts), in miles' and
 * slime's files alike; `framework` names whose assertion the message quotes.
 */
export function incompleteGroups(groups: readonly SampleGroup[], n: number | null, compact = false, framework: 'miles' | 'slime' = 'miles'): ShapeProblem[] {
  if (n === null) return [];
  return groups
    .map((g) => ({ g, size: compact ? rolloutCount(g.members) : attemptCount(g.members) }))
    .filter(({ size }) => size !== n)
    .map(({ g, size }) => ({
      code: 'incomplete-group' as const,
      at: g.members.record(0),
      group: g.key,
      message:
        compact && size !== g.members.length
          ? incompleteRolloutsMessage(g.key, size, g.members.length, n, framework)
          : incompleteGroupMessage(g.key, size, n, framework),
      related: relatedMembers(g.members, 0),
    }));
}

/**
 * Two misgroupings: a group whose members have different prompts (reported once per group, at the
 * first member whose prompt differs from the group's first), and a prompt found in several groups
 * (reported once per prompt, at its first sample in its second group). Samples without a prompt
 * identity take part in neither.
 */
export function misgrouped(groups: readonly SampleGroup[]): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  const groupsOfPrompt = new Map<string, { group: SampleGroup; first: SampleRecord }[]>();
  for (const g of groups) {
    const odd = mixedPrompts(g);
    if (odd !== null) problems.push(odd);
    for (let k = 0; k < g.members.length; k++) {
      const prompt = g.members.promptKey(k);
      if (prompt === null) continue;
      const seen = groupsOfPrompt.get(prompt) ?? [];
      // Groups are visited one after another, so only the last entry can be this group.
      if (seen[seen.length - 1]?.group !== g) seen.push({ group: g, first: g.members.record(k) });
      groupsOfPrompt.set(prompt, seen);
    }
  }
  for (const entries of groupsOfPrompt.values()) {
    if (entries.length < 2) continue;
    const at = entries[1].first;
    problems.push({
      code: 'misgrouped',
      at,
      group: entries[1].group.key,
      message: spreadPromptMessage(entries.map((e) => e.group.key)),
      related: entries.filter((e) => e.first !== at).map((e) => e.first),
    });
  }
  return problems;
}

/** A group whose members have different prompts, reported at the first member whose prompt differs from the group's first. */
export function mixedPrompts(g: SampleGroup): ShapeProblem | null {
  const members = g.members;
  let first: string | null = null;
  let odd = -1;
  for (let k = 0; k < members.length && odd < 0; k++) {
    const prompt = members.promptKey(k);
    if (prompt === null) continue;
    if (first === null) first = prompt;
    else if (prompt !== first) odd = k;
  }
  if (odd < 0) return null;
  // Only a mixed group's distinct prompts are counted (one key for a whole file: every prompt).
  const distinct = new Set<string>();
  for (let k = 0; k < members.length; k++) {
    const prompt = members.promptKey(k);
    if (prompt !== null) distinct.add(prompt);
  }
  return {
    code: 'misgrouped',
    at: members.record(odd),
    group: g.key,
    message: mixedPromptsMessage(g.key, distinct.size),
    related: relatedMembers(members, odd),
  };
}
