// The run view's comparison model (shared/compareViewModel.ts) from the engine's diff of two runs
// (`rolloutLens/compareRuns`): the same figures, with every place the diff names numbered once, so
// a link on the page carries a number and the host opens its own copy of the place.
import type { ComparedRun, PlaceLink, RunComparison } from './compareViewModel';
import type { RunDiff } from './protocol';

type Place = { file: string; line: number };

/** `file` relative to `root` when it is inside it (either separator), else null. */
function inside(root: string, file: string): string | null {
  if (file === root) return file.split(/[\\/]/).pop() ?? file;
  for (const sep of ['/', '\\']) {
    const prefix = root.endsWith(sep) ? root : root + sep;
    if (file.startsWith(prefix)) return file.slice(prefix.length);
  }
  return null;
}

/** Numbers places in the order they are first met; labels them relative to the run they are in. */
class Places {
  readonly list: Place[] = [];
  private readonly index = new Map<string, number>();

  constructor(private readonly roots: { baseline: string; candidate: string }) {}

  /** `prefer`: the side a place of both runs' folder is labelled with (a run compared with itself). */
  link(place: Place, prefer: 'baseline' | 'candidate' | null = null): PlaceLink {
    const key = `${place.line}\u0000${place.file}`;
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.list.length;
      this.index.set(key, i);
      this.list.push({ file: place.file, line: place.line });
    }
    const order: ('baseline' | 'candidate')[] = prefer === 'baseline' ? ['baseline', 'candidate'] : ['candidate', 'baseline'];
    for (const side of order) {
      const rel = inside(this.roots[side], place.file);
      if (rel !== null) return { place: i, label: `${rel}:${place.line}`, side };
    }
    return { place: i, label: `${place.file}:${place.line}`, side: null };
  }
}

/** The comparison the run view draws; `names`: how the host names each run. */
export function comparisonOf(diff: RunDiff, names: { baseline: string; candidate: string }): RunComparison {
  const places = new Places({ baseline: diff.baseline.source, candidate: diff.candidate.source });
  const run = (side: 'baseline' | 'candidate'): ComparedRun => ({
    name: names[side],
    framework: diff[side].framework,
    steps: diff[side].steps,
    samples: diff[side].samples,
  });
  return {
    baseline: run('baseline'),
    candidate: run('candidate'),
    unpaired: { ...diff.unpaired },
    gate: {
      passed: diff.gate.passed,
      failures: diff.gate.failures.map((f) => ({ rule: f.rule, message: f.message, evidence: f.evidence.map((p) => places.link(p)) })),
    },
    causes: diff.causes.map((c) => ({
      reason: c.reason,
      status: c.status,
      groups: c.groups,
      ratePoints: c.ratePoints,
      evidence: {
        baseline: c.evidence.baseline.map((p) => places.link(p, 'baseline')),
        candidate: c.evidence.candidate.map((p) => places.link(p, 'candidate')),
      },
    })),
    datasets: diff.datasets.map((d) => ({
      name: d.name,
      baselineStep: d.baselineStep,
      candidateStep: d.candidateStep,
      samples: d.samples,
      noneReward: d.noneReward,
      shrank: d.shrank,
      pairedPrompts: d.pairedPrompts,
      score: d.score,
      passAtK: d.passAtK,
      evidence: {
        baseline: d.evidence.baseline ? places.link(d.evidence.baseline, 'baseline') : null,
        candidate: d.evidence.candidate ? places.link(d.evidence.candidate, 'candidate') : null,
      },
    })),
    steps: diff.steps.map((s) => ({
      kind: s.kind,
      baseline: s.baseline,
      candidate: s.candidate,
      groups: s.groups,
      dropRate: s.dropRate,
      zeroStdShare: s.zeroStdShare,
      rewardMean: s.rewardMean,
      truncatedRatio: s.truncatedRatio,
      causes: s.causes,
    })),
    prompts: {
      paired: diff.prompts.paired,
      flips: diff.prompts.flips,
      listed: diff.prompts.listed.map((f) => ({
        kind: f.kind,
        dataset: f.dataset,
        id: f.id,
        baselineStep: f.baselineStep,
        candidateStep: f.candidateStep,
        from: f.from,
        to: f.to,
        baseline: places.link(f.baseline, 'baseline'),
        candidate: places.link(f.candidate, 'candidate'),
      })),
      omitted: diff.prompts.omitted,
    },
    places: places.list,
  };
}
