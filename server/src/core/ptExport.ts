// A `.pt` dump as JSON Lines (docs/pt.md#line-numbers-and-the-json-lines-view): sample N is line N,
// tensors as placeholders or their values. `rollout-lens export` and the editor's read-only view of
// a dump (`rolloutLens/ptAsJsonl`) both write it from here; nothing in the file is run.
import type { FileAccess } from './seams/fileAccess';
import { describeProblem, type ExportOptions, exportPtLines } from './reader/pt/exportLines';

/** What an export wrote, and what stopped or skipped part of it. */
export interface DumpExport {
  /** Lines written. */
  samples: number;
  /** Each problem as people read it (`stopped at sample 3: …; nothing in the file was run`). */
  problems: string[];
  /** True when the pickle could not be read on (an error, not a blocked callable or a bad tensor). */
  stopped: boolean;
}

/** Writes the dump at `path` as JSON Lines through `write`, in order (each line ends in `\n`). */
export async function exportDumpLines(access: FileAccess, path: string, write: (line: string) => void, options: ExportOptions = {}): Promise<DumpExport> {
  const r = await exportPtLines(access, path, write, options);
  return { samples: r.samples, problems: r.problems.map(describeProblem), stopped: r.problems.some((p) => p.kind === 'error') };
}
