// A rollout step's prompts by identity, for pairing two steps' prompts (diffPrompts.ts): an
// open-addressing table of the step's rows keyed by their ids' hashes, ids compared where they
// are held (promptTable.ts), so a run of 1 000 steps × 512 prompts pairs a million rows without
// making a string or a Map entry for any of them.
import type { PromptRows } from './promptTable';

export class StepPromptIndex {
  private mask = 0;
  /** Per slot: the row's file + 1 (0: empty), its row, its id's hash. */
  private files = new Int32Array(0);
  private rows = new Int32Array(0);
  private hashes = new Uint32Array(0);
  private tables: readonly PromptRows[] = [];

  /**
   * Indexes a step's files' rows in order (an id's first row is the one kept). One index is
   * reused step after step, its slots kept while they are enough: a diff of 1 000 steps then
   * makes a handful of buffers, not thousands (each a collection's worth of external memory).
   */
  index(tables: readonly PromptRows[]): this {
    this.tables = tables;
    let n = 0;
    for (const t of tables) n += t.length;
    let size = 16;
    while (size < n * 2) size *= 2;
    if (size > this.files.length) {
      this.files = new Int32Array(size);
      this.rows = new Int32Array(size);
      this.hashes = new Uint32Array(size);
    } else this.files.fill(0, 0, size);
    this.mask = size - 1;
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
    return this;
  }

  /** The slot holding `table`'s row `row`'s id, or the empty slot where it would go. */
  private probe(table: PromptRows, row: number, hash: number): number {
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const f = this.files[slot];
      if (f === 0) return slot;
      if (this.hashes[slot] !== hash) continue;
      // The row itself (a step's own index asked for its rows): no need to compare ids.
      const held = this.tables[f - 1];
      if ((held === table && this.rows[slot] === row) || held.sameId(this.rows[slot], table, row)) return slot;
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
