// A file summary's prompt rows held elsewhere than as arrays (docs/compare.md#reading-a-summary):
// in a table (promptTable.ts) or kept outside the heap (node/keptRows.ts). `prompts` is made from
// them when first read, and the file is written from them without making its rows.
import { hashUnits, type PromptRows, type PromptTable } from './promptTable';
import type { FileSummary, PromptRow } from './summary';

/** Rows as arrays (a summary built in memory), read as a table is. */
class RowArrays implements PromptRows {
  constructor(private readonly rows: readonly PromptRow[]) {}
  get length(): number {
    return this.rows.length;
  }
  id(row: number): string {
    return this.rows[row][0];
  }
  idHash(row: number): number {
    return hashUnits(this.rows[row][0], 0, this.rows[row][0].length);
  }
  sameId(row: number, other: PromptRows, otherRow: number): boolean {
    return this.rows[row][0] === other.id(otherRow);
  }
  state(row: number): number {
    return this.rows[row][1];
  }
  samples(row: number): number {
    return this.rows[row][2];
  }
  passes(row: number): number {
    return this.rows[row][3];
  }
  rewardSum(row: number): number {
    return this.rows[row][4];
  }
  line(row: number): number {
    return this.rows[row][5];
  }
  tokens(row: number): number {
    return this.rows[row][6];
  }
}

/** Rows held elsewhere than as arrays: in a table, or kept outside the heap (`attachKeptRows`). */
interface AttachedRows {
  /** The table, when the rows are in one. */
  table: PromptTable | null;
  /** `JSON.stringify` of the rows, in pieces. */
  json(): Iterable<string>;
  rows(): PromptRow[];
}

const attached = new WeakMap<FileSummary, AttachedRows>();

function setRows(file: FileSummary, rows: PromptRow[]): void {
  // Rows once made may be changed: from then on they are the file's rows.
  attached.delete(file);
  Object.defineProperty(file, 'prompts', { value: rows, writable: true, configurable: true, enumerable: true });
}

function attach(file: FileSummary, rows: AttachedRows): void {
  attached.set(file, rows);
  Object.defineProperty(file, 'prompts', {
    configurable: true,
    enumerable: true,
    get(): PromptRow[] {
      const made = rows.rows();
      setRows(file, made);
      return made;
    },
    set(made: PromptRow[]) {
      setRows(file, made);
    },
  });
  // Written (JSON.stringify) with rows made for the writing only: a run's rows are never all made at once.
  Object.defineProperty(file, 'toJSON', {
    configurable: true,
    enumerable: false,
    value(this: FileSummary): Record<string, unknown> {
      const out: Record<string, unknown> = {};
      const current = attached.get(this) === rows;
      for (const key of Object.keys(this)) out[key] = key === 'prompts' && current ? rows.rows() : this[key as keyof FileSummary];
      return out;
    },
  });
}

/**
 * Gives `file` its rows as `table`: `prompts` is made from the table when first read (and kept),
 * so a summary read from a file is the same summary whichever way it is used.
 */
export function attachPromptTable(file: FileSummary, table: PromptTable): void {
  attach(file, { table, json: () => table.rowsJson(), rows: () => table.rows() });
}

/**
 * Gives `file` its rows as kept outside the heap (`summarize` keeps them in a scratch file while
 * the run is read, node/keptRows.ts): `json` gives them back as written, `rows` as arrays.
 */
export function attachKeptRows(file: FileSummary, kept: { json(): Iterable<string>; rows(): PromptRow[] }): void {
  attach(file, { table: null, json: () => kept.json(), rows: () => kept.rows() });
}

/**
 * `JSON.stringify(file)` in pieces, its rows written from where they are held (without making
 * them): the same text either way.
 */
export function* fileJson(file: FileSummary): Generator<string> {
  const rows = attached.get(file);
  const keys = Object.keys(file);
  const at = keys.indexOf('prompts');
  if (!rows || at < 0) {
    yield JSON.stringify(file);
    return;
  }
  const part = (from: number, to: number) => {
    const out: Record<string, unknown> = {};
    for (const key of keys.slice(from, to)) out[key] = file[key as keyof FileSummary];
    return JSON.stringify(out).slice(1, -1);
  };
  const before = part(0, at);
  yield `{${before}${before ? ',' : ''}"prompts":`;
  yield* rows.json();
  const after = part(at + 1, keys.length);
  yield `${after ? ',' : ''}${after}}`;
}

/** The table `file` was given by `attachPromptTable`, while its rows are not made. */
export function attachedTable(file: FileSummary): PromptTable | undefined {
  return attached.get(file)?.table ?? undefined;
}

/** A file's rows: the table it was made or read with, else its row arrays. */
export function promptRowsOf(file: FileSummary): PromptRows {
  return attached.get(file)?.table ?? new RowArrays(file.prompts);
}
