// A rollout step's prompts by identity, for pairing two steps' prompts (diffPrompts.ts): an
// open-addressing table of the step's rows keyed by their ids' hashes, ids compared where they
// are held (promptTable.ts), so a run of 1 000 steps × 512 prompts pairs a million rows without
// making a string or a Map entry for any of them.
import type { PromptRows } from './promptTable';

export class StepPromptIndex {
  private readonly mask: number;
  /** Per slot: the row's file + 1 (0: empty), its row, its id's hash. */
  private readonly files: Int32Array;
  private readonly rows: Int32Array;
  private readonly hashes: Uint32Array;

  /** The step's files' rows in order; an id's first row is the one kept. */
  constructor(private readonly tables: readonly PromptRows[]) {
    let n = 0;
    for (const t of tables) n += t.length;
    let size = 16;
    while (size < n * 2) size *= 2;
    this.mask = size - 1;
    this.files = new Int32Array(size);
    this.rows = new Int32Array(size);
    this.hashes = new Uint32Array(size);
    for (let f = 0; f < tables.length; f++) {
      for (let r = 0; r < tables[f].length; r++) {
        const hash = tables[f].idHash(r);
        const slot = this.probe(tables[f], r, hash);
        if (this.files[slot] !== 0) continue;
        this.files[slot] = f + 1;
        this.rows[slot] = r;
        this.hashes[slot] = hash;
      }
    }
  }

  /** The slot holding `table`'s row `row`'s id, or the empty slot where it would go. */
  private probe(table: PromptRows, row: number, hash: number): number {
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const f = this.files[slot];
      if (f === 0 || (this.hashes[slot] === hash && this.tables[f - 1].sameId(this.rows[slot], table, row))) return slot;
    }
  }

  /** The slot of the step's first row with `table`'s row `row`'s id; -1: none. */
  find(table: PromptRows, row: number, hash = table.idHash(row)): number {
    const slot = this.probe(table, row, hash);
    return this.files[slot] === 0 ? -1 : slot;
  }

  file(slot: number): number {
    return this.files[slot] - 1;
  }

  row(slot: number): number {
    return this.rows[slot];
  }
}
