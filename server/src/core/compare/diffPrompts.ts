// Prompts that flipped between paired steps (docs/compare.md#prompts), by identity: kept → dropped
// (with the reason) and back, solved → unsolved (no passing sample) and back.
import type { StepKind } from '../run/model';
import type { Place, StepPair } from './diff';
import type { StepSummary } from './summary';
import { datasetPrompts } from './summarySteps';

export interface PromptFlip {
  kind: StepKind;
  /** The eval dataset; null for a rollout prompt. */
  dataset: string | null;
  id: string;
  baselineStep: number | null;
  candidateStep: number | null;
  /** `kept`, a drop reason, `solved` or `unsolved`. */
  from: string;
  to: string;
  baseline: Place;
  candidate: Place;
}

export interface PromptsDiff {
  /** Prompt-steps found on both sides. */
  paired: number;
  /** Flips counted, by `<from> → <to>`. */
  flips: Record<string, number>;
  /** The first flips, in step order. */
  listed: PromptFlip[];
  /** Flips not listed. */
  omitted: number;
}

interface RolloutPrompt {
  state: string;
  solved: boolean;
  place: Place;
}

/** A rollout step's prompts by identity (the first group of a prompt that appears twice in a step). */
function rolloutPrompts(step: StepSummary): Map<string, RolloutPrompt> {
  const out = new Map<string, RolloutPrompt>();
  for (const f of step.files) {
    for (const [id, state, , passes, , line] of f.prompts) {
      if (!out.has(id)) out.set(id, { state: f.states[state] ?? 'kept', solved: passes > 0, place: { file: f.path, line } });
    }
  }
  return out;
}

export function diffPrompts(pairs: readonly StepPair[], maxListed: number): PromptsDiff {
  const result: PromptsDiff = { paired: 0, flips: {}, listed: [], omitted: 0 };
  const flip = (f: PromptFlip) => {
    const key = `${f.from} → ${f.to}`;
    result.flips[key] = (result.flips[key] ?? 0) + 1;
    if (result.listed.length < maxListed) result.listed.push(f);
    else result.omitted++;
  };
  for (const [b, c] of pairs) {
    const base = { kind: b.kind, baselineStep: b.step, candidateStep: c.step };
    if (b.kind === 'rollout') {
      const cp = rolloutPrompts(c);
      for (const [id, bp] of rolloutPrompts(b)) {
        const other = cp.get(id);
        if (!other) continue;
        result.paired++;
        const sides = { baseline: bp.place, candidate: other.place };
        if (bp.state !== other.state) flip({ ...base, dataset: null, id, from: bp.state, to: other.state, ...sides });
        else if (bp.solved !== other.solved) flip({ ...base, dataset: null, id, from: solvedText(bp.solved), to: solvedText(other.solved), ...sides });
      }
      continue;
    }
    const names = new Set(b.datasets.map((d) => d.name));
    for (const name of [...names].sort()) {
      const cp = datasetPrompts(c.files, name);
      for (const [id, bp] of datasetPrompts(b.files, name)) {
        const other = cp.get(id);
        if (!other) continue;
        result.paired++;
        const solved = bp.passes > 0;
        if (solved === other.passes > 0) continue;
        flip({
          ...base,
          dataset: name,
          id,
          from: solvedText(solved),
          to: solvedText(!solved),
          baseline: { file: bp.file, line: bp.line },
          candidate: { file: other.file, line: other.line },
        });
      }
    }
  }
  return result;
}

function solvedText(solved: boolean): string {
  return solved ? 'solved' : 'unsolved';
}
