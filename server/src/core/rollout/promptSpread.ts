// Prompts spread over several groups, found from the store's rows.
import type { SampleColumns } from '../store/sampleColumns';
import { RowView } from '../store/rowView';
import { spreadPromptMessage } from './messages';
import type { ShapeProblem } from './shape';

/**
 * A prompt found in several groups (reported once per prompt, at its first sample in its second
 * group; docs/semantics.md#group-shape), tracked by rows so no record outlives its group.
 */
export class PromptSpread {
  /** By prompt id (the store's string id): row of its first sample in the first group it appeared in, or -1. */
  private first = new Int32Array(0);
  /** By prompt id: group id of the last group it was seen in. */
  private lastGroup = new Int32Array(0);
  /** Prompt ids in order of first appearance. */
  private order: number[] = [];
  /**
   * The rows of a prompt's first sample in each later group, as chains through typed arrays (a
   * misgrouped file spreads every prompt: a Map of arrays cost ~100 B and a lookup per entry):
   * by prompt id the first and last entry (-1: none); by entry its row and the next entry.
   */
  private laterHead = new Int32Array(0);
  private laterTail = new Int32Array(0);
  private laterRow = new Int32Array(64);
  private laterNext = new Int32Array(64);
  private laterCount = 0;

  constructor(private readonly store: SampleColumns) {}

  /** A group's rows `rows[from, to)`, in group order. */
  addRows(rows: ArrayLike<number>, from = 0, to = rows.length): void {
    for (let m = from; m < to; m++) {
      const row = rows[m];
      const pid = this.store.promptIdAt(row);
      if (pid < 0) continue;
      const gid = this.store.groupId(row);
      if (pid >= this.first.length) this.grow(pid);
      if (this.first[pid] < 0) {
        this.first[pid] = row;
        this.lastGroup[pid] = gid;
        this.order.push(pid);
        continue;
      }
      if (this.lastGroup[pid] === gid) continue;
      this.lastGroup[pid] = gid;
      this.addLater(pid, row);
    }
  }

  private addLater(pid: number, row: number): void {
    const k = this.laterCount++;
    if (k === this.laterRow.length) {
      const rows = new Int32Array(2 * k);
      rows.set(this.laterRow);
      const next = new Int32Array(2 * k);
      next.set(this.laterNext);
      this.laterRow = rows;
      this.laterNext = next;
    }
    this.laterRow[k] = row;
    this.laterNext[k] = -1;
    if (this.laterHead[pid] < 0) this.laterHead[pid] = k;
    else this.laterNext[this.laterTail[pid]] = k;
    this.laterTail[pid] = k;
  }

  private grow(pid: number): void {
    const size = Math.max(pid + 1, this.store.strings.size, 2 * this.first.length);
    const first = new Int32Array(size).fill(-1);
    first.set(this.first);
    const last = new Int32Array(size);
    last.set(this.lastGroup);
    const head = new Int32Array(size).fill(-1);
    head.set(this.laterHead);
    const tail = new Int32Array(size);
    tail.set(this.laterTail);
    this.first = first;
    this.lastGroup = last;
    this.laterHead = head;
    this.laterTail = tail;
  }

  /**
   * The spread prompts in order of first appearance, each a problem at its first sample in its
   * second group. A prompt that `wanted` refuses (asked once per prompt, in that order, with that
   * sample's line) is skipped before any of its records or its message is made: a file can spread
   * thousands of prompts of which a report keeps the first few.
   */
  *problems(wanted: (line: number) => boolean = () => true): Generator<ShapeProblem> {
    for (const pid of this.order) {
      const head = this.laterHead[pid];
      if (head < 0 || !wanted(this.store.lineAt(this.laterRow[head]))) continue;
      const rows = [this.first[pid]];
      for (let k = head; k >= 0; k = this.laterNext[k]) rows.push(this.laterRow[k]);
      // Views: a prompt spread over a million groups costs a small object per group, not a record.
      const entries = rows.map((r) => new RowView(this.store, r));
      const at = entries[1];
      yield {
        code: 'misgrouped',
        at,
        group: at.groupKey as string,
        message: spreadPromptMessage(entries.map((e) => e.groupKey as string)),
        related: entries.filter((e) => e !== at),
      };
    }
  }
}
