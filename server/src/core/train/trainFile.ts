// One rank's `train_data/<rollout_id>_<rank>.pt` (docs/framework-files.md#train-data): miles main
// (31f1ca9) `save_debug_train_data_for_rank` writes `{rollout_id, rank, rollout_data, cp_rank,
// cp_size, qkv_format}`, `rollout_data` holding one entry per sample in lists (tensors for the
// per-token fields). Its pickle is read whole (tensors as placeholders: a few objects per sample);
// tensor values are read later, a window of samples at a time, from the storages (reader/pt/storageBatch.ts).
import type { FileAccess } from '../seams/fileAccess';
import { readPt } from '../reader/pt/ptFile';
import type { ZipEntry } from '../reader/pt/zip';
import { PyDict, PyFloat, PyList, PyTuple, TensorPlaceholder, textOf } from '../reader/pt/values';

export interface TrainRankFile {
  /** As shown in reports. */
  displayPath: string;
  /** As handed to FileAccess. */
  path: string;
  rank: number | null;
  cpRank: number;
  cpSize: number;
  qkvFormat: string;
  /** `rollout_data`'s entries, in the order the dict holds them. */
  data: Map<string, unknown>;
  /** The storage records its tensors read from, and their byte order. */
  records: Map<string, ZipEntry>;
  littleEndian: boolean;
  /** What kept it from being read whole (a problem of its own: nothing of it is counted). */
  problems: { kind: 'error' | 'tensor' | 'blocked'; message: string }[];
}

/** A Python number as a JS number (bool as 0 or 1); null for anything else. */
export function numberOf(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (v instanceof PyFloat) return v.value;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return Number(v);
  return null;
}

/** A list or tuple's items; null for anything else. */
export function itemsOf(v: unknown): readonly unknown[] | null {
  if (v instanceof PyList && !v.summarized) return v.items;
  if (v instanceof PyTuple) return v.items;
  return null;
}

/** The numbers of a list of numbers (null when an item is not one). */
export function numbersOf(v: unknown): number[] | null {
  const items = itemsOf(v);
  return items === null ? null : numbersIn(items);
}

/** The items as numbers (null when one is not a number). */
export function numbersIn(items: readonly unknown[]): number[] | null {
  const out: number[] = [];
  for (const x of items) {
    const n = numberOf(x);
    if (n === null) return null;
    out.push(n);
  }
  return out;
}

/** A list of tensors (one per sample); null for anything else. */
export function tensorsOf(v: unknown): TensorPlaceholder[] | null {
  const items = itemsOf(v);
  if (items === null || items.length === 0 || !items.every((x) => x instanceof TensorPlaceholder)) return null;
  return items as TensorPlaceholder[];
}

export async function readTrainFile(access: FileAccess, target: { path: string; displayPath: string }): Promise<TrainRankFile> {
  const r = await readPt(access, target.path, {});
  const problems = r.problems.map((p) => ({ kind: p.kind, message: p.message }));
  const out: TrainRankFile = {
    displayPath: target.displayPath,
    path: target.path,
    rank: null,
    cpRank: 0,
    cpSize: 1,
    qkvFormat: 'thd',
    data: new Map(),
    records: r.records,
    littleEndian: r.littleEndian,
    problems,
  };
  const root = r.root;
  const data = root instanceof PyDict ? root.map.get('rollout_data') : undefined;
  if (!(root instanceof PyDict) || !(data instanceof PyDict)) {
    if (!problems.some((p) => p.kind === 'error'))
      problems.push({ kind: 'error', message: "its root is not save_debug_train_data_for_rank's dict with a rollout_data dict" });
    return out;
  }
  out.rank = numberOf(root.map.get('rank'));
  // Written since miles recorded them; a dump without them is one rank of no context parallelism.
  out.cpRank = numberOf(root.map.get('cp_rank')) ?? 0;
  out.cpSize = numberOf(root.map.get('cp_size')) ?? 1;
  out.qkvFormat = textOf(root.map.get('qkv_format')) ?? 'thd';
  for (const [k, v] of data.map.entries()) {
    const key = textOf(k);
    if (key !== undefined) out.data.set(key, v);
  }
  return out;
}
