// Prompts that flipped between paired steps (docs/compare.md#prompts), by identity: kept → dropped
// (with the reason) and back, solved → unsolved (no passing sample) and back.
import type { PromptFlip, PromptsDiff } from '../../../../shared/runDiff';
import type { StepPair } from './diff';
import { isSolved, KEPT, type StepSummary } from './summary';
import { datasetPrompts } from './summarySteps';
import { StepPromptIndex } from './promptIndex';
import { type PromptRows, promptRowsOf } from './promptTable';

/** A rollout step's rows, file by file (files in path order). */
function tablesOf(step: StepSummary): PromptRows[] {
  return step.files.map(promptRowsOf);
}

/** Flips counted by `<from> → <to>` (in first-seen order) without making a text per flip. */
class FlipCounts {
  private readonly byFrom = new Map<string, Map<string, { key: string; count: number }>>();
  private readonly order: { key: string; count: number }[] = [];

  add(from: string, to: string): void {
    let byTo = this.byFrom.get(from);
    if (!byTo) this.byFrom.set(from, (byTo = new Map()));
    let entry = byTo.get(to);
    if (!entry) {
      byTo.set(to, (entry = { key: `${from} → ${to}`, count: 0 }));
      this.order.push(entry);
    }
    entry.count++;
  }

  record(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const e of this.order) out[e.key] = e.count;
    return out;
  }
}

export function diffPrompts(pairs: readonly StepPair[], maxListed: number): PromptsDiff {
  const result: PromptsDiff = { paired: 0, flips: {}, listed: [], omitted: 0 };
  const counts = new FlipCounts();
  // The flip is made only when it is listed: a run pair can have hundreds of thousands.
  const flip = (from: string, to: string, make: () => PromptFlip) => {
    counts.add(from, to);
    if (result.listed.length < maxListed) result.listed.push(make());
    else result.omitted++;
  };
  const [ownIndex, theirIndex] = [new StepPromptIndex(), new StepPromptIndex()];
  for (const [b, c] of pairs) {
    const base = { kind: b.kind, baselineStep: b.step, candidateStep: c.step };
    if (b.kind === 'rollout') {
      const bt = tablesOf(b);
      const ct = tablesOf(c);
      const own = ownIndex.index(bt);
      const theirs = theirIndex.index(ct);
      // The baseline's prompts in order, each at its first row (a prompt sampled in two groups of a step), paired with the candidate's first.
      for (let bf = 0; bf < bt.length; bf++) {
        for (let br = 0; br < bt[bf].length; br++) {
          const hash = bt[bf].idHash(br);
          const first = own.find(bt[bf], br, hash);
          if (own.file(first) !== bf || own.row(first) !== br) continue;
          const hit = theirs.find(bt[bf], br, hash);
          if (hit < 0) continue;
          result.paired++;
          const cf = theirs.file(hit);
          const cr = theirs.row(hit);
          const bState = b.files[bf].states[bt[bf].state(br)];
          const cState = c.files[cf].states[ct[cf].state(cr)];
          const bSolved = isSolved(bt[bf].passes(br));
          const cSolved = isSolved(ct[cf].passes(cr));
          if (bState === cState && bSolved === cSolved) continue;
          const [bText, cText] = [bState ?? KEPT, cState ?? KEPT];
          const [from, to] = bText !== cText ? [bText, cText] : [solvedText(bSolved), solvedText(cSolved)];
          flip(from, to, () => ({
            ...base,
            dataset: null,
            id: bt[bf].id(br),
            from,
            to,
            baseline: { file: b.files[bf].path, line: bt[bf].line(br) },
            candidate: { file: c.files[cf].path, line: ct[cf].line(cr) },
          }));
        }
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
        const [from, to] = [solvedText(solved), solvedText(!solved)];
        flip(from, to, () => ({
          ...base,
          dataset: name,
          id,
          from,
          to,
          baseline: { file: bp.file, line: bp.line },
          candidate: { file: other.file, line: other.line },
        }));
      }
    }
  }
  result.flips = counts.record();
  return result;
}

function solvedText(solved: boolean): string {
  return solved ? 'solved' : 'unsolved';
}
