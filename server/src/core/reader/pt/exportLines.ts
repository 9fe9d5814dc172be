// `.pt` → JSON Lines, one sample a line with every field (token ids and log-probs included;
// tensors, arrays and images as placeholders, or tensors as their values): the `rollout-lens export`
// command and the editor's read-only view of a dump (docs/pt.md). Line N is sample N, as in the
// findings of `check`. A file whose root is not a dump of samples (miles' train_data, one tensor,
// a state dict) is one line: its root.
import type { FileAccess } from '../../seams/fileAccess';

import type { PickleProblem } from './pickleMachine';
import { readPt } from './ptFile';
import { sampleLine, stringify, textWithTensors, toPlain } from './serialize';
import { StorageReader } from './tensorValues';
import { PyDict, PyList, TensorPlaceholder } from './values';

export interface ExportResult {
  samples: number;
  problems: PickleProblem[];
}

export interface ExportOptions {
  isCancelled?: () => boolean;
  /** `summary` (default): `{"$tensor": {dtype, shape}}`; `values`: `tensor.tolist()`. */
  tensors?: 'summary' | 'values';
}

/** True for miles' and slime's `{…, samples: […]}`: its lines are its samples. */
function isSampleDump(root: unknown): boolean {
  return root instanceof PyDict && root.map.get('samples') instanceof PyList;
}

/**
 * Writes each sample as one line (with its `\n`) through `write`, as it is read. With tensor
 * values, a line holding a tensor (and every line after it) waits for the pickle's end: its text is
 * kept with the tensors in their places, and each tensor's values are then read from its storage,
 * page by page, as they are written.
 */
export async function exportPtLines(access: FileAccess, path: string, write: (text: string) => void, options: ExportOptions = {}): Promise<ExportResult> {
  const values = options.tensors === 'values';
  const pending: (string | TensorPlaceholder)[][] = [];
  let lines = 0;
  const line = (value: unknown): void => {
    lines++;
    if (!values) {
      write(`${sampleLine(value)}\n`);
      return;
    }
    const parts = textWithTensors(toPlain(value, 'line', undefined, true));
    if (pending.length === 0 && parts.length === 1) write(`${parts[0] as string}\n`);
    else pending.push(parts);
  };
  const r = await readPt(access, path, { isCancelled: options.isCancelled, onSample: (value) => line(value) });
  if (r.samples === 0 && r.root !== undefined && !isSampleDump(r.root)) line(r.root);
  if (pending.length > 0) {
    const file = await access.open(path);
    try {
      const reader = new StorageReader(file, (await access.stat(path)).size, r.records, r.littleEndian);
      // The first pending line's number (0-based): the lines before it were written as read.
      let line = lines - pending.length;
      for (const parts of pending) {
        for (const part of parts) {
          if (!(part instanceof TensorPlaceholder)) write(part);
          else if (part.view === null) write(stringify(toPlain(part, 'line')));
          else {
            const problem = await reader.locate(part.view.record);
            if (problem === null) await reader.writeValues(part, write);
            else {
              r.problems.push({
                kind: 'tensor',
                offset: 0,
                sample: line,
                message: `a ${part.dtype} tensor's storage cannot be read: ${problem}; its values are not read`,
              });
              write(stringify(toPlain(part, 'line')));
            }
          }
        }
        line++;
        write('\n');
      }
    } finally {
      await file.close();
    }
  }
  return { samples: r.samples, problems: r.problems };
}

/** One line per problem, for a terminal or a log: what was not run, or where reading stopped. */
export function describeProblem(p: PickleProblem): string {
  if (p.kind === 'blocked') return `sample ${p.sample + 1}: ${p.message}`;
  if (p.kind === 'tensor') return `line ${p.sample + 1}: ${p.message}`;
  return `stopped at sample ${p.sample + 1}: ${p.message}; nothing in the file was run`;
}
