// The run view's prompts across steps (core/compare/promptHistory.ts, from the rows the run summary
// makes of each file). A file's part keeps its rows packed (a few typed arrays and one string, about
// 40 bytes a group) since the editor keeps every file's part between redraws; and a run follows its
// prompts only up to a bound of groups, so the run view of a 10 M-sample folder stays within its
// memory budget (BENCHMARKS.md, "Run view over a large run folder"). Past it, the model says how
// many groups were not followed, and `rollout-lens prompts` follows them all.
import type { PromptLearning } from '../../../../shared/runViewModel';
import { PROMPT_EXAMPLES, promptHistories, promptLearning, type PromptRowsOfFile } from '../compare/promptHistory';
import type { PromptRow } from '../compare/summary';

/** Groups of one file whose prompts a part keeps; a larger file's are not followed. */
export const MAX_FILE_PROMPT_GROUPS = 50_000;
/** Groups of one run whose prompts the run view follows. */
export const MAX_RUN_PROMPT_GROUPS = 250_000;

/** A file's prompt rows, packed: row i's id is `ids.slice(idEnd[i - 1] ?? 0, idEnd[i])`. */
export interface PackedPromptRows {
  states: string[];
  ids: string;
  idEnd: Uint32Array;
  state: Uint16Array;
  samples: Uint32Array;
  passes: Uint32Array;
  tokens: Float64Array;
  line: Uint32Array;
}

/** The rows packed, or null when there are more than `MAX_FILE_PROMPT_GROUPS` (or more states than a Uint16 holds). */
export function packPromptRows(states: string[], rows: readonly PromptRow[]): PackedPromptRows | null {
  if (rows.length > MAX_FILE_PROMPT_GROUPS || states.length > 0xffff) return null;
  const n = rows.length;
  const packed: PackedPromptRows = {
    states,
    ids: '',
    idEnd: new Uint32Array(n),
    state: new Uint16Array(n),
    samples: new Uint32Array(n),
    passes: new Uint32Array(n),
    tokens: new Float64Array(n),
    line: new Uint32Array(n),
  };
  const ids: string[] = [];
  let end = 0;
  rows.forEach(([id, state, samples, passes, , line, tokens], i) => {
    ids.push(id);
    packed.idEnd[i] = end += id.length;
    packed.state[i] = state;
    packed.samples[i] = samples;
    packed.passes[i] = passes;
    packed.tokens[i] = tokens;
    packed.line[i] = line;
  });
  packed.ids = ids.join('');
  return packed;
}

/** The rows back (the reward sum is not kept: the history does not read it). */
export function unpackPromptRows(p: PackedPromptRows): PromptRow[] {
  const rows: PromptRow[] = [];
  for (let i = 0; i < p.idEnd.length; i++)
    rows.push([p.ids.slice(i === 0 ? 0 : p.idEnd[i - 1], p.idEnd[i]), p.state[i], p.samples[i], p.passes[i], 0, p.line[i], p.tokens[i]]);
  return rows;
}

/** A rollout file's prompts as the builder gets them: packed, or how many groups were not kept. */
export type FilePrompts = { packed: PackedPromptRows } | { omittedGroups: number };

interface RunPrompts {
  files: { step: number | null; path: string; source: string; packed: PackedPromptRows }[];
  groups: number;
  omittedGroups: number;
}

/** Each run's files' prompts, folded into its learning once all are in. */
export class RunPromptsBuilder {
  private readonly runs = new Map<number, RunPrompts>();

  add(run: number, step: number | null, path: string, source: string, prompts: FilePrompts): void {
    let r = this.runs.get(run);
    if (!r) this.runs.set(run, (r = { files: [], groups: 0, omittedGroups: 0 }));
    if ('omittedGroups' in prompts) {
      r.omittedGroups += prompts.omittedGroups;
      return;
    }
    r.groups += prompts.packed.idEnd.length;
    r.files.push({ step, path, source, packed: prompts.packed });
  }

  /** A run's learning (null: no rollout prompt, or not followed) and the groups not followed. */
  finish(run: number): { prompts: PromptLearning | null; promptGroupsOmitted: number } {
    const r = this.runs.get(run);
    if (!r) return { prompts: null, promptGroupsOmitted: 0 };
    if (r.omittedGroups > 0 || r.groups > MAX_RUN_PROMPT_GROUPS) return { prompts: null, promptGroupsOmitted: r.groups + r.omittedGroups };
    const files: PromptRowsOfFile[] = r.files.map((f) => ({
      step: f.step,
      path: f.path,
      source: f.source,
      states: f.packed.states,
      prompts: unpackPromptRows(f.packed),
    }));
    const sources = new Map(r.files.map((f) => [f.path, f.source]));
    const histories = promptHistories(files);
    return { prompts: histories.length > 0 ? promptLearning(histories, PROMPT_EXAMPLES, (file) => sources.get(file) ?? file) : null, promptGroupsOmitted: 0 };
  }
}
