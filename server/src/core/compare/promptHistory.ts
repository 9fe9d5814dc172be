// Prompt history (docs/compare.md#prompt-history): each rollout prompt's groups across the steps of
// a run, from the per-prompt rows a run summary holds (core/compare/summary.ts `summarizeFile`),
// and what they add up to: prompts never learned, prompts solved and still sampled, and the response
// tokens spent on groups that gave no gradient. `rollout-lens prompts` reads them from a summary;
// the run view (core/views/runView.ts) from the same rows of each file's part.
import type { PromptExample, PromptLearning } from '../../../../shared/runViewModel';
import { isSolved, KEPT, type PromptRow, type RunSummary } from './summary';

/** One group of a prompt in one step. */
export interface PromptGroup {
  step: number | null;
  /** `kept`, or the group's drop reason (`group_has_aborted_<cause>`, `zero_std_<r>`, …). */
  state: string;
  samples: number;
  passes: number;
  /** Response tokens of the group's samples. */
  tokens: number;
  /** The sample that names the group (the first aborted member in group order, else the first). */
  file: string;
  line: number;
}

export interface StepPlace {
  step: number | null;
  file: string;
  line: number;
}

export interface PromptHistory {
  id: string;
  /** Its groups in step order (a prompt sampled twice in a step has two). */
  groups: PromptGroup[];
  /** The first step in which one of its samples passed (reward exactly 1), at that group. */
  firstSolved: StepPlace | null;
  /** Each step in which none of its samples passed after a step in which one did. */
  regressions: { solvedStep: number | null; unsolved: StepPlace }[];
  /** Steps in which a group of it was dropped. */
  stepsDropped: number;
  /** Response tokens of its groups that gave no gradient: dropped groups (any reason, `zero_std_<r>` included). */
  wastedTokens: number;
  /** Response tokens of all its groups. */
  tokens: number;
}

/** A rollout file's prompt rows as the summary holds them, and where it belongs. */
export interface PromptRowsOfFile {
  step: number | null;
  /** The file's path as shown (summary, report) and, for an editor, its URI-path. */
  path: string;
  source?: string;
  states: readonly string[];
  prompts: readonly PromptRow[];
}

/** Examples listed per kind of prompt in the run view and report. */
export const PROMPT_EXAMPLES = 5;

function fileOrder(a: PromptRowsOfFile, b: PromptRowsOfFile): number {
  if (a.step !== b.step) return a.step === null ? 1 : b.step === null ? -1 : a.step - b.step;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** A step's identity within a prompt's history: its number, else its file (an unnumbered file is a step of its own). */
function stepId(step: number | null, file: string): string {
  return step === null ? `f:${file}` : `s:${step}`;
}

/** The histories of the prompts of `files` (any order; read by step, then path), in the order they first appear. */
export function promptHistories(files: readonly PromptRowsOfFile[]): PromptHistory[] {
  const byId = new Map<string, PromptGroup[]>();
  for (const f of [...files].sort(fileOrder)) {
    for (const [id, state, samples, passes, , line, tokens] of f.prompts) {
      let groups = byId.get(id);
      if (!groups) byId.set(id, (groups = []));
      groups.push({ step: f.step, state: f.states[state] ?? KEPT, samples, passes, tokens, file: f.path, line });
    }
  }
  return [...byId].map(([id, groups]) => historyOf(id, groups));
}

function historyOf(id: string, groups: PromptGroup[]): PromptHistory {
  const history: PromptHistory = { id, groups, firstSolved: null, regressions: [], stepsDropped: 0, wastedTokens: 0, tokens: 0 };
  // Per step (groups are in step order): solved when any of its groups is, dropped when any is.
  let lastSolvedStep: { step: number | null } | null = null;
  let previousSolved = false;
  for (let i = 0; i < groups.length;) {
    const key = stepId(groups[i].step, groups[i].file);
    let j = i;
    let solved: PromptGroup | null = null;
    let dropped = false;
    for (; j < groups.length && stepId(groups[j].step, groups[j].file) === key; j++) {
      const v = groups[j];
      history.tokens += v.tokens;
      if (v.state !== KEPT) {
        dropped = true;
        history.wastedTokens += v.tokens;
      }
      if (solved === null && isSolved(v.passes)) solved = v;
    }
    if (dropped) history.stepsDropped++;
    if (solved !== null) {
      history.firstSolved ??= { step: solved.step, file: solved.file, line: solved.line };
      lastSolvedStep = { step: solved.step };
    } else if (previousSolved && lastSolvedStep !== null) {
      const at = groups[i];
      history.regressions.push({ solvedStep: lastSolvedStep.step, unsolved: { step: at.step, file: at.file, line: at.line } });
    }
    previousSolved = solved !== null;
    i = j;
  }
  return history;
}

function example(h: PromptHistory, at: PromptGroup, tokens: number, source: (file: string) => string): PromptExample {
  return { id: h.id, groups: h.groups.length, tokens, step: at.step, file: at.file, source: source(at.file), line: at.line };
}

function top(candidates: { example: PromptExample }[], max: number): PromptExample[] {
  return candidates
    .sort((a, b) => b.example.tokens - a.example.tokens || (a.example.id < b.example.id ? -1 : a.example.id > b.example.id ? 1 : 0))
    .slice(0, max)
    .map((c) => c.example);
}

/**
 * What the histories add up to: prompts never solved in any step, prompts solved in a step and
 * sampled again in a later one (with the groups and tokens spent on them after), and the tokens
 * of groups that gave no gradient, each with the examples that cost the most tokens.
 */
export function promptLearning(
  histories: readonly PromptHistory[],
  maxExamples = PROMPT_EXAMPLES,
  source: (file: string) => string = (f) => f,
): PromptLearning {
  const never: { example: PromptExample }[] = [];
  const still: { example: PromptExample }[] = [];
  const wasted: { example: PromptExample }[] = [];
  const learning: PromptLearning = {
    prompts: histories.length,
    groups: 0,
    neverLearned: { count: 0, tokens: 0, examples: [] },
    solvedStillSampled: { count: 0, groups: 0, tokens: 0, examples: [] },
    waste: { tokens: 0, totalTokens: 0, groups: 0, examples: [] },
  };
  for (const h of histories) {
    learning.groups += h.groups.length;
    learning.waste.totalTokens += h.tokens;
    learning.waste.tokens += h.wastedTokens;
    for (const v of h.groups) if (v.state !== KEPT) learning.waste.groups++;
    if (h.wastedTokens > 0)
      wasted.push({
        example: example(
          h,
          h.groups.find((v) => v.state !== KEPT)!,
          h.wastedTokens,
          source,
        ),
      });
    if (h.firstSolved === null) {
      learning.neverLearned.count++;
      learning.neverLearned.tokens += h.tokens;
      never.push({ example: example(h, h.groups[h.groups.length - 1], h.tokens, source) });
      continue;
    }
    const solvedKey = stepId(h.firstSolved.step, h.firstSolved.file);
    const at = h.groups.findIndex((v) => stepId(v.step, v.file) === solvedKey);
    let after = at + 1;
    while (after < h.groups.length && stepId(h.groups[after].step, h.groups[after].file) === solvedKey) after++;
    if (after >= h.groups.length) continue;
    let tokens = 0;
    for (let i = after; i < h.groups.length; i++) tokens += h.groups[i].tokens;
    learning.solvedStillSampled.count++;
    learning.solvedStillSampled.groups += h.groups.length - after;
    learning.solvedStillSampled.tokens += tokens;
    still.push({ example: example(h, h.groups[after], tokens, source) });
  }
  learning.neverLearned.examples = top(never, maxExamples);
  learning.solvedStillSampled.examples = top(still, maxExamples);
  learning.waste.examples = top(wasted, maxExamples);
  return learning;
}

export const PROMPTS_VERSION = 1;

/** `rollout-lens prompts --format json` (docs/compare.md#prompt-history). */
export interface PromptsReport {
  version: typeof PROMPTS_VERSION;
  source: string;
  framework: RunSummary['framework'];
  rolloutSteps: number;
  /** Over all the run's prompts, whichever are listed. */
  learning: PromptLearning;
  prompts: PromptHistory[];
}

/** A summary's rollout files as prompt rows. */
export function promptRowsOfSummary(summary: RunSummary): PromptRowsOfFile[] {
  const out: PromptRowsOfFile[] = [];
  for (const s of summary.steps) {
    if (s.kind !== 'rollout') continue;
    for (const f of s.files) out.push({ step: s.step, path: f.path, states: f.states, prompts: f.prompts });
  }
  return out;
}

/** The run's prompt histories (only the prompt `id` when given; null when the run has no such prompt). */
export function promptsReport(summary: RunSummary, source: string, id: string | null): PromptsReport | null {
  const histories = promptHistories(promptRowsOfSummary(summary));
  const listed = id === null ? histories : histories.filter((h) => h.id === id);
  if (id !== null && listed.length === 0) return null;
  return {
    version: PROMPTS_VERSION,
    source,
    framework: summary.framework,
    rolloutSteps: summary.steps.filter((s) => s.kind === 'rollout').length,
    learning: promptLearning(histories),
    prompts: listed,
  };
}
