// Prompts that flipped between paired steps (docs/compare.md#prompts), by identity: kept → dropped
// (with the reason) and back, solved → unsolved (no passing sample) and back.
import type { PromptFlip, PromptsDiff } from '../../../../shared/runDiff';
import type { StepPair } from './diff';
import { isSolved, KEPT, type StepSummary } from './summary';
import { datasetPrompts } from './summarySteps';
import { StepPromptIndex } from './promptIndex';
import { promptRowsOf } from './attachedRows';
import type { PromptRows } from './promptTable';

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

/** What diffPrompts collects, step pair after step pair. */
class FlipCollector {
  readonly result: PromptsDiff = { paired: 0, flips: {}, listed: [], omitted: 0 };
  readonly counts = new FlipCounts();
  constructor(readonly maxListed: number) {}

  /** Counts a flip; `make`s it while fewer than maxListed are listed. */
  flip(from: string, to: string, make: () => PromptFlip): void {
    this.counts.add(from, to);
    if (this.result.listed.length < this.maxListed) this.result.listed.push(make());
    else this.result.omitted++;
  }
}

export function diffPrompts(pairs: readonly StepPair[], maxListed: number): PromptsDiff {
  const collector = new FlipCollector(maxListed);
  const [ownIndex, theirIndex] = [new StepPromptIndex(), new StepPromptIndex()];
  // A function a kind of step: each small, optimized for its own loop (the rollout rows', a
  // million for a run pair of 1 000 steps × 512 prompts) and not compiled again for the other's.
  for (const [b, c] of pairs) {
    if (b.kind === 'rollout') rolloutFlips(b, c, ownIndex, theirIndex, collector);
    else evalFlips(b, c, collector);
  }
  collector.result.flips = collector.counts.record();
  return collector.result;
}

/**
 * The flips of a pair of rollout steps: the baseline's prompts in order, each at its first row
 * (a prompt sampled in two groups of a step), paired with the candidate's first. No closure in
 * the loop: one would give each row a context of its own (its variables captured).
 */
function rolloutFlips(b: StepSummary, c: StepSummary, ownIndex: StepPromptIndex, theirIndex: StepPromptIndex, collector: FlipCollector): void {
  const { result, counts, maxListed } = collector;
  const bt = tablesOf(b);
  const ct = tablesOf(c);
  const own = ownIndex.index(bt);
  const theirs = theirIndex.index(ct);
  for (let bf = 0; bf < bt.length; bf++) {
    const rows = bt[bf];
    const states = b.files[bf].states;
    for (let br = 0; br < rows.length; br++) {
      const hash = rows.idHash(br);
      const first = own.find(rows, br, hash);
      if (own.file(first) !== bf || own.row(first) !== br) continue;
      const hit = theirs.find(rows, br, hash);
      if (hit < 0) continue;
      result.paired++;
      const cf = theirs.file(hit);
      const cr = theirs.row(hit);
      const bState = states[rows.state(br)];
      const cState = c.files[cf].states[ct[cf].state(cr)];
      const bSolved = isSolved(rows.passes(br));
      const cSolved = isSolved(ct[cf].passes(cr));
      if (bState === cState && bSolved === cSolved) continue;
      const bText = bState ?? KEPT;
      const cText = cState ?? KEPT;
      const from = bText !== cText ? bText : solvedText(bSolved);
      const to = bText !== cText ? cText : solvedText(cSolved);
      counts.add(from, to);
      if (result.listed.length < maxListed) {
        result.listed.push({
          kind: b.kind,
          baselineStep: b.step,
          candidateStep: c.step,
          dataset: null,
          id: rows.id(br),
          from,
          to,
          baseline: { file: b.files[bf].path, line: rows.line(br) },
          candidate: { file: c.files[cf].path, line: ct[cf].line(cr) },
        });
      } else result.omitted++;
    }
  }
}

/** The flips of a pair of eval steps, dataset by dataset (by name), prompts by id. */
function evalFlips(b: StepSummary, c: StepSummary, collector: FlipCollector): void {
  const base = { kind: b.kind, baselineStep: b.step, candidateStep: c.step };
  const names = new Set(b.datasets.map((d) => d.name));
  for (const name of [...names].sort()) {
    const cp = datasetPrompts(c.files, name);
    for (const [id, bp] of datasetPrompts(b.files, name)) {
      const other = cp.get(id);
      if (!other) continue;
      collector.result.paired++;
      const solved = isSolved(bp.passes);
      if (solved === isSolved(other.passes)) continue;
      const [from, to] = [solvedText(solved), solvedText(!solved)];
      collector.flip(from, to, () => ({
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

function solvedText(solved: boolean): string {
  return solved ? 'solved' : 'unsolved';
}
