// `.pt` → JSON Lines, one sample a line with every field (token ids and log-probs included;
// tensors, arrays and images as placeholders): the `rollout-lens export` command and the editor's
// read-only view of a dump (docs/pt.md). Line N is sample N, as in the findings of `check`.
import type { FileAccess } from '../../fileAccess';

import type { PickleProblem } from './pickleMachine';
import { readPt } from './ptFile';
import { sampleLine } from './serialize';

export interface ExportResult {
  samples: number;
  problems: PickleProblem[];
}

/** Writes each sample as one line (with its `\n`) through `write`, as it is read. */
export async function exportPtLines(
  access: FileAccess,
  path: string,
  write: (text: string) => void,
  options: { isCancelled?: () => boolean } = {},
): Promise<ExportResult> {
  const r = await readPt(access, path, { isCancelled: options.isCancelled, onSample: (value) => write(`${sampleLine(value)}\n`) });
  return { samples: r.samples, problems: r.problems };
}

/** One line per problem, for a terminal or a log: what was not run, or where reading stopped. */
export function describeProblem(p: PickleProblem): string {
  return p.kind === 'blocked' ? `sample ${p.sample + 1}: ${p.message}` : `stopped at sample ${p.sample + 1}: ${p.message}; nothing in the file was run`;
}
