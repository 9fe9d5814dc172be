// Prompts that flipped between paired steps (docs/compare.md#prompts), by identity: kept → dropped
// (with the reason) and back, solved → unsolved (no passing sample) and back.
import type { StepKind } from '../run/model';
import type { Place, StepPair } from './diff';
import { isSolved, type StepSummary } from './summary';
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

/** A prompt row's place in a step: its file's index × 2^32 + its row (exact in a double). */
const ROW_SPAN = 2 ** 32;

/**
 * A rollout step's prompts by identity (the first group of a prompt that appears twice in a
 * step), as packed places: a run of 1 000 steps × 512 prompts is half a million of them.
 */
function rolloutPrompts(step: StepSummary): Map<string, number> {
  const out = new Map<string, number>();
  step.files.forEach((f, fi) => {
    for (let r = 0; r < f.prompts.length; r++) {
      const id = f.prompts[r][0];
      if (!out.has(id)) out.set(id, fi * ROW_SPAN + r);
    }
  });
  return out;
}

function rowAt(step: StepSummary, packed: number): { state: string; solved: boolean; place: Place } {
  const file = step.files[Math.floor(packed / ROW_SPAN)];
  const [, state, , passes, , line] = file.prompts[packed % ROW_SPAN];
  return { state: file.states[state] ?? 'kept', solved: isSolved(passes), place: { file: file.path, line } };
}

/** Whether two packed rows differ in state or in being solved, without building either. */
function sameOutcome(b: StepSummary, bp: number, c: StepSummary, cp: number): boolean {
  const bf = b.files[Math.floor(bp / ROW_SPAN)];
  const cf = c.files[Math.floor(cp / ROW_SPAN)];
  const br = bf.prompts[bp % ROW_SPAN];
  const cr = cf.prompts[cp % ROW_SPAN];
  return bf.states[br[1]] === cf.states[cr[1]] && isSolved(br[3]) === isSolved(cr[3]);
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
      for (const [id, packed] of rolloutPrompts(b)) {
        const otherPacked = cp.get(id);
        if (otherPacked === undefined) continue;
        result.paired++;
        if (sameOutcome(b, packed, c, otherPacked)) continue;
        const bp = rowAt(b, packed);
        const other = rowAt(c, otherPacked);
        const sides = { baseline: bp.place, candidate: other.place };
        if (bp.state !== other.state) flip({ ...base, dataset: null, id, from: bp.state, to: other.state, ...sides });
        else flip({ ...base, dataset: null, id, from: solvedText(bp.solved), to: solvedText(other.solved), ...sides });
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
        const solved = isSolved(bp.passes);
        if (solved === isSolved(other.passes)) continue;
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
