// Group shape checks (docs/semantics.md#group-shape): group size against n_samples_per_prompt, and prompt identity
// against group membership.
import { attemptCount } from '../eval/verlRows';
import type { SampleRecord } from '../types';
import type { SampleGroup } from './groups';
import { incompleteGroupMessage, mixedPromptsMessage, spreadPromptMessage } from './messages';

/** A shape problem, located at a sample; the caller turns it into a Finding. */
export interface ShapeProblem {
  code: 'incomplete-group' | 'misgrouped';
  at: SampleRecord;
  group: string;
  message: string;
  related: SampleRecord[];
}

/**
 * With n known, every group of another size (miles' sync loop would assert). A verl v1 session
 * that wrote several outputs is one attempt (docs/framework-files.md#verl-v1).
 */
export function incompleteGroups(groups: readonly SampleGroup[], n: number | null): ShapeProblem[] {
  if (n === null) return [];
  return groups
    .map((g) => ({ g, size: attemptCount(g.members) }))
    .filter(({ size }) => size !== n)
    .map(({ g, size }) => ({
      code: 'incomplete-group' as const,
      at: g.members[0],
      group: g.key,
      message: incompleteGroupMessage(g.key, size, n),
      related: g.members.slice(1),
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
    for (const s of g.members) {
      if (s.promptKey === null) continue;
      const seen = groupsOfPrompt.get(s.promptKey) ?? [];
      // Groups are visited one after another, so only the last entry can be this group.
      if (seen[seen.length - 1]?.group !== g) seen.push({ group: g, first: s });
      groupsOfPrompt.set(s.promptKey, seen);
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
  const withPrompt = g.members.filter((s) => s.promptKey !== null);
  const distinct = new Set(withPrompt.map((s) => s.promptKey));
  if (distinct.size <= 1) return null;
  const odd = withPrompt.find((s) => s.promptKey !== withPrompt[0].promptKey) as SampleRecord;
  return { code: 'misgrouped', at: odd, group: g.key, message: mixedPromptsMessage(g.key, distinct.size), related: g.members.filter((s) => s !== odd) };
}
